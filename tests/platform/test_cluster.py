"""The platform on a real Redis Cluster: three masters (redis-server processes on loopback),
the services over real gRPC with REDIS_CLUSTER=1. Matches are played and tickets matched
through it; then one master is killed (SIGKILL) and the test shows what clients see:
UNAVAILABLE naming Redis for whatever lives on that master, never INTERNAL, while the matches,
tickets and players on the other masters go on being served."""
from __future__ import annotations

import asyncio
import json
import time
import uuid

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from redis.cluster import key_slot

from services.core.ai_turns import AiTurns
from services.core.errors import Conflict, NotFound
from services.core.store import DEADLINES_KEY, DUE_KEY, RedisMatchStore, match_key
from services.matchmaking.tickets import tag
from services.players.credentials import revoked_key
from tests.support.redis_cluster import RedisCluster
from tests.support.server import ServerThread
from tests.trust.support import identity

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    try:
        with RedisCluster(masters=3) as c:
            yield c
    except FileNotFoundError as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def served(cluster):
    server = ServerThread(cluster.url, redis_cluster=True, mm_interval_s=0.05, mm_window_base=100,
                          mm_window_per_s=400)
    server.start()
    ch = grpc.insecure_channel(server.address)
    yield server, ch
    ch.close()
    server.stop()


class Match:
    def __init__(self, ch, owner, seats: int = 1):
        made = matchmaking_pb2_grpc.MatchmakingStub(ch).CreateMatch(mm.CreateMatchRequest(
            game="race", seats=[mm.SeatSpec(kind="human") for _ in range(seats)]), metadata=owner.meta, timeout=10)
        self.match_id = made.match_id
        self.metas = [(("x-seat-token", t.token),) for t in sorted(made.seat_tokens, key=lambda t: t.seat)]
        self.board, self.combat = board_pb2_grpc.BoardStub(ch), combat_pb2_grpc.CombatStub(ch)

    def view(self):
        return self.board.GetMatch(board_pb2.GetMatchRequest(match_id=self.match_id), metadata=self.metas[0],
                                   timeout=10)

    def roll(self):
        view = self.view()
        request = common_pb2.ActRequest(match_id=self.match_id, action_id=str(uuid.uuid4()),
                                        action_json=json.dumps({"kind": "roll"}), expected_version=view.version)
        return self.combat.Resolve(request, metadata=self.metas[view.to_act], timeout=10)

    def play_to_the_end(self, limit: int = 100):
        for _ in range(limit):
            if self.view().status == "finished":
                return self.view()
            self.roll()
        raise AssertionError("the match did not finish")


def revocation_key_of(meta) -> str:
    """The Redis key that would mark this credential signed out (services/players/credentials.py)."""
    import base64

    token = dict(meta)["authorization"].split()[1]
    payload = token.split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return revoked_key(claims["jti"])


def failure(call) -> grpc.RpcError | None:
    try:
        call()
    except grpc.RpcError as exc:
        return exc
    return None


def assert_unavailable(call, what: str) -> None:
    err = failure(call)
    assert err is not None, f"{what} was served"
    assert err.code() == grpc.StatusCode.UNAVAILABLE, (what, err.code(), err.details())
    assert "Redis is unavailable" in err.details(), (what, err.details())


def wait_assigned(stub, ticket_id: str, meta, timeout: float = 20):
    deadline = time.monotonic() + timeout
    for update in stub.WatchTicket(mm.TicketRef(ticket_id=ticket_id), metadata=meta, timeout=timeout):
        if update.state == "assigned":
            return update
        assert time.monotonic() < deadline
    raise AssertionError(f"ticket {ticket_id} ended unassigned")


def test_the_store_scripts_stay_in_one_slot_and_the_ai_mark_rides_along(cluster):
    """The commit script (three keys of one match), the due-AI mark beside it (a key of another
    slot) and a replayed action id, on a Cluster."""
    async def scenario():
        store = RedisMatchStore.from_url(cluster.url, cluster=True)
        try:
            match_id = uuid.uuid4().hex[:16]
            await store.commit(match_id, new=True, expected_version=None, expected_seq=0, fields={"v": 1, "seq": 0},
                               events=[], ttl_s=60)
            first = await store.commit(match_id, expected_version=1, expected_seq=0, fields={"v": 2}, events=[],
                                       ttl_s=60, action_id="a1", answer="first", ai_due=True)
            again = await store.commit(match_id, expected_version=2, expected_seq=0, fields={"v": 3}, events=[],
                                       ttl_s=60, action_id="a1", answer="second")
            assert (first.replayed, again.replayed, again.answer) == (False, True, "first")
            assert await store.redis.zscore(DUE_KEY, match_id) is not None
            assert (await store.load(match_id))["v"] == b"2"

            async def gone(_match_id):
                raise NotFound("expired")

            # the sweep's claim script on the due set: a mark whose match is gone is dropped
            assert await AiTurns(store).sweep(gone, stall_s=0) == 0
            assert await store.redis.zscore(DUE_KEY, match_id) is None
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_clock_deadline_on_a_cluster_is_never_later_than_the_record_says(cluster):
    """The deadlines live on another slot than the match: a commit writes an earlier deadline ahead
    of itself and never a later one (the sweep moves an early one on), and leaves one that no
    longer has a deadline behind it to the sweep (which drops it): removing it after a commit
    could remove the mark of a newer commit from another process."""
    async def scenario():
        store = RedisMatchStore.from_url(cluster.url, cluster=True)
        try:
            match_id = uuid.uuid4().hex[:16]
            await store.commit(match_id, new=True, expected_version=None, expected_seq=0, fields={"v": 1, "seq": 0},
                               events=[], ttl_s=60, deadline=1000.0)
            await store.commit(match_id, expected_version=1, expected_seq=0, fields={"v": 2}, events=[], ttl_s=60,
                               deadline=2000.0)
            assert await store.redis.zscore(DEADLINES_KEY, match_id) == 1000.0  # early: the sweep moves it on
            await store.commit(match_id, expected_version=2, expected_seq=0, fields={"v": 3}, events=[], ttl_s=60,
                               deadline=500.0)
            assert await store.redis.zscore(DEADLINES_KEY, match_id) == 500.0
            with pytest.raises(Conflict):
                await store.commit(match_id, expected_version=2, expected_seq=0, fields={"v": 4}, events=[],
                                   ttl_s=60, deadline=None)
            assert await store.redis.zscore(DEADLINES_KEY, match_id) == 500.0  # a refused commit drops nothing
            await store.commit(match_id, expected_version=3, expected_seq=0, fields={"v": 4}, events=[], ttl_s=60,
                               deadline=None)
            assert await store.redis.zscore(DEADLINES_KEY, match_id) == 500.0  # the sweep's to drop
        finally:
            await store.close()

    asyncio.run(scenario())


def test_the_probe_sums_the_masters_and_reads_the_ai_queue_from_its_own_broker(cluster, redis_url):
    import redis

    from services.core.metrics import PlatformProbe, active_key

    game = "probe-" + uuid.uuid4().hex[:6]
    client = redis.RedisCluster.from_url(cluster.url)
    ids = [uuid.uuid4().hex[:16] for _ in range(9)]
    client.zadd(active_key(game), {i: time.time() for i in ids})
    probe = PlatformProbe(cluster.url, ["ai-" + game], [game], 3600, cluster=True, broker_url=redis_url)
    got = {(s.name, tuple(sorted(s.labels.items()))): s.value for f in probe.collect() for s in f.samples}
    assert got[("archmage_redis_up", ())] == 1
    assert got[("archmage_active_matches", (("game", game),))] == 9
    assert got[("archmage_ai_queue_depth", (("queue", "ai-" + game),))] == 0
    each = [redis.Redis(port=p).info("memory")["used_memory"] for p in cluster.ports]
    assert got[("archmage_redis_used_memory_bytes", ())] >= sum(each) * 0.9  # the three masters', summed
    client.delete(active_key(game))
    client.close()


def test_a_rated_match_changes_its_players_ratings_once_on_a_cluster(cluster):
    """The rating transaction (WATCH the match's mark and its players' ratings, MULTI/EXEC them
    with the leaderboard) stays in one slot: the game's hash tag."""
    from services.core.redisclient import connect
    from services.players.ratings import Ratings, leaders_key, rated_key, rating_key

    async def scenario():
        client = connect(cluster.url, cluster=True)
        try:
            ratings = Ratings(client)
            run = uuid.uuid4().hex[:8]
            game = f"race-{run}"  # a leaderboard of this test's own
            alice, bob, match_id = f"alice-{run}", f"bob-{run}", f"rated-{run}"
            keys = [rating_key(game, alice), rating_key(game, bob), leaders_key(game), rated_key(game, match_id)]
            assert len({key_slot(k.encode()) for k in keys}) == 1, keys
            assert await ratings.record(match_id, game, [alice, bob], (15, 9), (0,))
            assert not await ratings.record(match_id, game, [alice, bob], (15, 9), (0,))  # once
            a, b = await ratings.get(game, alice), await ratings.get(game, bob)
            assert (a.matches, b.matches) == (1, 1) and a.mu > b.mu
            assert [r.player_id for r in await ratings.leaders(game, 10)] == [alice, bob]
        finally:
            await client.aclose()

    asyncio.run(scenario())


def test_matches_and_tickets_through_a_cluster_then_one_master_dies(cluster, served):
    server, ch = served
    mm_stub = matchmaking_pb2_grpc.MatchmakingStub(ch)
    owner = identity(ch)
    queuers = [identity(ch) for _ in range(4)]

    # matches until the Cluster holds them on at least two masters
    matches: list[Match] = []
    while len({cluster.port_of_key(match_key(m.match_id)) for m in matches}) < 2:
        assert len(matches) < 30, "every match landed on one master"
        matches.append(Match(ch, owner, seats=2))
    for m in matches:
        m.roll()
    finished = matches[-1].play_to_the_end()
    assert finished.status == "finished"

    # two tickets meet in a match; a party of two waits (it wants four seats)
    a = mm_stub.CreateTicket(mm.CreateTicketRequest(game="race", seats=2), metadata=queuers[0].meta, timeout=10)
    b = mm_stub.CreateTicket(mm.CreateTicketRequest(game="race", seats=2), metadata=queuers[1].meta, timeout=10)
    waiting = mm_stub.CreateTicket(mm.CreateTicketRequest(
        game="race", seats=4, party=[queuers[2].player, queuers[3].player]), metadata=queuers[2].meta, timeout=10)
    assert waiting.state == "forming"
    accepted = mm_stub.AcceptTicket(mm.TicketRef(ticket_id=waiting.ticket_id), metadata=queuers[3].meta, timeout=10)
    assert accepted.state == "queued"
    busy = failure(lambda: mm_stub.CreateTicket(mm.CreateTicketRequest(game="race", seats=2),
                                                metadata=queuers[3].meta, timeout=10))
    assert busy is not None and busy.code() == grpc.StatusCode.ALREADY_EXISTS  # one active ticket a player
    assigned = wait_assigned(mm_stub, a.ticket_id, queuers[0].meta)
    assert wait_assigned(mm_stub, b.ticket_id, queuers[1].meta).assignment.match_id == assigned.assignment.match_id

    # one master dies: the one holding the first match
    victim = cluster.port_of_key(match_key(matches[0].match_id))
    on_victim = [m for m in matches if cluster.port_of_key(match_key(m.match_id)) == victim]
    elsewhere = [m for m in matches[:-1] if cluster.port_of_key(match_key(m.match_id)) != victim]
    cluster.kill(victim)

    for m in on_victim:  # what lived there is unavailable, reads and writes alike
        assert_unavailable(m.view, f"GetMatch of {m.match_id}")
        assert_unavailable(
            lambda m=m: m.combat.Resolve(common_pb2.ActRequest(match_id=m.match_id, action_id="after",
                                                               action_json='{"kind": "roll"}'),
                                         metadata=m.metas[0], timeout=10), f"Resolve in {m.match_id}")
        assert_unavailable(lambda m=m: list(m.board.WatchMatch(board_pb2.WatchMatchRequest(match_id=m.match_id),
                                                               metadata=m.metas[0], timeout=10)), "WatchMatch")
    for m in elsewhere:  # what lives on the other masters is played to the end, and its log read back
        before = m.view().version
        assert m.play_to_the_end().status == "finished" and m.view().version > before
        log = list(m.board.WatchMatch(board_pb2.WatchMatchRequest(match_id=m.match_id), metadata=m.metas[0],
                                      timeout=10))
        assert log[-1].type == "dice_revealed" and [e.seq for e in log] == list(range(1, len(log) + 1))
    if cluster.port_of_key(match_key(finished.match_id)) != victim:
        assert matches[-1].view().status == "finished"

    # the waiting ticket and the assignment: kept where their queue's master lives on (and read only while the
    # master holding the reader's revocation mark answers: a credential is never taken unchecked)
    queue_alive = cluster.port_of_key(tag("race:standard")) != victim and \
        cluster.port_of_key(revocation_key_of(queuers[2].meta)) != victim
    read = lambda: mm_stub.GetTicket(mm.TicketRef(ticket_id=waiting.ticket_id), metadata=queuers[2].meta, timeout=10)
    if queue_alive:
        assert read().state == "queued"
    else:
        assert_unavailable(read, "GetTicket")

    # new matches: each answer is a match or UNAVAILABLE (its new id fell on the dead master), never INTERNAL
    codes = []
    for _ in range(12):
        err = failure(lambda: Match(ch, owner))
        codes.append(grpc.StatusCode.OK if err is None else err.code())
        if err is not None:
            assert err.code() == grpc.StatusCode.UNAVAILABLE and "Redis is unavailable" in err.details(), \
                (err.code(), err.details())
    assert set(codes) <= {grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE}

    # the probe says Redis is down (one master is) and the scrape still answers
    from services.core.metrics import PlatformProbe

    probe = PlatformProbe(cluster.url, ["ai"], ["race"], 3600, cluster=True, timeout_s=0.3)
    samples = {s.name: s.value for f in probe.collect() for s in f.samples}
    assert samples["archmage_redis_up"] == 0
