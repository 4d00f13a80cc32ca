// The Incantris arena, drawn as SVG from the seat's view: the hexes its tiles make (open,
// stream, ocean; a partial rim hex no wizard may enter is pale), the obstacles, the effects
// in play, the crystals and the wizards with their life. A hex an offered action names is a
// click target.
const NS = "http://www.w3.org/2000/svg";
const SIZE = 14, ROOT3 = Math.sqrt(3);
const TERRAIN = {open: "#d9cfa8", stream: "#8fc3e8", ocean: "#3f7fbf"};
const OBSTACLE = {tree: "#2f6b2f", "low-wall": "#a08060", "high-wall": "#5a4630"};
const TEAM = {red: "#c0392b", blue: "#2a62c9", green: "#2e8b57", yellow: "#d4a017"};

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

const pixel = ([q, r]) => [SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r];
const corners = (h) => {
  const [x, y] = pixel(h);
  return Array.from({length: 6}, (_, i) => {
    const a = Math.PI / 180 * (60 * i - 30);
    return `${x + SIZE * Math.cos(a)},${y + SIZE * Math.sin(a)}`;
  }).join(" ");
};
const key = (h) => `${h[0]},${h[1]}`;

export function draw(svg, state, actions, onTarget) {
  const view = state.view, arena = state.arena || [];
  svg.replaceChildren();
  svg.dataset.version = state.version;  // the view this drawing is of
  const xs = arena.map(h => pixel(h)[0]), ys = arena.map(h => pixel(h)[1]);
  const pad = SIZE * 2;
  svg.setAttribute("viewBox", `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ` +
    `${Math.max(...xs) - Math.min(...xs) + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`);
  const targets = {};
  for (const a of actions) {
    const at = a.action.hex || a.action.target || a.action.to;
    if (Array.isArray(at) && at.length === 2 && typeof at[0] === "number") (targets[key(at)] ||= []).push(a);
  }
  for (const [q, r, terrain, whole] of arena) {
    const target = targets[key([q, r])];
    const shape = node("polygon", {points: corners([q, r]), fill: TERRAIN[terrain] || "#ccc",
      "fill-opacity": whole ? 1 : 0.35, stroke: "#665", "stroke-width": 0.6,
      class: "hex" + (target ? " target" : ""), "data-hex": key([q, r])});
    shape.append(node("title", {}, `${q},${r} ${terrain}${whole ? "" : " (partial: no wizard may enter)"}` +
      (target ? `: ${target[0].label}` : "")));
    if (target) shape.addEventListener("click", () => onTarget(target[0]));
    svg.append(shape);
  }
  for (const obstacle of view.obstacles || []) {
    for (const h of obstacle.hexes) {
      const [x, y] = pixel(h);
      svg.append(node("circle", {cx: x, cy: y, r: SIZE * 0.55, fill: OBSTACLE[obstacle.kind] || "#444",
        class: "piece obstacle", "data-obstacle": obstacle.kind}));
    }
  }
  for (const effect of Object.values(view.effects || {})) {  // persistent spells on the arena
    const where = effect.hexes || (effect.centre ? [effect.centre] : effect.hex ? [effect.hex] : []);
    for (const h of where) {
      const [x, y] = pixel(h);
      if (effect.centre) svg.append(node("circle", {cx: x, cy: y, r: SIZE * 2.6, fill: "none", stroke: "#e67e22",
        "stroke-dasharray": "3 2", class: "piece effect"}));
      svg.append(node("text", {x, y: y - SIZE * 0.8, "text-anchor": "middle", "font-size": 7, class: "piece effect",
        "data-effect": effect.spell}, effect.spell));
    }
  }
  for (const crystal of view.crystals || []) {
    const h = crystal.hex;
    if (!Array.isArray(h)) continue;  // carried
    const [x, y] = pixel(h);
    svg.append(node("path", {d: `M${x},${y - 7} l5,7 l-5,7 l-5,-7 z`, fill: "#b266ff", stroke: "#333", class: "piece crystal"}));
  }
  for (const wizard of Object.values(view.wizards || {})) {
    if (!wizard.hex || !wizard.alive) continue;
    const [x, y] = pixel(wizard.hex);
    const team = (view.sides[wizard.side] || {}).team;
    const g = node("g", {class: "piece wizard", "data-wizard": wizard.id});
    g.append(node("circle", {cx: x, cy: y, r: SIZE * 0.7, fill: TEAM[team] || "#555", stroke: "#111"}));
    g.append(node("text", {x, y: y + 3, "text-anchor": "middle", fill: "#fff", "font-size": 8}, `${wizard.life}`));
    g.append(node("title", {}, `${wizard.id}: life ${wizard.life}/${wizard.max}`));
    svg.append(g);
  }
}
