// Placing a Wizards tile on the board (3.21-3.23): the engine lists the choice in steps
// (shared/wizards/placement.py): choose_tile (a tile of the hand), choose_spot (where its Center
// goes), place_tile (its turn, 0-5). Here the tile is picked from the hand drawn under the
// islands (that sends choose_tile, which is what lists the open spots); a spot is then picked
// among those the legal actions name, the tile is shown lying there and turned on the board
// (click it, or the turn buttons), and one "Place the tile" sends place_tile naming tile, spot
// and turn at once, which the engine takes at any of the steps. Face down (solitaire) there is
// no tile to pick: the spots come first.
import {KIND, SIZE, hexPoints, key, node, pixel, side} from "/static/wizards-hex.js";

const TRAY = 64, MINI = 3.4;
const ui = {tile: null, at: null, rotation: 0};
const STEPS = ["choose_tile", "choose_spot", "place_tile"];

const placing = (actions) => actions.filter(a => STEPS.includes(a.action.kind));
export const trayHeight = (world, actions) => placing(actions).length && world.hand.length ? TRAY : 0;

function footprint() {  // a tile's 19 hexes about its Center, for a face-down tile
  const out = [];
  for (let q = -2; q <= 2; q++) for (let r = -2; r <= 2; r++) if (Math.abs(q + r) <= 2) out.push([q, r, null]);
  return out;
}

function drawTile(group, shape, size, at, extra = {}) {
  for (const [dq, dr, kind] of shape ? shape.cells : footprint()) {
    group.append(node("polygon", {points: hexPoints([dq, dr], size, at), fill: kind ? KIND[kind] || "#ccc" : "#7d6f9e",
      stroke: "#4a3b20", "stroke-width": size / 12, ...extra}));
  }
  for (const [dq, dr, d] of shape ? shape.walls : []) {
    group.append(node("line", {...side([dq, dr], d, size, at), class: "wall", "stroke-width": size / 3.5}));
  }
}

function controls(world, onConfirm, redraw) {
  let bar = document.getElementById("place-controls");
  if (!bar) {
    bar = document.createElement("div");
    bar.id = "place-controls";
    bar.className = "place-controls";
    document.getElementById("board-pane").insertBefore(bar, document.getElementById("roll"));
  }
  bar.hidden = !ui.at;
  if (!ui.at) return;
  const name = ui.tile ? world.hand.find(t => t.tile === ui.tile)?.name || ui.tile : "the face-down tile";
  const button = (id, text, fn) => Object.assign(document.createElement("button"), {id, textContent: text, onclick: fn});
  bar.replaceChildren(document.createTextNode(`${name} centred on ${key(ui.at)}, turned ${ui.rotation}/6 `),
    button("place-left", "\u27f2 turn", () => { ui.rotation = (ui.rotation + 5) % 6; redraw(); }),
    button("place-right", "turn \u27f3", () => { ui.rotation = (ui.rotation + 1) % 6; redraw(); }),
    button("place-confirm", "Place the tile", onConfirm),
    button("place-cancel", "Cancel", () => { ui.at = null; redraw(); }));
}

export function draw(svg, state, actions, onAct, box, redraw) {
  const world = state.world, steps = placing(actions);
  const selected = world.selected || {};
  if (!steps.length) {
    Object.assign(ui, {tile: null, at: null, rotation: 0});
    controls(world, null, redraw);
    return;
  }
  if (ui.tile !== (selected.tile || null)) Object.assign(ui, {tile: selected.tile || null, at: null, rotation: 0});
  const spots = steps.filter(a => a.action.kind !== "choose_tile").map(a => a.action.at);
  const open = new Set(spots.map(key));
  if (ui.at && !open.has(key(ui.at))) ui.at = null;
  if (!ui.at && selected.at && open.has(key(selected.at))) ui.at = selected.at;
  // the hand, under the islands
  world.hand.forEach((t, i) => {
    const pick = steps.find(a => a.action.kind === "choose_tile" && a.action.tile === t.tile);
    const x = box.x0 + 28 + i * 62, y = box.y + TRAY / 2;
    const g = node("g", {class: "hand-tile" + (t.tile === ui.tile ? " chosen" : "") + (pick ? " target" : ""),
      "data-tile": t.tile});
    g.append(node("rect", {x: x - 28, y: y - 30, width: 56, height: 60, rx: 4, class: "hand-back"}));
    drawTile(g, t.turns[0], MINI, [x, y - 4]);
    g.append(node("text", {x, y: y + 26, "text-anchor": "middle", class: "hand-name"}, t.name));
    g.append(node("title", {}, `${t.tile} ${t.name} (${t.type})` + (pick ? `: ${pick.label}` : "")));
    if (pick) g.addEventListener("click", () => onAct(pick));
    svg.append(g);
  });
  // the open spots the legal actions name
  for (const at of spots) {
    if (ui.at && key(at) === key(ui.at)) continue;
    const [x, y] = pixel(at);
    const dot = node("circle", {cx: x, cy: y, r: 2.6, class: "spot target", "data-spot": key(at)});
    dot.append(node("title", {}, `centre the tile on ${key(at)}`));
    dot.addEventListener("click", () => { ui.at = at; ui.rotation = 0; redraw(); });
    svg.append(dot);
  }
  // the tile where it would lie, turned as chosen; a click turns it
  if (ui.at) {
    const shape = ui.tile ? world.hand.find(t => t.tile === ui.tile)?.turns[ui.rotation] : null;
    const g = node("g", {class: "preview", "data-spot": key(ui.at), "data-rotation": ui.rotation});
    drawTile(g, shape, SIZE, pixel(ui.at), {"fill-opacity": 0.85});
    g.addEventListener("click", () => { ui.rotation = (ui.rotation + 1) % 6; redraw(); });
    svg.append(g);
  }
  controls(world, () => {
    const wanted = {kind: "place_tile", ...(ui.tile ? {tile: ui.tile} : {}), at: ui.at, rotation: ui.rotation};
    const same = (a) => Object.keys(wanted).length + 0 === Object.keys(a).length &&
      Object.entries(wanted).every(([k, v]) => JSON.stringify(a[k]) === JSON.stringify(v));
    const listed = steps.find(a => same(a.action));
    onAct(listed || {action: wanted, service: "board", label: "place the tile"});
  }, redraw);
}
