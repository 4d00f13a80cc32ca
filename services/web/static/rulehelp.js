// Rules help for the thing under the pointer: hovering a legal action in the list, or a click
// target on the board, shows one line: the engine's label for it and the rulebook section it
// follows (GET /api/rules/{game}, the sections the engine names; services/web/rulehelp.py).
// A kind with no section known shows its label alone. Nothing here is rules text of its own.
import {api} from "/static/common.js";

let help = null, game = null, stateOf = null;

function line(action) {
  const entry = help && help[action.kind];
  if (!entry) return action.label;
  const source = entry.reading ? "reading of the rules" : "rulebook";
  return `${source}, ${entry.section}: ${action.label}` + (entry.clause ? ` ("${entry.clause}")` : "");
}

function actionUnder(node, state) {
  const button = node.closest && node.closest("#actions button.action");
  if (button) return state.actions.find(a => String(a.index) === button.dataset.index) || null;
  const target = node.closest && node.closest("#board-svg .target, #board-svg .spot, #board-svg .preview");
  if (!target) return null;
  // a board target's tooltip ends with the label of the action a click does (tower.js, incantris.js, wizards.js)
  const title = (target.querySelector("title") || {}).textContent || "";
  const matching = state.actions.filter(a => a.label && title.endsWith(a.label));
  return matching.sort((a, b) => b.label.length - a.label.length)[0] || null;
}

function show(event) {
  const state = stateOf && stateOf();
  const box = document.getElementById("rule-help");
  if (!state || !box) return;
  const action = actionUnder(event.target, state);
  if (!action) return;
  box.hidden = false;
  box.textContent = line(action);
  box.title = box.textContent;
  box.dataset.kind = action.kind;
}

export async function attachHelp(getState) {
  const state = getState();
  if (!stateOf) {
    stateOf = getState;
    document.addEventListener("mouseover", show);
  }
  if (state && state.game !== game) {
    game = state.game;
    help = (await api(`/api/rules/${encodeURIComponent(game)}`).catch(() => ({kinds: {}}))).kinds;
  }
}
