// "Your turn" across the player's matches on the lobby: one socket a page (/ws/turns, relaying
// Matchmaking.WatchMyTurns). The list (GET /api/matches, read again once the socket is ready)
// says where each match stands when read;
// each notice since then lights or clears a match's badge at once, and the list is read again
// (a notice for a match not listed yet brings it in; a turn taken elsewhere clears its badge).
let socket = null, refresh = null, again = null;

function badge(matchId, on) {
  const item = document.querySelector(`#mine li[data-match="${matchId}"] .your-turn`);
  if (!item) return false;
  item.hidden = !on;
  return true;
}

function reread() {
  if (again) return;
  again = setTimeout(async () => { again = null; try { await refresh(); } catch (err) { /* the next notice tries again */ } }, 300);
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/turns`);
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "ready") { document.body.dataset.turns = "live"; reread(); }  // the list, as of now
    if (data.type !== "notice") return;
    document.body.dataset.lastNotice = `${data.kind}:${data.match_id}`;
    badge(data.match_id, data.kind === "your_turn");
    reread();
  };
  socket.onclose = (e) => {
    document.body.dataset.turns = "closed";
    if (e.code >= 4400) return;  // refused (signed out): not retried
    setTimeout(connect, 2000);
  };
}

export function followTurns(readList) {
  refresh = readList;
  if (socket) return;  // one connection per page
  connect();
  document.addEventListener("visibilitychange", () => { if (!document.hidden) reread(); });
}
