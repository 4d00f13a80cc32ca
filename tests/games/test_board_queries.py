"""Board.Query served for real, one match per game: a seat asks with its token and the answers agree
with the engine (on the stored state, for that seat) and with ListLegalActions where they overlap."""
from __future__ import annotations

import json
import time
import uuid

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

from shared.engine.registry import engine_for


class Seat:
    """One seat's client (or a spectator's, without a token)."""

    def __init__(self, channel, match_id: str, token: str | None):
        self.board = board_pb2_grpc.BoardStub(channel)
        self.combat = combat_pb2_grpc.CombatStub(channel)
        self.match_id = match_id
        self.meta = (("x-seat-token", token),) if token else ()

    def view(self):
        return self.board.GetMatch(board_pb2.GetMatchRequest(match_id=self.match_id), metadata=self.meta, timeout=10)

    def query(self, query: dict) -> tuple[int, dict]:
        reply = self.board.Query(board_pb2.QueryRequest(match_id=self.match_id, query_json=json.dumps(query)),
                                 metadata=self.meta, timeout=10)
        return reply.version, json.loads(reply.answer_json)

    def legal(self) -> tuple[int, list[tuple[dict, str]]]:
        reply = self.board.ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=self.match_id),
                                            metadata=self.meta, timeout=10)
        return reply.version, [(json.loads(a.action_json), a.service) for a in reply.actions]

    def act(self, action: dict, service: str, version: int):
        request = common_pb2.ActRequest(match_id=self.match_id, action_id=str(uuid.uuid4()), expected_version=version,
                                        action_json=json.dumps(action))
        return (self.combat.Resolve if service == "combat" else self.board.Move)(request, metadata=self.meta,
                                                                                 timeout=10)


def create(channel, game: str, seats: int, variant: str = "") -> tuple[str, list[Seat], Seat]:
    m = matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game=game, variant=variant, seats=[matchmaking_pb2.SeatSpec(kind="human") for _ in range(seats)]))
    tokens = {t.seat: t.token for t in m.seat_tokens}
    return m.match_id, [Seat(channel, m.match_id, tokens[s]) for s in range(seats)], Seat(channel, m.match_id, None)


def play(seats: list[Seat], until, pick=lambda legal: legal[0], limit: int = 400):
    """Each seat to act takes `pick` of its legal actions until `until(view dict, to_act)` holds."""
    for _ in range(limit):
        view = seats[0].view()
        if view.to_act < 0:
            assert view.status != "finished"
            time.sleep(0.01)
            continue
        if until(json.loads(view.view_json), view.to_act):
            return view.to_act
        version, legal = seats[view.to_act].legal()
        action, service = pick(legal)
        seats[view.to_act].act(action, service, version)
    raise AssertionError("the match never reached the state the test needs")


def engine_answer(platform, game: str, match_id: str, seat: int | None, query: dict, version: int) -> dict:
    rec = platform.run(platform.platform.matches.load(match_id))
    assert rec.version == version, "the match moved on between the query and the check"
    return json.loads(json.dumps(engine_for(game).query(rec.state, seat, query)))


def refused(seat: Seat, query) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as err:
        seat.query(query)
    return err.value.code()


def test_tower_destinations_and_paths_over_grpc(platform, channel):
    match_id, seats, spectator = create(channel, "tower", 2)
    mover = play(seats, lambda v, s: v["stage"] == "play" and v["tasks"][-1]["task"] == "move")
    version, got = seats[mover].query({"kind": "destinations"})
    assert got == engine_answer(platform, "tower", match_id, mover, {"kind": "destinations"}, version)
    _, legal = seats[mover].legal()
    listed = sorted(({"to": a["to"], "path": a["path"]} for a, _ in legal if a["kind"] == "move"),
                    key=lambda d: d["to"])
    assert got["destinations"] == listed and listed
    other = 1 - mover  # not its turn: answered all the same, for its own Character
    version, theirs = seats[other].query({"kind": "destinations"})
    assert theirs == engine_answer(platform, "tower", match_id, other, {"kind": "destinations"}, version)
    assert theirs["seat"] == other and theirs["destinations"]
    far = max(listed, key=lambda d: (len(d["path"]), d["to"]))
    version, paths = seats[mover].query({"kind": "paths", "to": far["to"]})
    assert far["path"] in paths["paths"]
    other_path = next((p for p in paths["paths"] if p != far["path"]), far["path"])
    reply = seats[mover].act({"kind": "move", "to": far["to"], "path": other_path}, "board", version)
    assert reply.version > version  # the move service accepts a path the query gave
    assert refused(spectator, {"kind": "destinations"}) == grpc.StatusCode.INVALID_ARGUMENT
    assert refused(seats[0], {"kind": "paths", "to": 3}) == grpc.StatusCode.INVALID_ARGUMENT


def test_incantris_sight_range_movement_and_targets_over_grpc(platform, channel):
    match_id, seats, spectator = create(channel, "incantris", 2, "battle-royale")
    seat = play(seats, lambda v, s: v["phase"] == "play" and v["turn"] and v["turn"]["wizard"] is not None)
    view = json.loads(seats[seat].view().view_json)
    wid = view["turn"]["wizard"]
    here = view["wizards"][wid]["hex"]
    _, legal = seats[seat].legal()
    steps = {tuple(a["to"]) for a, _ in legal if a["kind"] == "step"}
    version, reach = seats[seat].query({"kind": "reachable", "wizard": wid})
    assert reach == engine_answer(platform, "incantris", match_id, seat, {"kind": "reachable", "wizard": wid}, version)
    assert {tuple(x["hex"]) for x in reach["hexes"] if len(x["path"]) == 1} <= steps and reach["hexes"]
    spells = sorted({a["spell"] for a, _ in legal if a["kind"] == "cast"})
    assert spells, "the activated wizard can cast something (on itself, at least)"
    for spell in spells:
        version, t = seats[seat].query({"kind": "targets", "wizard": wid, "spell": spell})
        assert t["targets"] == [a["target"] for a, _ in legal
                                if a["kind"] == "cast" and a["spell"] == spell and "from" not in a]
    for other in view["wizards"].values():
        if other["hex"] is None:
            continue
        line = {"from": here, "to": other["hex"]}
        version, los = seats[seat].query(dict(line, kind="line_of_sight"))
        assert los == engine_answer(platform, "incantris", match_id, seat, dict(line, kind="line_of_sight"), version)
        _, far = spectator.query(dict(line, kind="range"))  # range needs no seat
        assert far["hexes"] == los["hexes"]
    assert refused(seats[seat], {"kind": "reachable", "wizard": "nobody"}) == grpc.StatusCode.INVALID_ARGUMENT


def test_wizards_destinations_path_and_random_space_over_grpc(platform, channel):
    match_id, seats, spectator = create(channel, "wizards", 2)
    seat = play(seats, lambda v, s: v["phase"] == "play" and (v["await"] or {}).get("for") == "move")
    view = json.loads(seats[seat].view().view_json)
    points = view["turn"]["mp"]
    version, got = seats[seat].query({"kind": "destinations", "points": points})
    assert got == engine_answer(platform, "wizards", match_id, seat, {"kind": "destinations", "points": points},
                                version)
    _, legal = seats[seat].legal()
    moves = {(a["by"], tuple(a["to"])): a["cost"] for a, _ in legal if a["kind"] == "move"}
    assert {(d["by"], tuple(d["to"])): d["cost"] for d in got["destinations"]} == moves and moves
    (by, to), cost = max(moves.items(), key=lambda kv: (kv[1], kv[0]))
    version, way = seats[seat].query({"kind": "path", "to": list(to)})
    assert way["cost"] == min(c for (b, t), c in moves.items() if t == to) and way["path"][-1] == list(to)
    version, lookup = spectator.query({"kind": "space", "territory": "E4", "white": 1, "red": 5})
    assert lookup["space_name"] == "Green Grove A5"  # 4.2's worked example
    assert lookup == engine_answer(platform, "wizards", match_id, None, {"kind": "space", "territory": "E4",
                                                                         "white": 1, "red": 5}, version)
    assert refused(spectator, {"kind": "destinations", "points": 3}) == grpc.StatusCode.INVALID_ARGUMENT
