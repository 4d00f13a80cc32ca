// The Enchanted Islands, drawn as SVG from the seat's view (services/web/wizards_world.py): the
// board's pointy-top hexes in odd-r rows as shared/wizards/geometry.py lays them, Water, each
// tile's spaces by terrain with its name, tile edges and walls, face-down tiles, the Territories
// lost to Evil, Boats, the Dragon, Demons, the players' pieces and the markers. A hex an offered
// `move` names is a click target; the tile placement is chosen on the board (wizards-place.js).
import * as place from "/static/wizards-place.js";
import {FACE_DOWN, GLYPH, KIND, SIZE, WATER, direction, hexPoints, key, neighbour, node, pixel, side} from "/static/wizards-hex.js";

function targetsOf(actions) {
  const targets = {};
  for (const a of actions) {
    const to = a.action.to;
    if (a.action.kind === "move" && Array.isArray(to) && to.length === 2) (targets[key(to)] ||= []).push(a);
  }
  return targets;
}

function drawHexes(svg, world, targets, onAct) {
  const taken = new Set(world.taken);
  const tileAt = {};
  for (const s of world.spaces) tileAt[key(s)] = s[2];
  for (const h of world.face_down) tileAt[key(h)] = "?" + key(h);
  for (const h of world.water) {
    const target = targets[key(h)];
    svg.append(hexShape(h, WATER, target, "water", onAct));
  }
  for (const h of world.face_down) {
    svg.append(node("polygon", {points: hexPoints(h), fill: FACE_DOWN, stroke: "#5d5180", "stroke-width": 0.4,
      class: "hex face-down", "data-hex": key(h)}));
  }
  for (const [q, r, tile, label, kind, type, name, dots] of world.spaces) {
    const h = [q, r], target = targets[key(h)];
    const shape = hexShape(h, KIND[kind] || "#ccc", target, `${kind} ${type}`, onAct);
    shape.setAttribute("data-tile", tile);
    shape.setAttribute("data-label", label);
    shape.querySelector("title").textContent = `${tile} ${label}: ${name || kind.replace("_", " ")}` +
      (taken.has(tile) ? " (lost to Evil)" : "") + (target ? ` - ${target[0].label}` : "");
    svg.append(shape);
    const glyph = kind === "stone" ? String(dots) : GLYPH[kind];
    const [x, y] = pixel(h);
    if (glyph) svg.append(node("text", {x, y: y + 3, "text-anchor": "middle", class: "glyph"}, glyph));
    if (taken.has(tile)) svg.append(node("polygon", {points: hexPoints(h), class: "taken"}));
  }
  // tile edges (against another tile or the Water), then walls over them
  const land = [...world.spaces.map(s => [s[0], s[1]]), ...world.face_down];
  for (const h of land) {
    for (let d = 0; d < 6; d++) {
      const n = neighbour(h, d);
      if (tileAt[key(n)] !== tileAt[key(h)]) svg.append(node("line", {...side(h, d), class: "edge"}));
    }
  }
  for (const [q1, r1, q2, r2] of world.walls) {
    svg.append(node("line", {...side([q1, r1], direction([q1, r1], [q2, r2])), class: "wall"}));
  }
}

function hexShape(h, fill, target, what, onAct) {
  const shape = node("polygon", {points: hexPoints(h), fill, class: "hex" + (target ? " target" : ""),
    "data-hex": key(h)});
  shape.append(node("title", {}, target ? `${key(h)}: ${target[0].label}` : `${key(h)} ${what}`));
  if (target) shape.addEventListener("click", () => onAct(target[0]));
  return shape;
}

function drawNames(svg, world) {
  for (const t of world.tiles) {
    const [x, y] = pixel(t.at);
    const name = t.tile ? t.name : "face down";
    svg.append(node("text", {x, y: y - SIZE * 0.9, "text-anchor": "middle", class: "tile-name",
      "data-tile": t.tile || ""}, name + (world.taken.includes(t.tile) ? " (lost)" : "")));
  }
}

function drawPieces(svg, world, you) {
  const put = (at, dx, dy, ...shapes) => {
    if (!at) return;
    const [x, y] = pixel(at);
    const g = node("g", {transform: `translate(${x + dx},${y + dy})`});
    g.append(...shapes);
    svg.append(g);
    return g;
  };
  for (const b of world.boats) {
    put(b.at, 0, 3, node("path", {d: "M-7,-1 L7,-1 L4,4 L-4,4 Z", class: "piece boat", "data-boat": b.id}),
      node("title", {}, `Boat ${b.id}` + (b.rider !== null ? ` (seat ${b.rider} aboard)` : "")));
  }
  for (const m of world.task_markers) {
    put(m.at, 5, -5, node("rect", {x: -2.5, y: -2.5, width: 5, height: 5, class: "piece task-marker",
      fill: world.pieces[m.seat]?.colour || "#888", "data-seat": m.seat}), node("title", {}, `Task ${m.task} of seat ${m.seat}`));
  }
  for (const w of world.wizard_markers) {
    put(w.at, -5, -5, node("circle", {r: 3, class: "piece wizard-marker"}), node("title", {}, `${w.wizard}`));
  }
  for (const s of world.secret_wizards) {
    put(s.at, -5, -5, node("circle", {r: 3, class: "piece secret-wizard"}), node("title", {}, `Secret Wizard ${s.letter}`));
  }
  for (const d of world.demons) put(d, 5, 5, node("text", {class: "piece demon", "text-anchor": "middle"}, "x"));
  if (world.dragon) {
    put(world.dragon, 0, 0, node("circle", {r: 5.5, class: "piece dragon"}),
      node("text", {y: 2.5, "text-anchor": "middle", class: "piece-text"}, "D"), node("title", {}, "the Dragon"));
  }
  for (const p of world.pieces) {
    if (!p.at) continue;
    const g = put(p.at, p.seat % 2 ? 3 : -3, p.boat !== null ? -2 : 0,
      node("circle", {r: 5.5, fill: p.colour || "#777", class: "piece player"}),
      node("text", {y: 2.5, "text-anchor": "middle", class: "piece-text"}, String(p.seat)),
      node("title", {}, `seat ${p.seat}${p.seat === you ? " (you)" : ""}, ${p.colour || "no colour yet"}`));
    g.setAttribute("class", "player-piece");
    g.setAttribute("data-seat", p.seat);
    g.setAttribute("data-at", key(p.at));
  }
}

export function draw(svg, state, actions, onAct) {
  const world = state.world;
  svg.replaceChildren();
  svg.dataset.version = state.version;  // the view this drawing is of
  svg.style.width = "880px";
  const corners = world.water.concat(world.spaces, world.face_down).map(h => pixel(h));
  const x0 = Math.min(...corners.map(c => c[0])) - SIZE, y0 = Math.min(...corners.map(c => c[1])) - SIZE;
  const x1 = Math.max(...corners.map(c => c[0])) + SIZE, y1 = Math.max(...corners.map(c => c[1])) + SIZE;
  const tray = place.trayHeight(world, actions);
  svg.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0 + tray}`);
  drawHexes(svg, world, targetsOf(actions), onAct);
  drawNames(svg, world);
  drawPieces(svg, world, state.seat);
  place.draw(svg, state, actions, onAct, {x0, y: y1, width: x1 - x0}, () => draw(svg, state, actions, onAct));
}
