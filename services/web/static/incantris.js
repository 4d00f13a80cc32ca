// The Incantris arena, drawn as SVG from the seat's view: the hexes its tiles make (open,
// stream, ocean; a partial rim hex no wizard may enter is pale), the obstacles, the effects
// in play, the crystals and the wizards: each with its type, its life (a ring whose red part is
// its wounds), the persistent spells laid on it (Bane, Entanglement: a badge), a gold rim for
// the wizard acting now, faded once its turn token is flipped, and a crystal carried or sapped.
// A hex an offered action names is a click target; casting is aimed by incantris-aim.js.
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
export const key = (h) => `${h[0]},${h[1]}`;
export {node, pixel, corners, SIZE};
const ABBREVIATION = {shaman: "Sha", druid: "Dru", sorceress: "Sss", sorcerer: "Sor", "shadow-weaver": "SW",
                      "arcane-knight": "AK"};
const TOKEN = {"guardian-hydra": "#1e7d5a", "spell-totem": "#7d3c98"};
const TOKEN_NAME = {"guardian-hydra": "Hydra", "spell-totem": "Totem"};
const BADGE = {bane: "B", entanglement: "E"};  // a spell that lies on a wizard, as its badge shows it

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
    if (a.kind === "cast") continue;  // aimed spell by spell (incantris-aim.js)
    const at = a.action.hex || a.action.target || a.action.to;
    if (Array.isArray(at) && at.length === 2 && typeof at[0] === "number") (targets[key(at)] ||= []).push(a);
  }
  const hexes = node("g", {class: "hexes"});
  svg.append(hexes);
  for (const [q, r, terrain, whole] of arena) {
    const target = targets[key([q, r])];
    const shape = node("polygon", {points: corners([q, r]), fill: TERRAIN[terrain] || "#ccc",
      "fill-opacity": whole ? 1 : 0.35, stroke: "#665", "stroke-width": 0.6,
      class: "hex" + (target ? " target" : ""), "data-hex": key([q, r])});
    shape.append(node("title", {}, `${q},${r} ${terrain}${whole ? "" : " (partial: no wizard may enter)"}` +
      (target ? `: ${target[0].label}` : "")));
    if (target) shape.addEventListener("click", () => onTarget(target[0]));
    hexes.append(shape);
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
      const g = node("g", {class: "piece effect", "data-effect": effect.spell, "data-hex": key(h)});
      if (effect.centre) g.append(node("circle", {cx: x, cy: y, r: SIZE * 2.6, fill: "none", stroke: "#e67e22",
        "stroke-dasharray": "3 2"}));
      if (effect.hex) {  // a token standing on its hex (Guardian Hydra, Spell Totem): it blocks the way and sight
        g.append(node("circle", {cx: x, cy: y, r: SIZE * 0.62, fill: TOKEN[effect.spell] || "#7d3c98", stroke: "#111",
          "stroke-width": 0.8}));
        g.append(node("text", {x, y: y + 2, "text-anchor": "middle", class: "token-text"}, TOKEN_NAME[effect.spell] ||
          effect.spell.slice(0, 5)));
      } else {
        g.append(node("text", {x, y: y - SIZE * 0.8, "text-anchor": "middle", "font-size": 7}, effect.spell));
      }
      g.append(node("title", {}, `${effect.spell} of ${effect.caster}`));
      svg.append(g);
    }
  }
  for (const crystal of view.crystals || []) {
    const h = crystal.hex;
    if (!Array.isArray(h)) continue;  // carried
    const [x, y] = pixel(h);
    svg.append(node("path", {d: `M${x},${y - 7} l5,7 l-5,7 l-5,-7 z`, fill: "#b266ff", stroke: "#333", class: "piece crystal"}));
  }
  const on = {};  // wizard id -> the persistent spells laid on it
  for (const effect of Object.values(view.effects || {})) if (effect.wizard) (on[effect.wizard] ||= []).push(effect);
  const acting = (view.turn || {}).wizard;
  const pieces = node("g", {class: "wizards"});
  svg.append(pieces);
  for (const wizard of Object.values(view.wizards || {})) {
    if (!wizard.hex || !wizard.alive) continue;
    pieces.append(wizardPiece(wizard, view, on[wizard.id] || [], wizard.id === acting));
  }
}

function wizardPiece(wizard, view, effects, acting) {
  const [x, y] = pixel(wizard.hex);
  const team = (view.sides[wizard.side] || {}).team;
  const wounds = Math.max(0, wizard.max - wizard.life);
  const g = node("g", {class: "piece wizard" + (acting ? " acting" : "") + (wizard.done ? " done" : ""),
    "data-wizard": wizard.id, "data-life": wizard.life, "data-max": wizard.max, "data-wounds": wounds,
    "data-effects": effects.map(e => e.spell).join(","), "data-done": wizard.done ? "yes" : "no"});
  const r = SIZE * 0.72, ring = SIZE * 0.86, around = 2 * Math.PI * ring;
  if (acting) g.append(node("circle", {cx: x, cy: y, r: ring + 2.2, fill: "none", stroke: "#ffcc00", "stroke-width": 2.2}));
  // the life ring: red all round (the wounds), green over it for the life left, from the top clockwise
  g.append(node("circle", {cx: x, cy: y, r: ring, fill: "none", stroke: "#d22", "stroke-width": 2, class: "wounds"}));
  g.append(node("circle", {cx: x, cy: y, r: ring, fill: "none", stroke: "#2c2", "stroke-width": 2, class: "life-left",
    "stroke-dasharray": `${around * wizard.life / Math.max(1, wizard.max)} ${around}`,
    transform: `rotate(-90 ${x} ${y})`}));
  g.append(node("circle", {cx: x, cy: y, r, fill: TEAM[team] || "#555", stroke: "#111", "stroke-width": 0.8,
    "fill-opacity": wizard.done && !acting ? 0.55 : 1}));
  g.append(node("text", {x, y: y - 2, "text-anchor": "middle", class: "wizard-type"}, ABBREVIATION[wizard.type] || wizard.type.slice(0, 3)));
  g.append(node("text", {x, y: y + 6.5, "text-anchor": "middle", class: "wizard-life"}, `${wizard.life}`));
  effects.forEach((e, i) => {
    const bx = x + ring * 0.95, by = y - ring * 0.7 + i * 8;
    g.append(node("circle", {cx: bx, cy: by, r: 4, fill: "#e67e22", stroke: "#402000", "stroke-width": 0.6,
      class: "on-wizard", "data-effect": e.spell}));
    g.append(node("text", {x: bx, y: by + 2.2, "text-anchor": "middle", class: "badge-text"}, BADGE[e.spell] || e.spell[0].toUpperCase()));
  });
  if (wizard.carrying) g.append(node("path", {d: `M${x - ring},${y + ring - 5} l3.5,5 l-3.5,5 l-3.5,-5 z`,
    fill: "#b266ff", stroke: "#333", class: "carried", transform: `translate(0 -3)`}));
  if (wizard.sapped) g.append(node("text", {x: x - ring, y: y + ring, "text-anchor": "middle", class: "badge-text sapped"},
    `+${wizard.sapped}`));
  const notes = [`life ${wizard.life}/${wizard.max}` + (wounds ? ` (${wounds} wound${wounds > 1 ? "s" : ""})` : ""),
    ...effects.map(e => `${e.spell} on it (cast by ${e.caster})`),
    acting ? "acting now" : wizard.done ? "activated this round" : "not yet activated this round",
    ...(wizard.carrying ? [`carrying the ${wizard.carrying} crystal`] : []),
    ...(wizard.sapped ? [`sapped ${wizard.sapped} crystal(s)`] : []),
    ...(wizard.items && wizard.items.length ? [`items: ${wizard.items.join(", ")}`] : [])];
  g.append(node("title", {}, `${wizard.id}: ${notes.join("; ")}`));
  return g;
}
