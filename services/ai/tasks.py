"""The AI turn task: thin. Read the seat's view and legal actions through the public
gRPC API with the Python client (services/client) holding the seat's token, ask the game's
policy, submit the choice.

The task names the turn (match, seat, version) and carries no token: the worker derives
the seat's token from the AI key (AI_KEY_FILE, or the one in Redis; services/core/ai_seats.py),
the same key the match was created with. A task for a match created before that scheme
still carries the token the match keeps, and plays with it.

The action id is derived from (match, version), so a task delivered twice acts once:
the second submission is answered as a replay and changes nothing."""
from __future__ import annotations

import json
import logging
import random
import threading
import time

import grpc
from celery.utils.time import get_exponential_backoff_interval

from services.ai.celery_app import app, settings
from services.ai.notifier import TASK
from services.client import Client, Seat
from services.core import ai_seats
from services.core.metrics import METRICS
from services.rpc import tls
from shared.engine.registry import policy_for

log = logging.getLogger("archmage.ai")

# what a later attempt may get past: a service or Redis down or slow, a lost race, a limit
# (INTERNAL is a bug to fix, not to retry: the sweep still tries the turn again later)
TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.ABORTED,
             grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.CANCELLED)


def _client() -> Client:
    """This worker's client of the board and combat services (TLS as configured); no player signs
    in, AI seats act with their seat tokens alone."""
    if not hasattr(_client, "value"):
        board = tls.channel(settings.board_addr, settings)
        combat = board if settings.combat_addr == settings.board_addr else tls.channel(settings.combat_addr, settings)
        _client.value = Client(board, combat_channel=combat, sign_in=False)
    return _client.value


_key_lock = threading.Lock()


def ai_key() -> bytes:
    """This worker's AI key, loaded on its first turn (a blocking Redis read at most once)."""
    with _key_lock:
        if not hasattr(ai_key, "value"):
            import redis

            client = redis.Redis.from_url(settings.redis_url, socket_timeout=10, socket_connect_timeout=10)
            try:
                ai_key.value = ai_seats.load_sync(client, settings.ai_key_file)
            finally:
                client.close()
            log.info("AI seats' tokens come from AI key %s (%s)", ai_seats.key_id(ai_key.value),
                     "AI_KEY_FILE" if settings.ai_key_file else "kept in Redis")
        return ai_key.value


def play_turn_once(seat: Seat, version: int) -> tuple[str, str]:
    """One AI turn of `seat` at `version`, at the level its match gave the seat (MatchView.seats;
    a stand-in for a human seat plays normal): (what happened: "acted", "stale" or "over"; the game).
    Seat.act's own retries are off: the channel's (on UNAVAILABLE, with the same action id) and the
    task's back-off are the only ones."""
    view, listed = seat.match_and_actions()  # the view and the legal actions, asked at once
    if view.status != "active":
        return "over", view.game
    if view.version != version or view.to_act != seat.seat:
        return "stale", view.game  # someone acted already; the newer version queued its own task
    try:
        actions = listed()  # a tile's placements come in pages
        if seat.version != version or not actions:
            return "stale", view.game
        level = next((s.level for s in view.seats if s.index == seat.seat), "") or "normal"
        thinking = time.perf_counter()
        choice = policy_for(view.game, level)(json.loads(view.view_json), seat.seat, [a.action for a in actions],
                                              random.Random(f"{seat.match_id}:{version}"))
        METRICS.ai_think_seconds.labels(view.game, level).observe(time.perf_counter() - thinking)
        seat.act(next(a for a in actions if a.action == choice), action_id=f"ai:{seat.match_id}:{version}",
                 expected_version=version, attempts=1)
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.ABORTED:
            return "stale", view.game  # the match moved on while we read or acted
        raise
    return "acted", view.game


ATTEMPTS = 6  # back-off of 0-1, 0-2, 0-4, 0-8, 0-8 s between them: about 23 s at most, within the time limit


@app.task(name=TASK, bind=True)
def play_turn(self, match_id: str, seat: int, version: int, token: str | None = None) -> str:
    """One AI turn. A transient failure is tried again in the task, after Celery's exponential
    back-off with full jitter: not by re-publishing, because a broker that is down (Redis, the
    usual cause) refuses the retry, and a rejected task wedges the worker's consumer. A turn
    that fails for good is left to the sweep (services/core/ai_turns.py).
    `token` comes only with a match created before AI seats' tokens were derived."""
    start = time.perf_counter()
    game = "unknown"
    derived = token is None
    try:
        if derived:
            token = ai_seats.derive(ai_key(), match_id, seat)
        for attempt in range(ATTEMPTS):
            try:
                result, game = play_turn_once(Seat(_client(), match_id, token, seat), version)
                break
            except grpc.RpcError as exc:
                if derived and exc.code() == grpc.StatusCode.UNAUTHENTICATED:
                    log.error("the seat token derived for %s seat %s was refused: the matchmaking service and the"
                              " AI workers must share one AI key (the same AI_KEY_FILE, or none on both); this"
                              " worker's is %s", match_id, seat, ai_seats.key_id(ai_key()))
                if exc.code() not in TRANSIENT or attempt + 1 == ATTEMPTS:
                    raise
                METRICS.ai_turns.labels(game, "retried").inc()
                time.sleep(get_exponential_backoff_interval(1, attempt, 8, full_jitter=True))
        METRICS.ai_turns.labels(game, result).inc()
        return result
    except Exception:
        METRICS.ai_turns.labels(game, "failed").inc()
        raise
    finally:
        METRICS.ai_turn_seconds.labels(game).observe(time.perf_counter() - start)
