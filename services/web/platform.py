"""The web service's calls to the platform: the public gRPC API through the Python client
(services/client), with the player's own credential and seat tokens, like any other client.

The client is blocking; every call here runs on a worker thread (anyio's), never on the event
loop. A refusal of the platform becomes a `Refused` with an HTTP status and the platform's own
message (which names the rule), so the page shows why; nothing is retried here that the client
does not retry itself (reads, and acts under their idempotency key)."""
from __future__ import annotations

import json

import grpc
from anyio import to_thread

from services.client import Client, Seat, open_channel

STATUS = {
    grpc.StatusCode.INVALID_ARGUMENT: 400, grpc.StatusCode.NOT_FOUND: 404, grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403, grpc.StatusCode.FAILED_PRECONDITION: 409, grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.ALREADY_EXISTS: 409, grpc.StatusCode.RESOURCE_EXHAUSTED: 429, grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
}


class Refused(Exception):
    """What the platform (or the web service) refused, for the player: an HTTP status and why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def refused(exc: grpc.RpcError) -> Refused:
    code = exc.code()
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        return Refused(STATUS[code], "the platform does not answer just now: try again in a moment")
    return Refused(STATUS.get(code, 502), exc.details() or code.name.lower())


async def call(fn, *args):
    """fn(*args) on a worker thread; a gRPC refusal raised as Refused."""
    def run():
        try:
            return fn(*args)
        except grpc.RpcError as exc:
            raise refused(exc) from exc
    return await to_thread.run_sync(run)


def need_match_id(match_id: str) -> str:
    # the platform's ids are short hex; anything else is refused here before a call is made
    if not (0 < len(match_id) <= 64 and all(c.isalnum() or c in "-_" for c in match_id)):
        raise Refused(404, f"there is no match {match_id[:64]!r}: a match id is letters and digits")
    return match_id


class Platform:
    """One channel per platform address for every player; a Client per call, holding that
    player's credential (a Client is only stubs over the shared channels). Board and Combat
    may listen apart from Players and Matchmaking (split mode)."""

    def __init__(self, addr: str, combat_addr: str = "", timeout: float = 10, board_addr: str = "",
                 tls: tuple[str, str, str] = ("", "", "")):
        self.channel = open_channel(addr, *tls)
        self.combat_channel = open_channel(combat_addr, *tls) if combat_addr and combat_addr != addr else None
        self.board_channel = open_channel(board_addr, *tls) if board_addr and board_addr != addr else None
        self.timeout = timeout

    def close(self) -> None:
        for channel in (self.channel, self.combat_channel, self.board_channel):
            if channel is not None:
                channel.close()

    def client(self, token: str = "") -> Client:
        client = Client(self.channel, token, self.timeout, combat_channel=self.combat_channel, sign_in=bool(token))
        if self.board_channel is not None:
            from archmage.board.v1 import board_pb2_grpc

            client.board = board_pb2_grpc.BoardStub(self.board_channel)
        return client

    def guest(self) -> str:
        """A new guest's session credential (Players.SignInAsGuest)."""
        return Client(self.channel, "", self.timeout, combat_channel=self.combat_channel).token

    def games(self) -> list[dict]:
        return [{"name": g.name, "title": g.title, "min_seats": g.min_seats, "max_seats": g.max_seats,
                 "variants": list(g.variants), "ai_levels": list(g.ai_levels)} for g in self.client().games().games]

    def create(self, token: str, game: str, variant: str, ai: int, level: str = "") -> Seat:
        return self.client(token).create_match(game, ai=ai, variant=variant, name="guest", level=level)

    def my_matches(self, token: str) -> list[dict]:
        from archmage.matchmaking.v1 import matchmaking_pb2

        client = self.client(token)
        mine = client.matchmaking.ListMyMatches(matchmaking_pb2.ListMyMatchesRequest(limit=20),
                                                metadata=client.auth, timeout=self.timeout)
        return [{"match_id": m.match_id, "game": m.game, "variant": m.variant, "status": m.status,
                 "seats": list(m.seats), "your_turn": m.your_turn} for m in mine.matches]

    def seat(self, token: str, match_id: str, seat_token: str | None) -> Seat:
        """The player's seat in the match (their seat token), or a spectator's handle."""
        client = self.client(token)
        return client.seat(match_id, seat_token) if seat_token else client.spectate(match_id)


READS = 3  # paired reads of the view and a seat's actions before the two are read one after the other


def agreed(seat: Seat) -> tuple:
    """The match (GetMatch) and, for a seat in an active match, its legal actions, asked at once and
    kept only when of one version: a match that moved on between the two (an AI seat acting) is read
    again, so the page never offers one position's actions over another's board. After READS such
    reads the two are read one after the other and taken as they come, as before: an action carries
    its own version, and a stale one is refused, never misapplied."""
    if not seat.token:
        return seat.match(), []
    for _ in range(READS):
        match, listed = seat.match_and_actions()
        if match.status != "active":
            return match, []
        try:
            actions = listed()
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.ABORTED:  # ABORTED: the match moved on while its pages were read
                raise
            continue
        if seat.version == match.version:
            return match, actions
    match = seat.match()
    return match, seat.legal_actions() if match.status == "active" else []


def match_state(seat: Seat) -> dict:
    """What the page shows of a match now, as this seat may see it: GetMatch (the view, whose
    turn, the status, the outcome) and, for a seat, its legal actions in the order offered, read
    together (`agreed`: of one version, but for its last fallback)."""
    match, actions = agreed(seat)
    state = {"match_id": match.match_id, "game": match.game, "variant": match.variant, "version": match.version,
             "status": match.status, "to_act": match.to_act if match.status == "active" else None,
             "seat": seat.seat if seat.token else None, "last_seq": match.last_seq,
             "seats": [{"index": s.index, "kind": s.kind, "name": s.name} for s in match.seats],
             "view": json.loads(match.view_json) if match.view_json else None,
             "outcome": json.loads(match.outcome_json) if match.outcome_json else None, "actions": []}
    if state["game"] == "incantris" and state["view"]:
        state["arena"] = incantris_arena(state["view"]["tiles"])
    if state["game"] == "wizards" and state["view"]:
        state["world"] = wizards_world(state["view"])
    if seat.token and match.status == "active":
        state["version"] = seat.version
        state["actions"] = [{"index": i, "label": a.label, "kind": a.kind, "action": a.action, "service": a.service}
                            for i, a in enumerate(actions)]
    return state


def incantris_arena(tiles: list[dict]) -> list[list]:
    """The hexes of an Incantris arena as [q, r, terrain, whole], from the view's tile placements
    (public: every seat and a spectator see them) by the game's own geometry, so the page draws
    the arena the rules play on."""
    from shared.incantris.arena import arena_of

    arena = arena_of(tiles)
    return [[q, r, arena.terrain[(q, r)], (q, r) in arena.whole] for q, r in sorted(arena.coverage)]


def wizards_world(view: dict) -> dict:
    """What the page draws of the Enchanted Islands, from a seat's view alone (14.3): the islands
    (services/web/wizards_world.py), the Boats, the Dragon, the players' pieces and markers."""
    from services.web.wizards_world import world_json

    return world_json(view)
