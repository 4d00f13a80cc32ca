// Queueing through matchmaking from the lobby: game, variant, seats, "AI may fill", max wait and
// an invite code; the ticket's state and time waited, polled once a second (GET /api/tickets/{id}:
// the answer that brings the seat must set the session cookie), Cancel, and on assignment the
// match page with the seat the session now holds.
import {api, el, levels, showError} from "/static/common.js";

let games = [], ticketId = null, timer = null;
const $ = (id) => document.getElementById(id);

const STATES = {forming: "forming a party", queued: "queued, looking for players", matching: "being matched",
                assigned: "assigned: opening the match", cancelled: "cancelled", expired: "expired"};

function variants() {
  const game = games.find(g => g.name === $("q-game").value);
  $("q-variant").replaceChildren(...game.variants.map(v => el("option", {value: v, text: v})));
  const seats = [el("option", {value: 0, text: "any"})];
  for (let n = game.min_seats; n <= game.max_seats; n++) seats.push(el("option", {value: n, text: String(n)}));
  $("q-seats").replaceChildren(...seats);
  levels($("q-level"), game);
}

function show(ticket) {
  const box = $("q-status");
  box.hidden = false;
  box.dataset.state = ticket.state;
  const waited = Math.floor(ticket.waited_ms / 1000);
  $("q-state").textContent = `${ticket.game} (${ticket.variant}): ${STATES[ticket.state] || ticket.state}` +
    (["forming", "queued", "matching"].includes(ticket.state) ? `, waited ${waited} s` : "");
  $("q-cancel").hidden = !["forming", "queued", "matching"].includes(ticket.state);
  $("q-join").disabled = !$("q-cancel").hidden;
}

async function poll() {
  timer = null;
  if (!ticketId) return;
  try {
    const ticket = await api(`/api/tickets/${ticketId}`);
    show(ticket);
    if (ticket.state === "assigned") { location.href = ticket.assignment.url; return; }
    if (ticket.state === "cancelled" || ticket.state === "expired") { ticketId = null; return; }
  } catch (err) {
    showError(err.message);
    if (err.status === 404 || err.status === 401) { ticketId = null; $("q-cancel").hidden = true; $("q-join").disabled = false; return; }
  }
  timer = setTimeout(poll, 1000);
}

function follow(id) {
  ticketId = id;
  if (timer) clearTimeout(timer);
  poll();
}

export function setupQueue(gameList, current) {
  games = gameList;
  $("q-game").replaceChildren(...games.map(g => el("option", {value: g.name, text: g.title})));
  $("q-game").value = games.some(g => g.name === "tower") ? "tower" : games[0].name;
  variants();
  if (current) follow(current);
}

$("q-game").addEventListener("change", variants);
$("queue").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    showError("");
    const ticket = await api("/api/tickets", {game: $("q-game").value, variant: $("q-variant").value,
      seats: +$("q-seats").value, ai_welcome: $("q-ai").checked, max_wait_s: Math.max(0, +$("q-wait").value || 0),
      invite_code: $("q-invite").value.trim(), ai_level: $("q-level").value});
    show(ticket);
    follow(ticket.ticket_id);
  } catch (err) { showError(err.message); }
});
$("q-cancel").addEventListener("click", async () => {
  try {
    showError("");
    show(await api(`/api/tickets/${ticketId}/cancel`, {}));
  } catch (err) { showError(err.message); }  // being matched already: the poll brings the seat
});
