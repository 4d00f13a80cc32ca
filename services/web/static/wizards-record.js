// The seat's own Wizards Record Sheet (14.2), beside the board: Order and Rank, points against
// the next Rank, Tasks with their steps, Gems, Secret Wizards, the spells it may cast now. Asked
// through POST /api/matches/{id}/query {"kind": "record_sheet"} (Board.Query for the seat).
import {el} from "/static/common.js";

const words = (s) => String(s).replaceAll("_", " ");
const POINTS = {knowledge: "Knowledge", perception: "Perception", power: "Power"};

function stepText(step) {
  if (step.do === "meet") return `meet ${words(step.whom)}`;
  if (step.do === "visit_every") return `visit every ${words(step.kind)} (${(step.visited || []).length} so far)`;
  return `${words(step.do)} ${step.object ? words(step.object) + " " : ""}${step.at ? "at " + step.at.join(",") : ""}`;
}

export function show(box, sheet) {
  const p = sheet.points, next = sheet.next_rank;
  const row = (label, value) => el("tr", {}, el("th", {text: label}), el("td", {text: value}));
  const points = Object.entries(POINTS).map(([k, name]) => `${name} ${p[k]}` + (next ? `/${next[k]}` : "")).join(", ");
  const tasks = sheet.tasks.length ? sheet.tasks.map(t => `Task ${t.card} (${t.mandatory ? "Mandatory" : "Optional"}): ` +
    t.steps.map(s => (s.done ? "[x] " : "[ ] ") + stepText(s)).join(" > ")).join("; ") : "none";
  const gems = Object.entries(sheet.gems || {}).map(([who, gem]) => `${gem} from ${who}`).join(", ") || "none";
  const secret = Object.entries(sheet.secret_record || {}).map(([k, v]) => `${k} ${v}`).join(", ");
  const spells = [...new Set(sheet.spells.map(s => words(s.spell)))].sort().join(", ") || "none";
  box.replaceChildren(el("h2", {text: "Your Record Sheet"}), el("table", {class: "record-sheet"},
    row("Order", sheet.order ? `${words(sheet.order)}, Rank ${sheet.rank} (${sheet.title})` : "no Order yet"),
    row("Points", points + (next ? " (next Rank)" : "")),
    row("Tasks", tasks), row("Gems", gems + (sheet.false_wizard ? `; False Wizard: ${sheet.false_wizard}` : "")),
    ...(secret ? [row("Secret Wizards", secret)] : []),
    row("Spells", spells),
    ...(sheet.afflictions.length ? [row("Afflictions", sheet.afflictions.map(words).join(", "))] : []),
    ...(sheet.animal ? [row("Animal", `${words(sheet.animal.kind)} (${sheet.animal.turns} turns)`)] : [])));
  box.hidden = false;
}
