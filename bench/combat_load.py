"""Battle resolutions through the real combat service, end to end from this client
process: Combat.Resolve {"kind": "fight"} on armed Tower matches (bench/battles.py),
a fixed number of calls in flight. Each slot owns two matches and fights on one
while the other is armed again, so arming never sits between two timed calls.

    python -m bench.combat_load COMBAT_ADDR MATCHMAKING_ADDR REDIS_URL SECONDS INFLIGHT
(prints one JSON line; deletes the matches it made)
"""
from __future__ import annotations

import asyncio
import json
import sys

import grpc
import redis.asyncio as aioredis

from bench.battles import FIGHT, GAME, arm_fields, armed_state
from bench.echo import summary
from services.core.metrics import active_key
from services.core.store import action_key, log_key, match_key

WARMUP_S = 1.0
CONNECTIONS = 4  # the load's connections to the combat service, its slots spread over them


async def create_matches(mm_addr: str, count: int, seat: int) -> list[tuple[str, tuple]]:
    from archmage.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc

    async with grpc.aio.insecure_channel(mm_addr) as channel:
        stub = matchmaking_pb2_grpc.MatchmakingStub(channel)
        request = matchmaking_pb2.CreateMatchRequest(
            game=GAME, seats=[matchmaking_pb2.SeatSpec(kind="human", name=f"bench {i}") for i in range(2)])
        from archmage.players.v1 import players_pb2, players_pb2_grpc

        guest = await players_pb2_grpc.PlayersStub(channel).SignInAsGuest(players_pb2.GuestRequest())
        auth = (("authorization", f"Bearer {guest.token}"),)
        made = await asyncio.gather(*(stub.CreateMatch(request, metadata=auth) for _ in range(count)))
    return [(m.match_id, (("x-seat-token", {t.seat: t.token for t in m.seat_tokens}[seat]),)) for m in made]


async def run(combat_addr: str, mm_addr: str, redis_url: str, seconds: float, inflight: int) -> dict:
    from archmage.combat.v1 import combat_pb2_grpc
    from archmage.common.v1 import common_pb2

    state, seat = armed_state()
    fields = arm_fields(state)
    r = aioredis.from_url(redis_url)
    matches = await create_matches(mm_addr, 2 * inflight, seat)
    await asyncio.gather(*(r.hset(match_key(mid), mapping=fields) for mid, _ in matches))
    fight = json.dumps(FIGHT)
    used: list[str] = []
    latencies: list[float] = []
    answered = 0  # every call answered, the warm-up's too: the services' CPU is read over the whole run
    errors: dict[str, int] = {}
    loop = asyncio.get_running_loop()
    measure_from = loop.time() + WARMUP_S
    end = measure_from + seconds

    # several connections, as several players hold: the serving processes sharing the combat
    # port (the launcher's --procs) get connections from the kernel, never single calls
    channels = [grpc.aio.insecure_channel(combat_addr, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(CONNECTIONS)]
    try:
        stubs = [combat_pb2_grpc.CombatStub(channel) for channel in channels]

        async def slot(pair, combat) -> None:
            nonlocal answered
            n = 0
            arming: dict[str, asyncio.Future] = {}
            while True:
                for mid, meta in pair:
                    if mid in arming:
                        await arming.pop(mid)
                    t0 = loop.time()
                    if t0 >= end:
                        await asyncio.gather(*arming.values())
                        return
                    n += 1
                    action_id = f"bench-{n}"
                    used.append(action_key(mid, action_id))
                    call = combat.Resolve(common_pb2.ActRequest(match_id=mid, action_id=action_id, action_json=fight),
                                          metadata=meta)
                    try:
                        await call
                    except grpc.aio.AioRpcError as exc:
                        errors[exc.code().name] = errors.get(exc.code().name, 0) + 1
                    else:
                        answered += 1
                        if t0 >= measure_from:
                            latencies.append(loop.time() - t0)
                    # arm this match again while the other one fights
                    arming[mid] = asyncio.ensure_future(r.hset(match_key(mid), mapping=fields))

        await asyncio.gather(*(slot(matches[2 * i:2 * i + 2], stubs[i % CONNECTIONS]) for i in range(inflight)))
    finally:
        for channel in channels:
            await channel.close()

    pipe = r.pipeline(transaction=False)
    for key in used:
        pipe.delete(key)
    for mid, _ in matches:
        pipe.delete(match_key(mid), log_key(mid))
        pipe.zrem(active_key(GAME), mid)
    await pipe.execute()
    await r.aclose()
    result = summary(latencies, seconds, errors)
    result["matches"] = len(matches)
    result["answered"] = answered
    return result


def main(argv: list[str]) -> None:
    combat, mm, url, seconds, inflight = argv
    print(json.dumps(asyncio.run(run(combat, mm, url, float(seconds), int(inflight)))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
