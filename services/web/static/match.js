// A match page: the board drawn from the seat's view, whose turn, the legal actions as a list
// and as targets on the board, the dice with their purpose, the event log, resign.
// Everything comes over the match's WebSocket (services/web/relay.py); acting is a POST.
import {actionId, api, el, showError} from "/static/common.js";
import * as incantris from "/static/incantris.js";
import * as aim from "/static/incantris-aim.js";
import * as tower from "/static/tower.js";
import * as wizards from "/static/wizards.js";
import * as record from "/static/wizards-record.js";
import {attachHelp} from "/static/rulehelp.js";

const matchId = location.pathname.split("/").pop();
let state = null, realm = null, places = null, busy = false, sheetVersion = null;
const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
svg.id = "board-svg";
document.getElementById("board").append(svg);

const seatName = (seat) => {
  if (!state) return `seat ${seat}`;
  const s = state.seats.find(x => x.index === seat);
  return seat === state.seat ? `${s ? s.name : "seat " + seat} (you)` : s ? `${s.name} (seat ${seat})` : `seat ${seat}`;
};

function describe(event) {
  const b = event.body, who = (s) => seatName(s);
  if (state?.game === "incantris" && event.type === "cast")  // the target: a wizard, a hex or a Fog Wall's hexes
    return `${b.wizard} casts ${b.spell} at ${typeof b.target === "string" ? b.target : JSON.stringify(b.target)}`;
  switch (event.type) {
    case "match_created": return `A ${b.game} match (${b.config.variant}) for ${b.seats.length} seats`;
    case "dice_committed": return "The dice are committed (their log is verifiable once the match ends)";
    case "first_player": return `${who(b.seat)} goes first`;
    case "turn_started": return `${b.seat === state?.seat ? "Your" : who(b.seat) + "'s"} ${b.extra ? "extra " : ""}turn`;
    case "battle_dice": return null;  // the roll before it shows the dice
    case "token_removed": return `The token ${b.token} leaves ${b.territory}`;
    case "spell_cast": return `${who(b.seat)} casts ${b.spell} (from the ${b.source})`;
    case "moved": return `${who(b.seat)}${b.character ? ` (${b.character})` : ""} moves from ${b.from} to ${b.to}` +
      (b.space ? ` (${b.space})` : "");  // Tower names the character; Wizards the space reached
    case "transported": return `${who(b.seat)} is transported to ${b.to} (${b.space})`;  // Wizards (8, 11.213)
    case "token_revealed": return `${who(b.by)} turns over ${b.token} in ${b.territory}`;
    case "battle_started": return `Battle in ${b.territory}: ${who(b.attacker)} against ${b.defender === null ? "the token" : who(b.defender)}`;
    case "battle_won": return `${b.winner === undefined || b.winner === null ? "The " + b.side : who(b.winner)} wins the battle in ${b.territory}`;
    case "pennants_placed": return `${who(b.seat)} places ${b.count} Pennant(s) in ${b.territory} (${b.why})`;
    case "character_dealt": return `${who(b.seat)} is dealt the ${b.character}`;
    case "wizard_selected": return `${who(b.seat)} is the Wizard of ${b.wizard}`;
    case "character_eliminated": return `${who(b.seat)} eliminates the ${b.character}`;
    case "wizard_eliminated": return `${who(b.seat)} eliminates the Wizard of ${b.wizard}`;
    case "extra_turn": return `${who(b.seat)} earns an extra turn: ${b.why}`;
    case "action": return null;  // what it did follows as the game's own events
    case "roll": return b.pools.every(p => p.results.every(r => r === "?"))
      ? `${b.pools.length} secret draws (${b.pools[0].purpose.replace(/ \d+\/\d+$/, "")}, ...)`
      : "Dice: " + b.pools.map(p => `${p.purpose} ${p.results.join(" ")}`).join("; ");
    case "match_finished": return "The match is over";
    default: {
      const parts = Object.entries(b).filter(([k]) => k !== "type").map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
      return `${event.type.replaceAll("_", " ")}: ${parts.join(", ")}`;
    }
  }
}

function showRoll(event) {
  // a setup's secret draws (every result "?") say nothing to show as dice: the log lists them
  const pools = event.body.pools.filter(pool => pool.results.some(r => r !== "?")).slice(0, 6);
  if (!pools.length) return;
  const box = document.getElementById("roll");
  box.replaceChildren(el("strong", {text: "Last roll"}), ...pools.map(pool => el("div", {class: "pool"},
    ...pool.results.map(r => el("span", {class: "die", title: `a d${pool.faces.length}`, text: String(r)})),
    " ", el("span", {class: "purpose", text: pool.purpose}))));
}

function addEvents(events) {
  const log = document.getElementById("log");
  for (const event of events) {
    if (event.type === "roll") showRoll(event);
    const text = describe(event);
    if (!text) continue;
    log.append(el("li", {"data-seq": event.seq, "data-type": event.type,
                         class: event.type === "turn_started" ? "turn-start" : "", text}));
  }
  log.scrollTop = log.scrollHeight;
  document.body.dataset.lastSeq = events.length ? events[events.length - 1].seq : document.body.dataset.lastSeq;
}

async function choose(action) {
  if (busy || !state) return;
  busy = true;
  document.querySelectorAll("#actions button, #spells button").forEach(b => b.disabled = true);
  try {
    showError("");
    await api(`/api/matches/${matchId}/act`, {action: action.action, service: action.service, version: state.version,
                                             action_id: actionId()});
  } catch (err) { showError(err.message); busy = false; render(); }
}

function targetsOf(actions) {
  const targets = {};
  for (const a of actions) {
    const at = a.action.to || a.action.territory;
    if (typeof at === "string") (targets[at] ||= []).push(a);
  }
  return targets;
}

function render() {
  if (!state) return;
  document.body.dataset.version = state.version;
  document.body.dataset.status = state.status;
  document.getElementById("title").textContent = `${state.game} · ${state.variant}`;
  document.getElementById("who").textContent = state.seat === null ? "watching" : `you play seat ${state.seat}`;
  document.body.dataset.watching = state.seat === null ? "yes" : "no";
  document.getElementById("choices-title").textContent = state.seat === null
    ? "Watching: read-only, as every spectator sees it" : "Your choices";
  const turn = document.getElementById("turn");
  turn.textContent = state.status !== "active" ? "The match is over"
    : state.to_act === state.seat ? "Your move" : state.to_act >= 0 ? `Waiting for ${seatName(state.to_act)}` : "Dice are rolling";
  const outcome = document.getElementById("outcome");
  outcome.hidden = !state.outcome;
  if (state.outcome) outcome.textContent = `${state.outcome.summary} (scores ${state.outcome.scores.join(", ")})`;
  document.getElementById("replay-link").hidden = state.status === "active";  // over: its log is public
  document.getElementById("replay").href = `/replay/${matchId}`;
  const actions = busy ? [] : state.actions;
  // Incantris lists its casts by spell, aimed on the board (incantris-aim.js)
  const listed = state.game === "incantris" ? actions.filter(a => a.kind !== "cast") : actions;
  document.getElementById("actions").replaceChildren(...listed.map(a => el("li", {},
    el("button", {class: "action", "data-index": a.index, "data-kind": a.kind, onclick: () => choose(a), text: a.label}))));
  const mine = state.seat !== null && state.status === "active";
  document.getElementById("resign").hidden = !mine;
  if (!mine) document.getElementById("resign-confirm").hidden = true;
  if (state.game === "tower" && realm && state.view) {
    tower.draw(svg, realm, places, state, targetsOf(actions), choose);
  } else if (state.game === "incantris" && state.arena) {
    const shown = {...state, actions};
    incantris.draw(svg, state, aim.aiming(shown) ? [] : actions, choose);
    aim.show(document.getElementById("spells"), svg, shown, matchId, choose, render);
  } else if (state.game === "wizards" && state.world) {
    wizards.draw(svg, state, actions, choose);
    showSheet();
  } else if (state.view) {
    svg.setAttribute("viewBox", "0 0 620 60");
    svg.replaceChildren();
    const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
    t.setAttribute("x", 10); t.setAttribute("y", 30);
    t.textContent = `No drawn board for ${state.game} yet: the list and the log play it`;
    svg.dataset.version = state.version;
    svg.append(t);
  }
}

async function showSheet() {
  // the seat's own Record Sheet, asked again for each new version of the match
  if (state.seat === null || sheetVersion === state.version) return;
  sheetVersion = state.version;
  try {
    record.show(document.getElementById("record"), await api(`/api/matches/${matchId}/query`, {kind: "record_sheet"}));
  } catch (err) { showError(err.message); }
}

document.getElementById("resign").addEventListener("click", () => { document.getElementById("resign-confirm").hidden = false; });
document.getElementById("resign-confirm").addEventListener("click", async () => {
  try { await api(`/api/matches/${matchId}/resign`, {action_id: actionId()}); } catch (err) { showError(err.message); }
  document.getElementById("resign-confirm").hidden = true;
});

async function connect() {
  document.getElementById("log").replaceChildren();  // the socket sends every event again
  realm = await api("/api/realm/tower").catch(() => null);
  places = realm ? tower.layout(realm) : null;
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/matches/${matchId}`);
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "state") { state = data; busy = false; render(); attachHelp(() => state); }
    else if (data.type === "events") addEvents(data.events);
    else if (data.type === "error") { showError(data.error); document.getElementById("turn").textContent = "not connected"; }
  };
  socket.onclose = (e) => { if (e.code >= 4400) return; if (state?.status !== "finished") setTimeout(connect, 1000); };
}
connect();
