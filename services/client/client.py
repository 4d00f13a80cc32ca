"""A Python client of the Archmage API: one object per connection, one per seat you play.

    from services.client import Client

    client = Client.connect("127.0.0.1:50051")            # a guest, signed in on the spot
    seat = client.create_match("tower", ai=3)             # you in seat 0, three AI seats
    while not seat.finished():
        seat.wait_for_turn()                              # WatchMatch until it is your move
        seat.act(seat.legal_actions()[0])                 # a fresh action_id, retried safely
    print(seat.outcome())                                 # {"scores", "winners", "summary"}

Connecting: TLS when `ca_file` (or TLS_CA_FILE) names the CA to trust, else plaintext; every
idempotent call (reads, streams before their first event, Move and Resolve) is retried on
UNAVAILABLE by the channel (services/client/channels.py). Signing in: `token` (or
ARCHMAGE_TOKEN) is a session credential from Players.SignIn; without one the client signs in
as a guest. Acting: each action carries an `action_id`, so `act` may send it again after a lost
answer and the platform applies it once (ActResponse.replayed). Following: `events(from_seq)`
streams a match's events from any seq, resuming after a dropped stream without a gap.
"""
from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Iterator

import grpc

from services.client.channels import OPTIONS
from services.client.reading import all_legal_actions
from services.client.session import bearer

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def open_channel(addr: str, ca_file: str = "", cert_file: str = "", key_file: str = "") -> grpc.Channel:
    """A blocking channel to `addr`: TLS trusting `ca_file` when given (with a client certificate
    when `cert_file` and `key_file` are given too), plaintext otherwise."""
    if not ca_file:
        return grpc.insecure_channel(addr, options=OPTIONS)
    creds = grpc.ssl_channel_credentials(root_certificates=_read(ca_file),
                                         private_key=_read(key_file) if key_file and cert_file else None,
                                         certificate_chain=_read(cert_file) if key_file and cert_file else None)
    return grpc.secure_channel(addr, creds, options=OPTIONS)


ENDED = ("finished", "cancelled", "abandoned")  # a match's status once it is over


@dataclass(frozen=True)
class Action:
    """One legal action: what to send, a label for a person, and the service that takes it."""

    action: dict
    label: str
    service: str  # "board" (Board.Move) or "combat" (Combat.Resolve)

    @property
    def kind(self) -> str:
        return self.action["kind"]


class Client:
    """A connection to the platform, signed in as one player (a guest or a credential), or with
    `sign_in=False` holding seat tokens only (the AI workers). Combat.Resolve goes to
    `combat_channel` when the combat service listens apart."""

    def __init__(self, channel: grpc.Channel, token: str = "", timeout: float = 10,
                 combat_channel: grpc.Channel | None = None, sign_in: bool = True):
        from archmage.board.v1 import board_pb2_grpc
        from archmage.combat.v1 import combat_pb2_grpc
        from archmage.matchmaking.v1 import matchmaking_pb2_grpc
        from archmage.players.v1 import players_pb2, players_pb2_grpc

        self.channel, self.combat_channel, self.timeout = channel, combat_channel, timeout
        self.players = players_pb2_grpc.PlayersStub(channel)
        self.board = board_pb2_grpc.BoardStub(channel)
        self.combat = combat_pb2_grpc.CombatStub(combat_channel or channel)
        self.matchmaking = matchmaking_pb2_grpc.MatchmakingStub(channel)
        self.token = token or (self.players.SignInAsGuest(players_pb2.GuestRequest(), timeout=timeout).token
                               if sign_in else "")

    @classmethod
    def connect(cls, addr: str = "", token: str = "", ca_file: str = "", name: str = "", password: str = "",
                timeout: float = 10) -> "Client":
        """Connect to `addr` (default ARCHMAGE_ADDR or 127.0.0.1:50051) and sign in: with `token`
        (default ARCHMAGE_TOKEN), with `name` and `password` (Players.SignIn), or as a guest."""
        from archmage.players.v1 import players_pb2

        from services.core.config import Settings

        env = Settings.from_env()  # ARCHMAGE_ADDR, TLS_CA_FILE, ARCHMAGE_TOKEN, like every setting
        addr = addr or env.client_addr
        channel = open_channel(addr, ca_file or env.tls_ca_file)
        token = token or env.client_token
        if not token and name:
            from archmage.players.v1 import players_pb2_grpc

            token = players_pb2_grpc.PlayersStub(channel).SignIn(
                players_pb2.SignInRequest(name=name, password=password), timeout=timeout).token
        return cls(channel, token, timeout)

    @property
    def auth(self) -> tuple:
        """The metadata of the player's credential: authorization: Bearer <token>."""
        return bearer(self.token)

    def close(self) -> None:
        for channel in {self.channel, self.combat_channel or self.channel}:
            channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- matches --------------------------------------------------------------------------
    def games(self):
        """Matchmaking.ListGames: each game with its seats and variants."""
        from archmage.matchmaking.v1 import matchmaking_pb2

        return self.matchmaking.ListGames(matchmaking_pb2.ListGamesRequest(), timeout=self.timeout)

    def create_match(self, game: str, ai: int = 0, humans: int = 1, variant: str = "", options: dict | None = None,
                     name: str = "me", level: str = "") -> "Seat":
        """A new match with `humans` seats for this player (seats 0..humans-1) and `ai` AI seats
        at `level` (easy, normal, hard; "" = normal); the Seat of the first human seat (the others
        are in `.seats`)."""
        from archmage.matchmaking.v1 import matchmaking_pb2 as mm

        seats = [mm.SeatSpec(kind="human", name=name if humans == 1 else f"{name} {i + 1}") for i in range(humans)]
        seats += [mm.SeatSpec(kind="ai", level=level) for _ in range(ai)]
        created = self.matchmaking.CreateMatch(mm.CreateMatchRequest(
            game=game, variant=variant, seats=seats, options_json=json.dumps(options) if options else ""),
            metadata=self.auth, timeout=self.timeout)
        mine = [Seat(self, created.match_id, t.token, t.seat) for t in sorted(created.seat_tokens,
                                                                             key=lambda t: t.seat)]
        mine[0].seats = mine
        mine[0].commitment = created.dice_commitment
        return mine[0]

    def turns(self, after_id: str = "", idle_s: float | None = None):
        """The player's turn notices (Matchmaking.WatchMyTurns) after `after_id`: "your_turn" and
        "ended", across every match of theirs, live. A dropped connection is resumed after the
        last notice seen, so none is missed or seen twice; with `idle_s`, it ends once no notice
        came for that long."""
        from archmage.matchmaking.v1 import matchmaking_pb2 as mm

        while True:
            stream = self.matchmaking.WatchMyTurns(mm.WatchMyTurnsRequest(after_id=after_id), metadata=self.auth,
                                                   timeout=idle_s)
            try:
                for notice in stream:
                    after_id = notice.id
                    yield notice
                return
            except grpc.RpcError as exc:
                if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED and idle_s is not None:
                    return
                if exc.code() != grpc.StatusCode.UNAVAILABLE:
                    raise
                time.sleep(0.5)  # the platform restarting: resume where the stream stopped

    def seat(self, match_id: str, seat_token: str) -> "Seat":
        """Back to a seat you hold: its match and its seat token."""
        return Seat(self, match_id, seat_token, int(seat_token.split(".")[1]))

    def spectate(self, match_id: str) -> "Seat":
        """A spectator's handle on a match: views and events, no actions."""
        return Seat(self, match_id, "", -1)


class Seat:
    """One seat of one match (or a spectator, seat -1): read, act, follow."""

    def __init__(self, client: Client, match_id: str, token: str, seat: int):
        self.client, self.match_id, self.token, self.seat = client, match_id, token, seat
        self.meta = (("x-seat-token", token),) if token else ()
        self.seats: list[Seat] = [self]
        self.commitment = ""
        self.last_seq = 0

    def match(self):
        """Board.GetMatch: the MatchView as this seat may see it."""
        from archmage.board.v1 import board_pb2

        view = self.client.board.GetMatch(board_pb2.GetMatchRequest(match_id=self.match_id), metadata=self.meta,
                                          timeout=self.client.timeout)
        self.last_seq = max(self.last_seq, view.last_seq)
        return view

    def view(self) -> dict:
        """The game's view for this seat (view.json of the game's schemas)."""
        return json.loads(self.match().view_json)

    def finished(self) -> bool:
        return self.match().status in ENDED

    def outcome(self) -> dict | None:
        """{"scores", "winners", "summary"} once the match is over (outcome.json), else None."""
        view = self.match()
        return json.loads(view.outcome_json) if view.outcome_json else None

    def match_and_actions(self):
        """Board.GetMatch and the first page of ListLegalActions sent at once, so a turn waits
        for one round trip rather than two: (the view, a function giving every legal action,
        which raises as `legal_actions` does). Both are read at about the same moment; compare
        `self.version` with the view's before trusting the two together."""
        from archmage.board.v1 import board_pb2

        board, timeout = self.client.board, self.client.timeout
        first = board.ListLegalActions.future(board_pb2.ListLegalActionsRequest(match_id=self.match_id),
                                              metadata=self.meta, timeout=timeout)
        try:
            view = self.match()
        except grpc.RpcError:
            first.cancel()
            raise

        def actions() -> list[Action]:
            page = first.result()
            self.version, listed = all_legal_actions(self.client.board, self.match_id, self.meta, timeout,
                                                     first_page=page)
            return [Action(json.loads(a.action_json), a.label, a.service) for a in listed]
        return view, actions

    def legal_actions(self) -> list[Action]:
        """Every action this seat may take now, over every page (listed again if the match moves on)."""
        for attempt in range(5):
            try:
                self.version, actions = all_legal_actions(self.client.board, self.match_id, self.meta,
                                                          self.client.timeout)
                return [Action(json.loads(a.action_json), a.label, a.service) for a in actions]
            except grpc.RpcError as exc:
                if exc.code() != grpc.StatusCode.ABORTED or attempt == 4:
                    raise
        raise AssertionError("unreachable")

    def act(self, action: Action | dict, action_id: str = "", expected_version: int = 0, attempts: int = 4):
        """Send one action (to Board.Move or Combat.Resolve, as it says) with an idempotency key:
        `action_id` (a fresh one by default). A lost answer is sent again with the same id, so the
        action is applied once. Returns the ActResponse (its events, version, `replayed`)."""
        from archmage.common.v1 import common_pb2

        if isinstance(action, dict):  # the service that takes it, from the legal actions
            action = next((a for a in self.legal_actions() if a.action == action), Action(action, "", "board"))
        request = common_pb2.ActRequest(match_id=self.match_id, action_id=action_id or str(uuid.uuid4()),
                                        expected_version=expected_version, action_json=json.dumps(action.action))
        call = self.client.combat.Resolve if action.service == "combat" else self.client.board.Move
        for attempt in range(attempts):
            try:
                return call(request, metadata=self.meta, timeout=self.client.timeout)
            except grpc.RpcError as exc:
                if exc.code() not in RETRYABLE or attempt + 1 == attempts:
                    raise
                time.sleep(0.2 * 2 ** attempt)

    def resign(self, action_id: str = "", expected_version: int = 0):
        """Resign this seat (Board.Resign), with an idempotency key as `act` has: sent again, it is
        a replay. Returns the ActResponse."""
        from archmage.board.v1 import board_pb2

        request = board_pb2.ResignRequest(match_id=self.match_id, action_id=action_id or str(uuid.uuid4()),
                                          expected_version=expected_version)
        return self.client.board.Resign(request, metadata=self.meta, timeout=self.client.timeout)

    def query(self, query: dict) -> dict:
        """Board.Query: a read-only question about the board (queries.json / answers.json)."""
        from archmage.board.v1 import board_pb2

        reply = self.client.board.Query(board_pb2.QueryRequest(match_id=self.match_id, query_json=json.dumps(query)),
                                        metadata=self.meta, timeout=self.client.timeout)
        return json.loads(reply.answer_json)

    def schemas(self) -> dict:
        """The JSON Schemas of this match's game, by part ({"kind": "schema"})."""
        return self.query({"kind": "schema"})["schemas"]

    def events(self, from_seq: int = 0, follow: bool = True, timeout: float | None = None) -> Iterator:
        """The match's events with seq > from_seq (common_pb2.Event), as this seat may see them;
        with `follow`, new ones as they happen until the match's last event, reconnecting from the
        last seq seen when the stream drops. Without it, only those up to the newest seq now."""
        from archmage.board.v1 import board_pb2

        seen = from_seq
        last = None if follow else self.match().last_seq
        while last is None or seen < last:
            stream = self.client.board.WatchMatch(board_pb2.WatchMatchRequest(match_id=self.match_id, from_seq=seen),
                                                  metadata=self.meta, timeout=timeout)
            try:
                for event in stream:
                    seen = max(seen, event.seq)  # not last_seq: match() above has already moved it to `last`
                    self.last_seq = max(self.last_seq, seen)
                    yield event
                    if last is not None and seen >= last:
                        return
                    if event.type in ("dice_revealed",):
                        return
                return  # the server ended the stream: the match is over
            except grpc.RpcError as exc:
                if exc.code() not in RETRYABLE:
                    raise
                if timeout is not None and exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                    return
            finally:
                stream.cancel()

    def wait_for_turn(self, timeout: float = 60) -> bool:
        """Wait until this seat is to act or the match is over; False if `timeout` passed first."""
        from archmage.board.v1 import board_pb2

        deadline = time.monotonic() + timeout
        while True:
            view = self.match()
            if view.status in ENDED or view.to_act == self.seat:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            stream = self.client.board.WatchMatch(board_pb2.WatchMatchRequest(match_id=self.match_id,
                                                                              from_seq=view.last_seq),
                                                  metadata=self.meta, timeout=min(left, 30))
            try:
                for _ in stream:
                    break  # something happened: look again
            except grpc.RpcError as exc:
                if exc.code() not in RETRYABLE:
                    raise
            finally:
                stream.cancel()
