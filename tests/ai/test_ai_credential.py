"""The AI workers' own credential: an AI seat's token is derived from the AI key, the match
keeps only its hash, the Celery message carries none, and a match created before this
scheme (its AI tokens in the record) goes on playing with the tokens it keeps."""
from __future__ import annotations

import base64
import json
import secrets
import sys

import grpc
import pytest
import redis
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc

from services.ai.tasks import play_turn_once
from services.client.session import signed_in
from services.core import ai_seats
from services.core import seats as seat_tokens
from services.core.config import ConfigError
from services.core.store import DUE_KEY
from services.core.tokens import hash_token
from tests.ai.test_ai_turns import ai_seat
from tests.platform.test_match_driver import Client
from tests.support.processes import Child, celery_worker, wait_for
from tests.support.server import ServerThread


class RecordedTurns:
    """A notifier that remembers every turn it was told of, token included."""

    def __init__(self):
        self.turns = []

    async def ai_turn(self, match_id, seat, version, token):
        self.turns.append((match_id, seat, version, token))


def create(channel, *kinds: str) -> mm.CreatedMatch:
    return matchmaking_pb2_grpc.MatchmakingStub(channel).CreateMatch(mm.CreateMatchRequest(
        game="race", seats=[mm.SeatSpec(kind=k) for k in kinds]))


def make_legacy(server: ServerThread, match_id: str, seat: int) -> str:
    """Turn a match into what the platform made before AI tokens were derived: a random token for
    the AI seat, kept in plain text in `ai_tokens`, its hash among the seat hashes."""
    token = seat_tokens.issue(match_id, seat)
    r = redis.Redis.from_url(server.settings.redis_url)
    key = f"{{m:{match_id}}}"
    hashes = json.loads(r.hget(key, "tokens"))
    hashes[seat] = hash_token(token)
    r.hset(key, mapping={"tokens": json.dumps(hashes), "ai_tokens": json.dumps({str(seat): token})})
    r.close()
    return token


def test_an_ai_seat_keeps_only_the_hash_of_a_token_derived_from_the_ai_key(platform):
    channel = signed_in(grpc.insecure_channel(platform.address))
    m = create(channel, "human", "ai")
    raw = platform.run(platform.platform.store.load(m.match_id))
    key = platform.run(platform.platform.matches.ai_key())
    assert key == platform.run(platform.platform.redis.get(ai_seats.KEY_IN_REDIS))  # made once, SET NX
    derived = ai_seats.derive(key, m.match_id, 1)
    assert "ai_tokens" not in raw
    assert json.loads(raw["tokens"])[1] == hash_token(derived)
    assert not any(derived.encode() in value or derived.split(".")[2].encode() in value for value in raw.values())
    assert [t.seat for t in m.seat_tokens] == [0]  # the AI seat's token goes to nobody
    # it reads like any seat token and proves that seat alone
    assert seat_tokens.parse(derived).seat == 1 and len(derived) < 200
    assert play_turn_once(ai_seat(platform, m.match_id, 1, derived), 1)[0] == "stale"
    wrong_key = ai_seats.derive(secrets.token_bytes(32), m.match_id, 1)
    with pytest.raises(grpc.RpcError) as refused:
        play_turn_once(ai_seat(platform, m.match_id, 1, wrong_key), 1)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_the_driver_hands_no_token_over_but_an_old_match_keeps_handing_its_own(redis_url):
    turns = RecordedTurns()
    server = ServerThread(redis_url, notifier=turns, ai_sweep_s=3600)  # the test sweeps by hand
    server.start()
    try:
        channel = signed_in(grpc.insecure_channel(server.address))
        new = create(channel, "ai", "human")
        assert turns.turns == [(new.match_id, 0, 1, None)]
        old = create(channel, "human", "ai")
        legacy = make_legacy(server, old.match_id, 1)
        Client(channel, old.match_id, old.seat_tokens[0].token).act({"kind": "hide", "number": 2})
        assert turns.turns[-1] == (old.match_id, 1, 2, legacy)
        # the sweep, queueing a stalled turn again, hands over the same
        matches = server.platform.matches
        server.run(server.platform.redis.zadd(DUE_KEY, {old.match_id: 1, new.match_id: 1}))
        before = len(turns.turns)
        assert server.run(matches.ai.sweep(matches.load, 0)) >= 2
        ours = [t for t in turns.turns[before:] if t[0] in (old.match_id, new.match_id)]
        assert sorted(ours) == sorted([(old.match_id, 1, 2, legacy), (new.match_id, 0, 1, None)])
        # the old match's AI seat is proved by its kept token, not by a derived one
        derived = ai_seats.derive(server.run(matches.ai_key()), old.match_id, 1)
        with pytest.raises(grpc.RpcError) as refused:
            play_turn_once(ai_seat(server, old.match_id, 1, derived), 2)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert play_turn_once(ai_seat(server, old.match_id, 1, legacy), 2)[0] == "acted"
    finally:
        server.stop()


def queued_messages(redis_url: str, queue: str) -> list[dict]:
    """The Celery messages waiting in `queue` (kombu's Redis transport keeps them in a list)."""
    r = redis.Redis.from_url(redis_url)
    out = []
    for raw in r.lrange(queue, 0, -1):
        message = json.loads(raw)
        body = json.loads(base64.b64decode(message["body"]))
        out.append({"raw": raw, "args": body[0], "kwargs": body[1], "headers": message["headers"]})
    r.close()
    return out


@pytest.fixture
def key_file(tmp_path):
    path = tmp_path / "ai.key"
    path.write_text(secrets.token_hex(32) + "\n")
    return path


def test_workers_derive_the_tokens_from_the_key_file_and_play_old_and_new_matches(redis_url, key_file):
    from services.ai.celery_app import app
    from services.ai.notifier import CeleryTurns

    in_redis = redis.Redis.from_url(redis_url).get(ai_seats.KEY_IN_REDIS)
    queue = "ai-test-" + secrets.token_hex(4)
    server = ServerThread(redis_url, notifier=CeleryTurns(app, queue), ai_key_file=str(key_file))
    server.start()
    try:
        channel = signed_in(grpc.insecure_channel(server.address))
        key = key_file.read_text().strip().encode()
        assert server.run(server.platform.matches.ai_key()) == key
        assert redis.Redis.from_url(redis_url).get(ai_seats.KEY_IN_REDIS) == in_redis  # the file's key stays out
        new = create(channel, "ai", "ai", "ai")
        raw = server.run(server.platform.store.load(new.match_id))
        assert json.loads(raw["tokens"]) == [hash_token(ai_seats.derive(key, new.match_id, i)) for i in range(3)]
        old = create(channel, "human", "ai")
        legacy = make_legacy(server, old.match_id, 1)
        Client(channel, old.match_id, old.seat_tokens[0].token).act({"kind": "hide", "number": 1})

        # nothing plays them yet: read what waits on the broker
        messages = queued_messages(redis_url, queue)
        assert sorted(tuple(m["args"]) for m in messages) == sorted([(new.match_id, 0, 1),
                                                                     (old.match_id, 1, 2, legacy)])
        new_message = next(m for m in messages if m["args"][0] == new.match_id)
        assert ai_seats.derive(key, new.match_id, 0).split(".")[2].encode() not in new_message["raw"]

        env = {"REDIS_URL": redis_url, "BOARD_ADDR": server.address, "COMBAT_ADDR": server.address,
               "AI_QUEUE": queue, "AI_KEY_FILE": str(key_file)}
        board = board_pb2_grpc.BoardStub(channel)
        with celery_worker(env, queue=queue):
            wait_for(lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id=new.match_id)).status == "finished",
                     timeout=90, what="the all-AI match to finish")
            wait_for(lambda: board.GetMatch(board_pb2.GetMatchRequest(match_id=old.match_id)).version >= 3,
                     timeout=60, what="the old match's AI seat to play its turn")
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=old.match_id))
        assert view.to_act == 0 and view.status == "active"
    finally:
        server.stop()


def test_an_ai_key_file_that_cannot_be_used_stops_start_up_naming_it(tmp_path, redis_url):
    short = tmp_path / "short.key"
    short.write_text("too short")
    with pytest.raises(ConfigError, match="AI_KEY_FILE .* at least 32"):
        ai_seats.read_key_file(str(short))
    env = {"REDIS_URL": redis_url, "ARCHMAGE_PORT": "0", "METRICS_PORT": "0",
           "AI_KEY_FILE": str(tmp_path / "missing.key")}
    with Child("matchmaking", [sys.executable, "-m", "services.runtime.main", "matchmaking"], env) as child:
        assert child.wait(60) != 0
        assert "configuration error: AI_KEY_FILE names" in child.output() and "missing.key" in child.output()
        assert "Traceback" not in child.output()
