// A finished match's replay: the whole log from /api/replay/{id}, the board drawn from the
// spectator's view after each step (set-up, each action, each resignation, each roll), the
// step's events highlighted in the log, and the platform's verdict on the match's dice.
import {api, el, showError} from "/static/common.js";
import * as incantris from "/static/incantris.js";
import * as tower from "/static/tower.js";
import * as wizards from "/static/wizards.js";

const matchId = location.pathname.split("/").pop();
let data = null, realm = null, places = null, at = 0;
const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
svg.id = "board-svg";
document.getElementById("board").append(svg);

const seatName = (seat) => {
  const s = data.seats.find(x => x.index === seat);
  return s ? `${s.name} (seat ${seat})` : `seat ${seat}`;
};

function describe(event, stepOf) {
  const b = event.body;
  switch (event.type) {
    case "dice_committed": return `The dice are committed: ${b.commitment.slice(0, 16)}...`;
    case "match_created": return `A ${b.game} match (${b.config.variant}) for ${b.seats.length} seats`;
    case "action": return stepOf ? stepOf.text.replace(/^seat (\d+)/, (_, s) => seatName(+s)) : `${seatName(b.seat)} acts`;
    case "resigned": return `${seatName(b.seat)} resigns${b.reason ? ` (${b.reason.replaceAll("_", " ")})` : ""}`;
    case "roll": return (b.secret ? "Secret draw: " : "Dice: ") +
      b.pools.map(p => `${p.purpose} ${p.results.join(" ")}`).join("; ");
    case "turn_started": return `${seatName(b.seat)}'s ${b.extra ? "extra " : ""}turn`;
    case "match_finished": return `The match is over${b.outcome && b.outcome.summary ? ": " + b.outcome.summary : ""}`;
    case "dice_revealed": return `The seed is revealed: ${b.seed.slice(0, 16)}...`;
    default: {
      const parts = Object.entries(b).filter(([k]) => k !== "type")
        .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
      return `${event.type.replaceAll("_", " ")}: ${parts.join(", ")}`;
    }
  }
}

function showLog() {
  const bySeq = Object.fromEntries(data.steps.map(s => [s.seq, s]));
  const lis = [];
  for (const step of data.steps) {
    for (const event of data.events) {
      if (event.seq < step.first_seq || event.seq > step.last_seq) continue;
      const li = el("li", {"data-seq": event.seq, "data-type": event.type, "data-step": step.index,
        class: (event.seq === step.seq ? "step-head" : "") + (event.type === "turn_started" ? " turn-start" : ""),
        text: describe(event, bySeq[event.seq])});
      li.addEventListener("click", () => go(step.index));
      lis.push(li);
    }
  }
  document.getElementById("log").replaceChildren(...lis);
}

function showDice() {
  const dice = data.dice;
  const verdict = document.getElementById("verdict");
  verdict.className = "verdict " + (dice.ok ? "ok" : "bad");
  verdict.textContent = dice.ok
    ? `Dice verified: ${dice.rolls_checked ? dice.rolls_checked + " dice recomputed from the seed" : "no die was rolled"}, ` +
      `${dice.events_checked} events chained`
    : `NOT verified: ${dice.problems.length} problem(s) found`;
  document.getElementById("checked").textContent = dice.checked;
  document.getElementById("commitment").textContent = dice.commitment;
  document.getElementById("seed").textContent = dice.seed || "(not revealed)";
  document.getElementById("problems").replaceChildren(...dice.problems.map(p => el("li", {class: "problem", text: p})));
  document.body.dataset.verified = dice.ok ? "ok" : "bad";
}

function draw(step) {
  const state = {view: step.view, version: step.index, arena: step.arena, seat: null,
    world: step.world && Object.fromEntries(Object.entries(step.world).map(([k, i]) => [k, data.parts[i]]))};
  if (data.game === "tower" && realm && step.view && step.view.board) {
    tower.draw(svg, realm, places, state, {}, () => {});
  } else if (data.game === "incantris" && step.arena) {
    incantris.draw(svg, state, [], () => {});
  } else if (data.game === "wizards" && state.world) {
    wizards.draw(svg, state, [], () => {});
  } else {
    svg.setAttribute("viewBox", "0 0 620 60");
    const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
    t.setAttribute("x", 10); t.setAttribute("y", 30);
    t.textContent = `No drawn board for ${data.game} yet: the log and the view below replay it`;
    svg.replaceChildren(t);
    svg.dataset.version = step.index;
  }
  document.getElementById("view-text").textContent = JSON.stringify(step.view, null, 1);
}

function go(index) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length - 1, index));
  const step = data.steps[at];
  draw(step);
  document.body.dataset.step = at;
  document.getElementById("slider").value = at;
  document.getElementById("step-count").textContent = `step ${at} of ${data.steps.length - 1}`;
  document.getElementById("step-text").textContent = describe(data.events.find(e => e.seq === step.seq), step);
  document.getElementById("first").disabled = document.getElementById("back").disabled = at === 0;
  document.getElementById("next").disabled = document.getElementById("last").disabled = at === data.steps.length - 1;
  const outcome = document.getElementById("outcome");
  outcome.hidden = !(data.outcome && at === data.steps.length - 1);
  if (data.outcome) outcome.textContent = `${data.outcome.summary} (scores ${data.outcome.scores.join(", ")})`;
  let first = null;
  for (const li of document.querySelectorAll("#log li")) {
    const current = +li.dataset.step === at;
    li.classList.toggle("current", current);
    if (current && !first) first = li;
  }
  if (first) first.scrollIntoView({block: "nearest"});
}

document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("back").addEventListener("click", () => go(at - 1));
document.getElementById("next").addEventListener("click", () => go(at + 1));
document.getElementById("last").addEventListener("click", () => go(Infinity));
document.getElementById("slider").addEventListener("input", (e) => go(+e.target.value));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;
  const moves = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity};
  if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
});

async function start() {
  try {
    data = await api(`/api/replay/${matchId}`);
  } catch (err) {
    showError(err.message);
    document.getElementById("verdict").textContent = "";
    document.body.dataset.status = "refused";
    if (err.status === 409) {  // still being played: the live page is the place
      const box = document.getElementById("error");
      box.append(" ", el("a", {href: `/match/${matchId}`, id: "watch-live", text: "watch it live"}));
    }
    return;
  }
  if (data.game === "tower") {
    realm = await api("/api/realm/tower").catch(() => null);
    places = realm ? tower.layout(realm) : null;
  }
  document.getElementById("title").textContent = `${data.game} · ${data.variant} · replay`;
  document.getElementById("slider").max = data.steps.length - 1;
  document.body.dataset.status = data.status;
  showDice();
  showLog();
  go(0);
  if (data.replay_problem) showError(data.replay_problem);  // an edited log: what replays is still shown
}
start();
