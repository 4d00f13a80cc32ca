"""Ordinary play end to end from this client process: random legal actions in 2-seat Tower
matches, each sent where the platform serves it (Board.Move or Combat.Resolve), a fixed
number of matches in play at once (one per slot; a finished one is replaced), each slot a
player with connections of its own. Nothing is
written behind the services' backs, so a serving process's copy of a match (MATCH_CACHE)
is the match whenever that process served its last action.

The client chooses each action from the match's state, read from Redis outside the timing
(a bench's shortcut: a player would list its legal actions through the board service).

    python -m bench.play_load BOARD_ADDR COMBAT_ADDR MATCHMAKING_ADDR REDIS_URL SECONDS INFLIGHT
(prints one JSON line; deletes the matches it made)
"""
from __future__ import annotations

import asyncio
import json
import random
import sys

import grpc
import redis.asyncio as aioredis

from bench.echo import summary
from services.core.metrics import active_key
from services.core.store import action_key, log_key, match_key
from shared.engine import TERMINAL
from shared.engine.registry import engine_for

GAME = "tower"
WARMUP_S = 1.0


async def run(board_addr: str, combat_addr: str, mm_addr: str, redis_url: str, seconds: float,
              inflight: int) -> dict:
    from archmage.board.v1 import board_pb2_grpc
    from archmage.combat.v1 import combat_pb2_grpc
    from archmage.common.v1 import common_pb2
    from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc
    from archmage.players.v1 import players_pb2, players_pb2_grpc

    engine = engine_for(GAME)
    r = aioredis.from_url(redis_url)
    made: list[str] = []
    used: list[str] = []
    latencies: list[float] = []
    errors: dict[str, int] = {}
    answered = 0
    loop = asyncio.get_running_loop()
    measure_from = loop.time() + WARMUP_S
    end = measure_from + seconds

    request = matchmaking_pb2.CreateMatchRequest(
        game=GAME, seats=[matchmaking_pb2.SeatSpec(kind="human", name=f"p{i}") for i in range(2)])
    opened: list = []

    def connect(addr: str, own: dict):
        """A player's own connection to `addr` (one per address, shared by its calls there), as
        each player's client holds one: the serving processes sharing a port get players, not
        calls, from the kernel. (A local subchannel pool: channels of one process would
        otherwise share one connection per address.)"""
        if addr not in own:
            own[addr] = grpc.aio.insecure_channel(addr, options=[("grpc.use_local_subchannel_pool", 1)])
            opened.append(own[addr])
        return own[addr]

    async def slot(rng: random.Random) -> None:
        nonlocal answered
        own: dict = {}
        mm = matchmaking_pb2_grpc.MatchmakingStub(connect(mm_addr, own))
        players = players_pb2_grpc.PlayersStub(connect(mm_addr, own))
        send = {"board": board_pb2_grpc.BoardStub(connect(board_addr, own)).Move,
                "combat": combat_pb2_grpc.CombatStub(connect(combat_addr, own)).Resolve}

        async def new_match(auth) -> tuple[str, dict]:
            m = await mm.CreateMatch(request, metadata=auth)
            made.append(m.match_id)
            return m.match_id, {t.seat: (("x-seat-token", t.token),) for t in m.seat_tokens}

        # a player of its own per slot: a player may create 60 matches a minute (quotas.py)
        guest = await players.SignInAsGuest(players_pb2.GuestRequest())
        auth = (("authorization", f"Bearer {guest.token}"),)
        mid, metas = await new_match(auth)
        n = 0
        while loop.time() < end:
            state = engine.decode(await r.hget(match_key(mid), "s"))
            seat = engine.actor(state)
            if seat == TERMINAL:
                mid, metas = await new_match(auth)
                continue
            action = rng.choice(engine.legal_actions(state, seat))
            n += 1
            used.append(action_key(mid, f"p{n}"))
            t0 = loop.time()
            call = send[engine.action_domain(action)](
                common_pb2.ActRequest(match_id=mid, action_id=f"p{n}", action_json=json.dumps(action)),
                metadata=metas[seat])
            try:
                await call
            except grpc.aio.AioRpcError as exc:
                errors[exc.code().name] = errors.get(exc.code().name, 0) + 1
                continue
            answered += 1
            if t0 >= measure_from:
                latencies.append(loop.time() - t0)

    try:
        await asyncio.gather(*(slot(random.Random(i)) for i in range(inflight)))
    finally:
        for channel in opened:
            await channel.close()

    pipe = r.pipeline(transaction=False)
    for key in used:
        pipe.delete(key)
    for mid in made:
        pipe.delete(match_key(mid), log_key(mid))
        pipe.zrem(active_key(GAME), mid)
    await pipe.execute()
    await r.aclose()
    result = summary(latencies, seconds, errors)
    result["answered"] = answered
    result["matches"] = len(made)
    return result


def main(argv: list[str]) -> None:
    board, combat, mm, url, seconds, inflight = argv
    print(json.dumps(asyncio.run(run(board, combat, mm, url, float(seconds), int(inflight)))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
