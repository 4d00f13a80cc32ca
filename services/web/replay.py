"""A finished match, step by step: GET /api/replay/{match_id} and the page /replay/{match_id}.

Anyone may read it, signed in or not: once a match has ended its seed is revealed and its
whole log is public (docs/fairness.md section 8). The web service reads it as a spectator,
like any client of the public API:

    Board.GetMatch      the match's status (a running match is refused: its secret rolls are
                        not public yet), its seats, its outcome and the published commitment
    Board.WatchMatch    every event from 0 (a finished match's stream ends by itself)
    Dice.GetSession     the commitment and the revealed seed
    Dice.Verify         the platform's own check of the chain and of every die

and rebuilds the game by running the log through the game's engine (shared/matchlog.py
replay_steps, the code the platform's own replays use), so the page gets the spectator's
view (engine.view(state, None)) after each step: set-up, each action, each resignation and
each roll of the dice. The answer:

    {"match_id", "game", "variant", "status", "seats", "outcome",
     "events":  [{"seq", "type", "body"}, ...]           the whole log, in full
     "steps":   [{"index", "seq", "first_seq", "last_seq", "type", "seat", "text", "view"}, ...]
                step i is the state after event `seq`; its events are first_seq..last_seq
                (what that step caused, up to the next step); an Incantris step has its
                "arena", a Wizards step its "world" (by parts)
     "parts":   the distinct values the Wizards steps' worlds are made of
     "rebuilt": true when the log replayed whole and its last view is the one the platform shows
     "replay_problem": why the log stopped replaying (an edited log), or null
     "dice":    {"commitment", "seed", "revealed", "ok", "chain_ok", "rolls_checked",
                 "events_checked", "problems", "head", "head_seq", "chain_version", "checked"}}
"""
from __future__ import annotations

import gzip
import json
from collections import OrderedDict

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import Response

from services.client.client import ENDED
from services.web.api import guarded
from services.web.platform import Platform, Refused, call, incantris_arena, need_match_id, wizards_world
from services.web.relay import event_json

CHECKED = ("The dice seed's SHA-256 is the commitment published before the first roll; every die was "
           "recomputed from the seed as HMAC-SHA256 of the match id, its nonce (0, 1, 2, ... in log order) "
           "and the players' client seeds; and every event's hash was checked against the one before it, "
           "so no event was edited, removed, reordered or added (docs/fairness.md).")


def still_running(match_id: str) -> Refused:
    return Refused(409, f"the match is still being played: watch it live at /match/{match_id}")


def read_finished(platform: Platform, match_id: str) -> dict:
    """What the platform says of an ended match, as a spectator reads it (blocking: a worker
    thread's). Refused (409) while the match runs, before anything of its log is read."""
    from archmage.board.v1 import board_pb2
    from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

    client = platform.client()
    match = client.board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id), timeout=platform.timeout)
    if match.status not in ENDED:
        raise still_running(match_id)
    events = list(client.board.WatchMatch(board_pb2.WatchMatchRequest(match_id=match_id, from_seq=0),
                                          timeout=max(platform.timeout, 30)))
    dice = dice_pb2_grpc.DiceStub(platform.channel)
    session = dice.GetSession(dice_pb2.GetSessionRequest(session_id=match_id), timeout=platform.timeout)
    verdict = dice.Verify(dice_pb2.VerifyRequest(session_id=match_id), timeout=max(platform.timeout, 30))
    return {"match": match, "events": events, "session": session, "verdict": verdict}


def rebuild(game: str, events: list) -> tuple[list[dict], dict | None, list, str | None]:
    """The steps of the log as the engine replays it, each with the spectator's view after it,
    the last step's view, the parts of the Wizards boards, and why the log stopped replaying
    before its end if it did (None: it replayed whole) (CPU work: a worker thread's).

    A Wizards step carries what the page draws of the islands (platform.wizards_world) as
    {key: index into parts}: most of a board (its hexes, its tiles) is the same from one step
    to the next, so each distinct value is sent once however many steps share it."""
    from shared.engine.registry import engine_for
    from shared.eventlog import LoggedEvent
    from shared.matchlog import replay_steps

    engine = engine_for(game)
    logged = [LoggedEvent(e.seq, e.type, e.body_json, e.prev_hash, e.hash, e.salt) for e in events]
    steps: list[dict] = []
    arenas: dict[str, list] = {}
    parts: list = []
    part_of: dict[str, int] = {}

    def part(value) -> int:
        text = json.dumps(value, sort_keys=True)
        if text not in part_of:
            part_of[text] = len(parts)
            parts.append(value)
        return part_of[text]

    view, problem = None, None
    stepping = replay_steps(engine, logged)
    while True:
        try:
            event, before, state = next(stepping)
        except StopIteration:
            break
        except Exception as exc:  # an edited log may not replay: what replays is still shown, and why it stops
            after = f"after event {steps[-1]['seq']}" if steps else "from its start"
            problem = f"the log does not replay through the {game} rules {after}: {exc}"
            break
        body = event.body
        seat = body.get("seat") if event.type in ("action", "resigned") else None
        view = json.loads(json.dumps(engine.view(state, None)))  # as JSON has it: lists, string keys
        step = {"index": len(steps), "seq": event.seq, "type": event.type, "seat": seat,
                "text": step_text(engine, event.type, body, before), "view": view}
        if game == "incantris" and view.get("tiles") is not None:
            tiles = json.dumps(view["tiles"], sort_keys=True)
            if tiles not in arenas:
                arenas[tiles] = incantris_arena(view["tiles"])
            step["arena"] = arenas[tiles]
        if game == "wizards":
            step["world"] = {key: part(value) for key, value in wizards_world(view).items()}
        steps.append(step)
    if not steps:
        raise Refused(502, "the match's log has no match_created event: there is nothing to replay")
    # each step holds its own event and what it caused, up to the next step; the events before
    # the first (the dice's commitment) and after the last (the end, the seed) go with those
    for i, step in enumerate(steps):
        step["first_seq"] = events[0].seq if i == 0 else step["seq"]
        step["last_seq"] = steps[i + 1]["seq"] - 1 if i + 1 < len(steps) else events[-1].seq
    return steps, view, parts, problem


def step_text(engine, kind: str, body: dict, before) -> str:
    """One line for a step: what the seat did as the engine labels it, or what the dice showed."""
    if kind == "match_created":
        return f"The match is set up: {body.get('game', engine.name)} ({body['config'].get('variant', '')})"
    if kind == "resigned":
        return f"seat {body['seat']} resigns" + (" (out of time)" if body.get("reason") == "timed_out" else "")
    if kind == "roll":
        return "Dice: " + "; ".join(f"{p['purpose']} {' '.join(str(r) for r in p['results'])}" for p in body["pools"])
    try:
        label = engine.label(before, body["seat"], body["action"])
    except Exception:  # a label is a courtesy: the action itself is in the log
        label = engine.describe(body["action"])
    return f"seat {body['seat']}: {label}"


KEPT = 8  # finished matches whose replay is kept, answered again without a call or a rebuild


@guarded
async def replay(request: Request):
    """The replay as JSON, gzipped when the browser takes it (a long match's views are about a
    megabyte, a twentieth of that compressed). An ended match never changes again, so the last
    few answers are kept on the app and given again as they are."""
    match_id = need_match_id(request.path_params["match_id"])
    state = request.app.state
    kept: OrderedDict | None = getattr(state, "replays", None)
    if kept is None:
        kept = state.replays = OrderedDict()
    bodies = kept.get(match_id)
    if bodies is None:
        answer = await replay_of(state.platform, match_id)
        bodies = kept[match_id] = await to_thread.run_sync(encoded, answer)
        while len(kept) > KEPT:
            kept.popitem(last=False)
    kept.move_to_end(match_id)
    plain, zipped = bodies
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(zipped, media_type="application/json",
                        headers={"content-encoding": "gzip", "vary": "accept-encoding"})
    return Response(plain, media_type="application/json", headers={"vary": "accept-encoding"})


def encoded(answer: dict) -> tuple[bytes, bytes]:
    """The answer as JSON bytes, plain and gzipped."""
    plain = json.dumps(answer, separators=(",", ":")).encode()
    return plain, gzip.compress(plain, compresslevel=5)


async def replay_of(platform: Platform, match_id: str) -> dict:
    read = await call(read_finished, platform, match_id)
    match, events, session, verdict = read["match"], read["events"], read["session"], read["verdict"]
    if not events:
        raise Refused(502, f"the platform gave no events for match {match_id}")
    try:
        steps, last_view, parts, problem = await to_thread.run_sync(rebuild, match.game, events)
    except Refused:
        raise
    except Exception as exc:
        raise Refused(502, f"the match's log does not replay through the {match.game} rules: {exc}") from exc
    shown = json.loads(match.view_json) if match.view_json else None
    return {
        "match_id": match.match_id, "game": match.game, "variant": match.variant, "status": match.status,
        "seats": [{"index": s.index, "kind": s.kind, "name": s.name} for s in match.seats],
        "outcome": json.loads(match.outcome_json) if match.outcome_json else None,
        "events": [event_json(e) for e in events], "steps": steps, "parts": parts,
        "rebuilt": problem is None and shown == last_view, "replay_problem": problem,
        "dice": {"commitment": session.commitment or match.dice_commitment, "published": match.dice_commitment,
                 "seed": session.seed, "revealed": session.revealed and verdict.revealed, "ok": verdict.ok,
                 "chain_ok": verdict.chain_ok, "rolls_checked": verdict.rolls_checked,
                 "events_checked": verdict.events_checked, "problems": list(verdict.problems),
                 "head": verdict.head, "head_seq": verdict.head_seq, "chain_version": verdict.chain_version,
                 "checked": CHECKED},
    }
