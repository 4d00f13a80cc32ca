// What the Wizards board's drawing modules share: pointy-top hex geometry on axial [q, r] (as
// shared/hexgrid.py: directions 0-5 clockwise from east), terrain colours, SVG nodes.
export const NS = "http://www.w3.org/2000/svg";
export const SIZE = 11, ROOT3 = Math.sqrt(3);
export const KIND = {plains: "#d8e6a3", woods: "#6fa656", mountains: "#a89f90", town: "#e0a860", dwelling: "#9ad6b0",
  abbey: "#efe2ff", tower: "#b48de3", cottage: "#e6b98a", lair: "#9a3030", high_hollow: "#cdb8ec",
  star_crest: "#f3e36b", stone: "#c8c8c8", circle: "#ffffff"};
export const GLYPH = {town: "T", dwelling: "E", abbey: "A", tower: "M", cottage: "H", lair: "L", high_hollow: "O",
  star_crest: "*", circle: "@"};
export const WATER = "#8ec1e6", FACE_DOWN = "#7d6f9e";

export function node(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

export const pixel = ([q, r], size = SIZE) => [size * ROOT3 * (q + r / 2), size * 1.5 * r];
export const key = (h) => `${h[0]},${h[1]}`;
const corner = (x, y, i, size) => {
  const a = Math.PI / 180 * (60 * i - 30);
  return [x + size * Math.cos(a), y + size * Math.sin(a)];
};
export function hexPoints(h, size = SIZE, at = [0, 0]) {
  const [x, y] = pixel(h, size);
  return Array.from({length: 6}, (_, i) => corner(x + at[0], y + at[1], i, size).join(",")).join(" ");
}
const DIRS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];  // E, SE, SW, W, NW, NE
// the side of a hex towards direction d runs between corners d and d+1 (corner 0 is at -30 degrees)
export function side(h, d, size = SIZE, at = [0, 0]) {
  const [x, y] = pixel(h, size);
  const [a, b] = [corner(x + at[0], y + at[1], d, size), corner(x + at[0], y + at[1], (d + 1) % 6, size)];
  return {x1: a[0], y1: a[1], x2: b[0], y2: b[1]};
}
export const neighbour = (h, d) => [h[0] + DIRS[d][0], h[1] + DIRS[d][1]];
export const direction = (a, b) => DIRS.findIndex(([dq, dr]) => a[0] + dq === b[0] && a[1] + dr === b[1]);

