"""Terminal play and watching: `archmage play GAME` and `archmage watch MATCH_ID`."""
from __future__ import annotations

import importlib
import json
import sys
import uuid

import grpc


def _stubs(addr: str):
    from archmage.board.v1 import board_pb2_grpc
    from archmage.combat.v1 import combat_pb2_grpc
    from archmage.matchmaking.v1 import matchmaking_pb2_grpc

    ch = grpc.insecure_channel(addr)
    return (board_pb2_grpc.BoardStub(ch), combat_pb2_grpc.CombatStub(ch), matchmaking_pb2_grpc.MatchmakingStub(ch))


def _renderer(game: str):
    try:
        return importlib.import_module(f"shared.{game}.render")
    except ImportError:
        return None


def _print_events(render, events) -> None:
    bodies = [dict(json.loads(e.body_json), type=e.type) for e in events]
    lines = render.render_events(bodies) if render else [f"{b['type']}: {json.dumps(b)}" for b in bodies]
    for line in lines:
        print("  " + line)


def cmd_play(args) -> int:
    from archmage.board.v1 import board_pb2
    from archmage.common.v1 import common_pb2
    from archmage.matchmaking.v1 import matchmaking_pb2

    board, combat, mm = _stubs(args.addr)
    seats = [matchmaking_pb2.SeatSpec(kind="human", name="you")] + [
        matchmaking_pb2.SeatSpec(kind="ai", name=f"AI {i + 1}") for i in range(args.ai)]
    created = mm.CreateMatch(matchmaking_pb2.CreateMatchRequest(
        game=args.game, variant=args.variant or "", seats=seats, options_json=args.options or ""))
    token = created.seat_tokens[0].token
    meta = (("x-seat-token", token),)
    print(f"match {created.match_id} created; dice commitment {created.dice_commitment[:16]}...")
    render = _renderer(args.game)
    seen = 0
    while True:
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=created.match_id), metadata=meta)
        events = [e for e in _events_since(board, created.match_id, seen, meta)]
        if events:
            _print_events(render, events)
            seen = events[-1].seq
        if view.status == "finished":
            print(render.render(json.loads(view.view_json), 0) if render else view.view_json)
            print("match over:", view.outcome_json)
            print(f"verify it: archmage verify {created.match_id}")
            return 0
        if view.to_act != 0:
            _wait_for_change(board, created.match_id, seen, meta)
            continue
        print(render.render(json.loads(view.view_json), 0) if render else view.view_json)
        legal = board.ListLegalActions(board_pb2.ListLegalActionsRequest(match_id=created.match_id), metadata=meta)
        for i, a in enumerate(legal.actions):
            print(f"  [{i}] {a.label}")
        choice = _ask(len(legal.actions))
        if choice is None:
            print("left the match")
            return 0
        picked = legal.actions[choice]
        request = common_pb2.ActRequest(match_id=created.match_id, action_id=str(uuid.uuid4()),
                                        expected_version=legal.version, action_json=picked.action_json)
        try:
            (combat.Resolve if picked.service == "combat" else board.Move)(request, metadata=meta)
        except grpc.RpcError as exc:
            print(f"refused: {exc.details()}")


def _ask(n: int) -> int | None:
    while True:
        try:
            raw = input(f"your choice (0-{n - 1}, q to quit): ").strip()
        except EOFError:
            return None
        if raw == "q":
            return None
        if raw.isdigit() and int(raw) < n:
            return int(raw)
        print("pick one of the numbers shown")


def _events_since(board, match_id, seen, meta):
    from archmage.board.v1 import board_pb2

    view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), metadata=meta)
    if view.last_seq <= seen:
        return []
    stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id, from_seq=seen), metadata=meta)
    out = []
    for e in stream:
        out.append(e)
        if e.seq >= view.last_seq:
            stream.cancel()
            break
    return out


def _wait_for_change(board, match_id, seen, meta) -> None:
    from archmage.board.v1 import board_pb2

    stream = board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id, from_seq=seen), metadata=meta,
                              timeout=30)
    try:
        for _ in stream:
            break
    except grpc.RpcError:
        pass
    finally:
        stream.cancel()


def cmd_watch(args) -> int:
    from archmage.board.v1 import board_pb2

    board, _, _ = _stubs(args.addr)
    meta = (("x-seat-token", args.token),) if args.token else ()
    view = board.GetMatch(board_pb2.GetMatchRequest(match_id=args.match_id), metadata=meta)
    render = _renderer(view.game)
    for e in board.WatchMatch(board_pb2.WatchMatchRequest(match_id=args.match_id, from_seq=args.from_seq),
                              metadata=meta):
        print(f"#{e.seq} ", end="")
        _print_events(render, [e])
        sys.stdout.flush()
    print("match over")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("play", help="play a match in the terminal against AI seats")
    p.add_argument("game")
    p.add_argument("--ai", type=int, default=1, help="how many AI opponents")
    p.add_argument("--variant", "--scenario", dest="variant", default="")
    p.add_argument("--options", default="", help="game options as a JSON object")
    p.set_defaults(run=cmd_play)
    w = sub.add_parser("watch", help="follow a match's events")
    w.add_argument("match_id")
    w.add_argument("--token", default="", help="a seat token, to see that seat's private events")
    w.add_argument("--from-seq", type=int, default=0)
    w.set_defaults(run=cmd_watch)
