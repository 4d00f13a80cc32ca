// Aiming an Incantris spell on the board. The legal `cast` actions, grouped by spell (and by
// whether it is cast from the Spell Totem), are listed as the spells the seat may cast; choosing
// one highlights on the board the hexes and wizards its legal actions target, and shades what
// lies out of its range and out of the caster's line of sight. Range, origin and sight are the
// engine's answers to read-only queries (POST /api/matches/{id}/query: "targets" for the spell's
// range and the totem's hex, "line_of_sight" from the caster to each whole hex of the arena, which
// also counts the hexes between); nothing here reads the rules itself. Clicking a target asks
// once to confirm, then sends that cast.
import {api, el, showError} from "/static/common.js";
import {SIZE, corners, key, node, pixel} from "/static/incantris.js";

const WORKERS = 6;  // queries in flight at once
let chosen = null;  // the group key of the spell being aimed
let confirming = null;  // {label, actions, key} of the target clicked, to confirm
const answers = new Map();  // "version|query" -> the engine's answer (a promise)

/** The legal casts by spell: [{key, spell, from, actions}], in the order they are offered. */
export function groups(actions) {
  const out = new Map();
  for (const a of actions) {
    if (a.kind !== "cast") continue;
    const k = a.action.spell + (a.action.from ? " from the totem" : "");
    if (!out.has(k)) out.set(k, {key: k, spell: a.action.spell, from: a.action.from || null, actions: []});
    out.get(k).actions.push(a);
  }
  return [...out.values()];
}

/** Whether a spell is being aimed in this state (then the board's other targets are left out). */
export function aiming(state) {
  return !!current(state);
}

function current(state) {
  if (!chosen || !state || state.status !== "active" || state.to_act !== state.seat) return null;
  return groups(state.actions).find(g => g.key === chosen) || null;
}

function ask(matchId, version, body) {
  const k = `${version}|${JSON.stringify(body)}`;
  if (!answers.has(k)) {
    const p = api(`/api/matches/${matchId}/query`, body);
    p.catch(() => answers.delete(k));  // a refused or failed query is asked again next time
    answers.set(k, p);
  }
  return answers.get(k);
}

async function pooled(items, work) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({length: Math.min(WORKERS, items.length)}, async () => {
    while (next < items.length) { const i = next++; results[i] = await work(items[i]); }
  }));
  return results;
}

/** Where a target sits on the board: a wizard's hex, a hex, or the first hex of a Fog Wall. */
function placeOf(target, view) {
  if (typeof target === "string") {
    const w = (view.wizards || {})[target];
    return w && w.hex ? {hex: w.hex, wizard: target} : null;
  }
  if (Array.isArray(target) && Array.isArray(target[0])) return {hex: target[0], also: target.slice(1)};
  if (Array.isArray(target) && target.length === 2) return {hex: target};
  return null;
}

/** What the board's marks mean, each beside a swatch drawn as the board draws it. */
function legend() {
  const swatch = (cls, fill) => {
    const svg = node("svg", {width: 16, height: 12, viewBox: "0 0 16 12", class: "swatch"});
    if (fill) svg.append(node("pattern", {id: "swatch-hatch", width: 4, height: 4, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)"}, undefined));
    const pattern = svg.querySelector("pattern");
    if (pattern) pattern.append(node("line", {x1: 0, y1: 0, x2: 0, y2: 4, stroke: "#111", "stroke-width": 1.6}));
    svg.append(node("rect", {x: 1, y: 1, width: 14, height: 10, fill: "#d9cfa8"}));
    svg.append(node("rect", {x: 1, y: 1, width: 14, height: 10, class: cls, ...(fill ? {fill: "url(#swatch-hatch)"} : {})}));
    return svg;
  };
  return el("p", {class: "aim-legend"}, swatch("aim-target"), " a legal target  ", swatch("shade out-of-range"),
            " out of range  ", swatch("shade out-of-sight", true), " out of the caster's sight");
}

const spot = (place) => place.wizard ? `wizard:${place.wizard}` : `hex:${key(place.hex)}`;

/** What the engine says of the spell chosen: its range and target kind, where it is cast from,
 * and for each whole hex of the arena whether the caster sees it and how far it is. */
async function survey(state, matchId, group) {
  const view = state.view, caster = (view.turn || {}).wizard;
  const told = await ask(matchId, state.version, {kind: "targets", wizard: caster, spell: group.spell});
  const origin = group.from ? (told.from_totem || {}).hex : view.wizards[caster].hex;
  const whole = (state.arena || []).filter(h => h[3]).map(h => [h[0], h[1]]);
  const sight = await pooled(whole, h => ask(matchId, state.version, {kind: "line_of_sight", from: origin, to: h}));
  return {range: told.range, target: told.target, origin, caster,
          hexes: whole.map((h, i) => ({hex: h, sees: sight[i].sees, far: sight[i].hexes > told.range}))};
}

/** The spells panel and, for the spell chosen, the board's shading and targets. `redraw` draws
 * the page again (the board first); `choose` sends an action. */
export function show(panel, svg, state, matchId, choose, redraw) {
  const offered = state.seat !== null && state.status === "active" && state.to_act === state.seat
    ? groups(state.actions) : [];
  if (chosen && !offered.some(g => g.key === chosen)) { chosen = null; confirming = null; }
  panel.hidden = !offered.length;
  svg.dataset.aim = chosen ? "loading" : "";
  if (!offered.length) { panel.replaceChildren(); return; }
  const pick = (k) => { chosen = chosen === k ? null : k; confirming = null; redraw(); };
  const list = el("div", {class: "spell-list"}, ...offered.map(g => el("button", {
    class: "spell" + (g.key === chosen ? " chosen" : ""), "data-spell": g.spell, "data-group": g.key,
    onclick: () => pick(g.key), text: `${g.key} (${g.actions.length} target${g.actions.length > 1 ? "s" : ""})`})));
  const parts = [el("h2", {text: "Cast a spell"}), list];
  const group = current(state);
  if (group) {
    const status = el("p", {class: "aim-status", text: `Aiming ${group.key}: asking the engine for its range and sight...`});
    parts.push(status, legend());
    if (confirming) {
      parts.push(el("div", {class: "aim-confirm", id: "aim-confirm"},
        el("span", {text: "Confirm the cast: "}),
        ...confirming.actions.map(a => el("button", {class: "confirm", onclick: () => { confirming = null; chosen = null; choose(a); },
                                                    text: a.label})),
        el("button", {class: "cancel", onclick: () => { confirming = null; redraw(); }, text: "No"})));
    }
    parts.push(el("details", {class: "aim-list"}, el("summary", {text: "its targets as a list"}),
      ...group.actions.map(a => el("button", {class: "aim-choice", onclick: () => ask_(a), text: a.label}))));
    const ask_ = (a) => {
      const place = placeOf(a.action.target, state.view);
      confirming = {label: labelOf(a.action.target), actions: [a], key: place ? spot(place) : null};
      redraw();
    };
    survey(state, matchId, group).then(seen => {
      if (svg.dataset.version !== String(state.version) || chosen !== group.key) return;  // drawn again since
      decorate(svg, state, group, seen);
      const hidden = seen.hexes.filter(h => !h.sees && !h.far).length, far = seen.hexes.filter(h => h.far).length;
      status.textContent = `Aiming ${group.key} (range ${seen.range}, target: ${seen.target.replace("-", " ")}): ` +
        `click a highlighted target. Shaded: ${far} hexes out of range; hatched: ${hidden} in range but out of sight.`;
      svg.dataset.aim = "ready";
    }).catch(err => { showError(err.message); status.textContent = `Aiming ${group.key}: the engine did not answer`; });
  }
  panel.replaceChildren(...parts);

  function labelOf(target) {
    if (typeof target === "string") return target;
    return Array.isArray(target[0]) ? target.map(h => key(h)).join(" and ") : key(target);
  }

  function decorate(svg, state, group, seen) {
    const defs = node("defs");
    const hatch = node("pattern", {id: "aim-hatch", width: 4, height: 4, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)"});
    hatch.append(node("rect", {width: 4, height: 4, fill: "#000", "fill-opacity": 0.18}),
                 node("line", {x1: 0, y1: 0, x2: 0, y2: 4, stroke: "#111", "stroke-width": 1.6}));
    defs.append(hatch);
    const shade = node("g", {class: "aim-shade"});
    for (const h of seen.hexes) {
      if (h.far) shade.append(node("polygon", {points: corners(h.hex), class: "shade out-of-range", "data-hex": key(h.hex)}));
      if (!h.sees) shade.append(node("polygon", {points: corners(h.hex), class: "shade out-of-sight",
                                                 fill: "url(#aim-hatch)", "data-hex": key(h.hex)}));
    }
    const [ox, oy] = pixel(seen.origin);
    shade.append(node("circle", {cx: ox, cy: oy, r: SIZE * 1.05, class: "aim-origin"}));
    const hexes = svg.querySelector("g.hexes");
    svg.prepend(defs);
    if (hexes) hexes.after(shade); else svg.append(shade);
    const marks = node("g", {class: "aim-targets"});
    const at = new Map();  // where a target is drawn -> its actions
    for (const a of group.actions) {
      const place = placeOf(a.action.target, state.view);
      if (!place) continue;
      const k = spot(place);
      if (!at.has(k)) at.set(k, {place, actions: []});
      at.get(k).actions.push(a);
    }
    for (const [k, {place, actions}] of at.entries()) {
      const [x, y] = pixel(place.hex);
      const title = node("title", {}, `${place.wizard || key(place.hex)}: ${actions[0].label}`);
      const mark = place.wizard
        ? node("circle", {cx: x, cy: y, r: SIZE * 0.95, class: "target aim-target wizard-target", "data-target": place.wizard})
        : node("polygon", {points: corners(place.hex), class: "target aim-target hex-target", "data-hex": key(place.hex)});
      if (confirming && confirming.key === k) mark.classList.add("confirming");
      mark.append(title);
      mark.addEventListener("click", () => {
        confirming = {label: place.wizard || `hex ${key(place.hex)}`, actions, key: k};
        redraw();
      });
      marks.append(mark);
    }
    svg.append(marks);
  }
}
