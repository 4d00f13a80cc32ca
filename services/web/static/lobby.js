// The lobby: sign in as a guest, start a match against AI, my matches (rejoin or watch; replay once over).
import {api, el, levels, showError} from "/static/common.js";
import {setupQueue} from "/static/queue.js";
import {followTurns} from "/static/turns.js";

let games = [];

async function start() {
  let me;
  try {
    me = await api("/api/me");
  } catch (err) {
    if (err.status === 401) {
      document.getElementById("signin").hidden = false;
      if (err.message && !err.message.startsWith("you are not signed in")) showError(err.message);
      return;
    }
    return showError(err.message);
  }
  document.getElementById("who").textContent = "signed in as a guest";
  document.getElementById("signin").hidden = true;
  document.getElementById("start").hidden = false;
  games = (await api("/api/games")).games;
  const select = document.getElementById("game");
  select.replaceChildren(...games.map(g => el("option", {value: g.name, text: g.title})));
  select.value = games.some(g => g.name === "tower") ? "tower" : games[0].name;
  variants();
  setupQueue(games, me.ticket);
  await mine();
  followTurns(mine);
}

function variants() {
  const game = games.find(g => g.name === document.getElementById("game").value);
  document.getElementById("variant").replaceChildren(...game.variants.map(v => el("option", {value: v, text: v})));
  levels(document.getElementById("level"), game);
  const ai = document.getElementById("ai");
  ai.min = Math.max(1, game.min_seats - 1); ai.max = game.max_seats - 1;
  if (+ai.value < +ai.min) ai.value = ai.min;
}

async function mine() {
  const {matches} = await api("/api/matches");
  const list = document.getElementById("mine");
  if (!matches.length) return;
  document.body.dataset.listed = String(matches.length);
  list.replaceChildren(...matches.map(m => el("li", {"data-match": m.match_id},
    el("span", {class: "your-turn", text: "your turn", ...(m.your_turn && m.status === "active" ? {} : {hidden: ""})}),
    `${m.game} (${m.variant}) ${m.status} `,
    el("a", {href: `/match/${m.match_id}`, class: m.rejoin ? "rejoin" : "watch", text: m.rejoin ? "rejoin" : "watch"}),
    ...(m.status === "active" ? [] : [" ", el("a", {href: `/replay/${m.match_id}`, class: "replay", text: "replay"})]))));
}

document.getElementById("guest").addEventListener("click", async () => {
  try { showError(""); await api("/api/guest", {}); await start(); } catch (err) { showError(err.message); }
});
document.getElementById("game").addEventListener("change", variants);
document.getElementById("new").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const made = await api("/api/matches", {game: document.getElementById("game").value,
      variant: document.getElementById("variant").value, ai: +document.getElementById("ai").value,
      level: document.getElementById("level").value});
    location.href = made.url;
  } catch (err) { showError(err.message); }
});
document.getElementById("watch-form").addEventListener("submit", (e) => {
  e.preventDefault();
  // a match id, or a match page's address pasted whole
  const id = document.getElementById("watch-id").value.trim().replace(/\/+$/, "").split("/").pop();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return showError("a match id is letters, digits, - and _");
  location.href = `/match/${id}`;
});
start();
