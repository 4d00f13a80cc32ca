// The Tower of the Wizard King's board, drawn as SVG from the seat's view (the platform's
// redaction: a face-down token is {"up": false}, a Ramp token "W") and the Realm's public layout.
const NS = "http://www.w3.org/2000/svg";
const C = 310, RINGS = {tower: 34, rocky: 62, inner: 130, middle: 205, outer: 290};
const RING_OF = {inner: ["rocky", "inner"], middle: ["inner", "middle"], outer: ["middle", "outer"]};
const TERRAIN = {Forest: "#6f9a55", Plains: "#e3d58a", Mountains: "#b2a89f", Swamp: "#8a9a6c"};
export const SEAT_COLOURS = ["#c0392b", "#2a62c9", "#d4a017", "#2e8b57", "#8e44ad", "#e67e22"];
const WIZARD_COLOURS = {fire: "#d62d20", water: "#1e5bd6", air: "#e8c21a", earth: "#2e8b3a"};
const RAMP_STEPS = 18;

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

const polar = (r, a) => [C + r * Math.cos(a), C + r * Math.sin(a)];

function sector(r0, r1, a0, a1) {
  const [x0, y0] = polar(r1, a0), [x1, y1] = polar(r1, a1), [x2, y2] = polar(r0, a1), [x3, y3] = polar(r0, a0);
  const big = a1 - a0 > Math.PI ? 1 : 0;
  return `M${x0},${y0} A${r1},${r1} 0 ${big} 1 ${x1},${y1} L${x2},${y2} A${r0},${r0} 0 ${big} 0 ${x3},${y3} Z`;
}

export function layout(realm) {
  const counts = {};
  for (const t of realm.territories) counts[t.ring] = (counts[t.ring] || 0) + 1;
  const places = {};
  for (const t of realm.territories) {
    const n = counts[t.ring], a0 = (t.position / n) * 2 * Math.PI - Math.PI / 2, a1 = a0 + 2 * Math.PI / n;
    const [i, o] = RING_OF[t.ring].map(k => RINGS[k]);
    places[t.id] = {...t, r0: i, r1: o, a0, a1, mid: (a0 + a1) / 2, rm: (i + o) / 2};
  }
  return places;
}

function sharedEdge(a, b) {
  // the stretch of border two territories share: a radial line (same ring) or an arc (neighbouring rings)
  if (a.ring === b.ring) {
    const angle = Math.abs(a.a1 - b.a0) < 1e-6 || Math.abs(a.a1 - b.a0 - 2 * Math.PI) < 1e-6 ? a.a1 : a.a0;
    const [x0, y0] = polar(a.r0, angle), [x1, y1] = polar(a.r1, angle);
    return {d: `M${x0},${y0} L${x1},${y1}`, at: polar(a.rm, angle)};
  }
  const [inner, outer] = a.r1 <= b.r0 ? [a, b] : [b, a];
  const r = inner.r1;
  let lo = Math.max(inner.a0, outer.a0), hi = Math.min(inner.a1, outer.a1);
  if (lo >= hi) { lo = Math.max(inner.a0, outer.a0 - 2 * Math.PI); hi = Math.min(inner.a1, outer.a1 - 2 * Math.PI); }
  if (lo >= hi) { lo = Math.max(inner.a0 - 2 * Math.PI, outer.a0); hi = Math.min(inner.a1 - 2 * Math.PI, outer.a1); }
  const [x0, y0] = polar(r, lo), [x1, y1] = polar(r, hi);
  return {d: `M${x0},${y0} A${r},${r} 0 0 1 ${x1},${y1}`, at: polar(r, (lo + hi) / 2)};
}

function tokenLabel(token) {
  if (!token.up) return "?";
  const [kind, what] = token.id.split(":");
  return kind === "home" ? `⌂${what.slice(0, 3)}` : kind === "symbol" ? `✦${what.slice(0, 2)}` : what.slice(0, 4);
}

// Draw the board into `svg` (an <svg> element); `targets` maps a territory to the actions aimed at it.
export function draw(svg, realm, places, state, targets, onTarget) {
  const view = state.view;
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 620 700");
  svg.dataset.version = state.version;  // the view this drawing is of
  svg.append(node("circle", {cx: C, cy: C, r: RINGS.rocky, fill: "#c9c3b8", stroke: "#333",
                             "data-territory": "rocky", class: "territory" + (targets.rocky ? " target" : "")}));
  for (const p of Object.values(places)) {
    const square = view.board[p.id] || {};
    const shape = node("path", {d: sector(p.r0, p.r1, p.a0, p.a1), fill: TERRAIN[p.terrain] || "#ccc",
      class: "territory" + (targets[p.id] ? " target" : ""), "data-territory": p.id,
      "stroke-dasharray": square.protected ? "4 2" : "none"});
    shape.append(node("title", {}, `${p.name} (${p.terrain}${p.cave ? ", cave" : ""})` +
      (targets[p.id] ? `: ${targets[p.id][0].label}` : "")));
    if (targets[p.id]) shape.addEventListener("click", () => onTarget(targets[p.id][0]));
    svg.append(shape);
  }
  for (const border of realm.borders) {
    if (!border.river) continue;
    const a = places[border.a] || null, b = places[border.b] || null;
    if (!a || !b) continue;
    const edge = sharedEdge(a, b);
    svg.append(node("path", {d: edge.d, class: "river"}));
    if (border.bridge) svg.append(node("rect", {x: edge.at[0] - 5, y: edge.at[1] - 5, width: 10, height: 10, class: "bridge"}));
  }
  for (const p of Object.values(places)) {
    const square = view.board[p.id] || {};
    const [x, y] = polar(p.rm, p.mid);
    svg.append(node("text", {x, y: y - 9, "text-anchor": "middle", class: "label"}, p.name));
    if (p.cave) svg.append(node("path", {d: `M${x - 14},${y + 14} a4,4 0 0 1 8,0`, fill: "#222", class: "piece"}));
    if (square.castle) {
      svg.append(node("path", {class: "piece castle", "data-castle": p.id, fill: "#eee", stroke: "#333",
        d: `M${x - 7},${y + 6} v-9 h3 v3 h2 v-3 h4 v3 h2 v-3 h3 v9 z`}));
    }
    if (square.token) {
      const [tx, ty] = [x + 12, y + 2];
      svg.append(node("circle", {cx: tx, cy: ty, r: 7, fill: square.token.up ? "#fff8dc" : "#555", stroke: "#222",
        class: "piece token", "data-token": square.token.up ? square.token.id : "face-down"}));
      svg.append(node("text", {x: tx, y: ty + 3, "text-anchor": "middle", class: "label",
        fill: square.token.up ? "#222" : "#fff"}, tokenLabel(square.token)));
    }
    if (square.pennants) {
      const colour = WIZARD_COLOURS[square.pennants.wizard] || "#888";
      svg.append(node("path", {d: `M${x - 16},${y + 8} v-12 l8,3 l-8,3`, fill: colour, stroke: "#222", class: "piece pennant"}));
      svg.append(node("text", {x: x - 20, y: y + 8, class: "label", "text-anchor": "end"}, String(square.pennants.count)));
    }
  }
  // the Tower, and who is in it as far as the view says
  const tower = view.tower || {};
  svg.append(node("circle", {cx: C, cy: C, r: RINGS.tower, fill: "#4b3b6b", stroke: "#222"}));
  svg.append(node("text", {x: C, y: C - 4, "text-anchor": "middle", fill: "#fff", class: "label"}, "Tower"));
  const inside = tower.chambers ? tower.chambers.filter(Boolean).join(", ") : `${tower.inside || 0} inside`;
  svg.append(node("text", {x: C, y: C + 8, "text-anchor": "middle", fill: "#fff", class: "label"}, inside));
  // the Characters where they stand
  view.players.forEach((player, seat) => {
    let x, y;
    if (player.at === "rocky" || !places[player.at]) {
      [x, y] = polar((RINGS.tower + RINGS.rocky) / 2, (seat / view.players.length) * 2 * Math.PI);
    } else {
      const p = places[player.at];
      [x, y] = polar(p.rm + 10, p.mid + (seat - 1) * 0.04);
    }
    const g = node("g", {class: "piece character", "data-seat": seat, "data-at": player.at});
    g.append(node("circle", {cx: x, cy: y, r: 8, fill: SEAT_COLOURS[seat], stroke: player.wizard ? WIZARD_COLOURS[player.wizard] : "#000", "stroke-width": 3}));
    g.append(node("text", {x, y: y + 3, "text-anchor": "middle", fill: "#fff", class: "label"},
      player.character ? player.character.slice(0, 2) : String(seat)));
    g.append(node("title", {}, `seat ${seat}: ${player.character || "no Character yet"}` +
      (player.wizard ? `, ${player.wizard}` : "") + `, ${player.supply} Pennants in supply`));
    svg.append(g);
  });
  // the Ramp of Time and the Wizard King on it
  const y0 = 620, w = 30;
  svg.append(node("text", {x: 10, y: y0 - 6, class: "label"}, "Ramp of Time"));
  for (let step = 0; step <= RAMP_STEPS; step++) {
    const x = 10 + step * w;
    svg.append(node("rect", {x, y: y0 + (RAMP_STEPS - step) * 1.5, width: w - 2, height: 26, fill: step === RAMP_STEPS ? "#4b3b6b" : "#ddd5c5",
      stroke: "#444", "data-step": step}));
    const rampToken = view.ramp && view.ramp[String(step)];
    if (rampToken) svg.append(node("text", {x: x + w / 2 - 1, y: y0 + 18, "text-anchor": "middle", class: "label"},
      typeof rampToken === "string" ? rampToken : String(rampToken.id || rampToken)));
  }
  const kx = 10 + Math.min(view.king, RAMP_STEPS) * w + w / 2 - 1;
  svg.append(node("text", {x: kx, y: y0 + 50, "text-anchor": "middle", class: "king", "data-king": view.king, "font-size": 18}, "♔"));
}
