"""Assembly: from Settings to running services. The one place that knows how the
parts fit; handlers and the driver receive what they need, nothing global."""
from __future__ import annotations

import asyncio
import logging

from prometheus_client import start_http_server

from services.core import loops
from services.core.config import Settings
from services.core.dice_sessions import DiceSessions
from services.core.dicesource import InProcessDice, RemoteDice
from services.core.instrumented_store import InstrumentedStore
from services.core.matches import Matches
from services.core.store import RedisMatchStore
from services.core.turn_notices import TurnNotices
from services.matchmaking.matching import Window
from services.matchmaking.matchmaker import Matchmaker, MatchmakerSettings
from services.matchmaking.tickets import TicketStore
from services.players.accounts import Accounts
from services.players.credentials import Credentials
from services.players.ratings import Ratings
from services.rpc import tls
from services.rpc.quotas import Quotas
from services.runtime.server import Mounted, serve

log = logging.getLogger("archmage")

SERVICE_NAMES = ("dice", "board", "combat", "matchmaking")  # "matchmaking" serves Players beside it


class Platform:
    """The domain objects shared by the services of one process."""

    def __init__(self, settings: Settings, notifier=None):
        self.settings = settings
        in_redis = RedisMatchStore.from_url(settings.redis_url, settings.redis_cluster)
        self.redis = in_redis.redis  # one client: the stores of tickets and players share it
        self.store = InstrumentedStore(in_redis)
        self.sessions = DiceSessions(self.store, settings.match_ttl_s, settings.cas_retries)
        self._dice_channel = None
        if settings.dice_mode == "service":
            self._dice_channel = tls.channel(settings.dice_addr, settings, aio=True)  # Draw is retried on UNAVAILABLE
            dice = RemoteDice(self._dice_channel)
        else:
            dice = InProcessDice(self.sessions)
        self.tickets = TicketStore(self.redis, settings.ticket_ttl_s)
        self.accounts = Accounts(self.redis)
        self.ratings = Ratings(self.redis)
        self.credentials: Credentials | None = None  # loaded in start(): the key may live in Redis
        self.quotas = Quotas(settings.redis_url, settings.limits, cluster=settings.redis_cluster)
        self.matchmaker: Matchmaker | None = None
        self._resumer: asyncio.Task | None = None
        self._clock_sweeper: asyncio.Task | None = None
        self._closing = False  # close() has begun: the sweeps end after their pass
        self.matches = Matches(self.store, dice, notifier, match_ttl_s=settings.match_ttl_s,
                               finished_ttl_s=settings.finished_ttl_s, action_ttl_s=settings.action_id_ttl_s,
                               retries=settings.cas_retries, ratings=self.ratings, ai_key_file=settings.ai_key_file,
                               cached_matches=settings.match_cache, stand_in_grace_s=settings.stand_in_grace_s,
                               notices=TurnNotices(self.redis), abandon_after_s=settings.abandon_after_s)

    def bindings(self, names) -> list[tuple]:
        from services.board.handlers import SERVICE as BOARD
        from services.board.handlers import BoardHandlers
        from services.combat.handlers import SERVICE as COMBAT
        from services.combat.handlers import CombatHandlers
        from services.dice.handlers import SERVICE as DICE
        from services.dice.handlers import DiceHandlers
        from services.matchmaking.handlers import SERVICE as MATCHMAKING
        from services.matchmaking.handlers import MatchmakingHandlers
        from services.players.handlers import SERVICE as PLAYERS
        from services.players.handlers import PlayersHandlers

        table = {
            "dice": (DICE, lambda: DiceHandlers(self.sessions, self.quotas)),
            "board": (BOARD, lambda: BoardHandlers(self.matches)),
            "combat": (COMBAT, lambda: CombatHandlers(self.matches)),
            "matchmaking": (MATCHMAKING, lambda: MatchmakingHandlers(self.matches, self.tickets, self.credentials,
                                                                     self.ratings, self.quotas)),
        }
        bound = [(table[n][0], table[n][1]()) for n in names]
        if "matchmaking" in names:
            bound.append((PLAYERS, PlayersHandlers(self.accounts, self.credentials, self.ratings, self.quotas)))
        return bound

    async def start(self, names, host: str | None = None, port: int | None = None) -> Mounted:
        await self.store.ping()
        if self.credentials is None:
            self.credentials = await Credentials.load(self.redis, self.settings.player_key_file,
                                                      self.settings.session_ttl_s, self.quotas)
        if "matchmaking" in names:  # it creates matches, AI seats among them
            from services.core.ai_seats import key_id

            key = await self.matches.ai_key()  # a bad AI_KEY_FILE stops start-up here, naming it
            log.info("AI seats' tokens come from AI key %s (%s)", key_id(key),
                     "AI_KEY_FILE" if self.settings.ai_key_file else "kept in Redis")
        host = host or self.settings.grpc_host
        mounted = await serve(self.bindings(names), host, self.settings.grpc_port if port is None else port,
                              self.settings.max_message_bytes, self.quotas, tls.server_credentials(self.settings),
                              self.settings.reuse_port)
        if "matchmaking" in names:
            s, own = self.settings, f"{host}:{mounted.port}"
            self.matchmaker = Matchmaker(
                self.tickets, self.matches, resolve_own(s.board_addr, own), resolve_own(s.combat_addr, own),
                MatchmakerSettings(interval_s=s.mm_interval_s, lock_ms=s.mm_lock_ms, claim_ms=s.mm_claim_ms,
                                   window=Window(s.mm_window_base, s.mm_window_per_s)))
            self.matchmaker.start()
        if "board" in names and self.matches.plays_ai:
            self._resumer = asyncio.create_task(self._resume_stalled_ai(), name="resume-stalled-ai")
        if "board" in names:
            self._clock_sweeper = asyncio.create_task(self._sweep_deadlines(), name="sweep-deadlines")
        return mounted

    async def _sweep_deadlines(self) -> None:
        """Every CLOCK_SWEEP_S, act on the clock deadlines that are due (services/core/deadlines.py).
        Every board replica sweeps; a claim on each deadline and the timeout's compare-and-set keep
        one timeout per deadline."""
        while not self._closing:
            await asyncio.sleep(self.settings.clock_sweep_s)
            try:
                await self.matches.sweep_deadlines()
            except Exception as exc:
                log.warning("sweeping clock deadlines failed (%s); trying again shortly", exc)

    async def _resume_stalled_ai(self) -> None:
        """Every AI_SWEEP_S, queue again the AI turns due for AI_STALL_S with no move. Every
        board replica sweeps; a claim on each mark keeps one re-queue per stall."""
        while not self._closing:
            await asyncio.sleep(self.settings.ai_sweep_s)
            try:
                await self.matches.sweep_stalled_ai(self.settings.ai_stall_s)
            except Exception as exc:
                log.warning("sweeping stalled AI turns failed (%s); trying again shortly", exc)

    async def close(self) -> None:
        self._closing = True
        await loops.stop(self._resumer)
        await loops.stop(self._clock_sweeper)
        if self.matchmaker is not None:
            await self.matchmaker.stop()
        if self._dice_channel is not None:
            await self._dice_channel.close()
        await self.store.close()


def resolve_own(addr: str, own: str) -> str:
    """An address with port 0 means "this process's own server, wherever it bound"."""
    return own if addr.endswith(":0") else addr


def celery_notifier(settings: Settings):
    if not settings.ai_enabled:
        return None
    from services.ai.celery_app import app
    from services.ai.notifier import CeleryTurns

    return CeleryTurns(app, settings.ai_queue)


def start_metrics(port: int, host: str = "127.0.0.1") -> None:
    """Serve /metrics on host:port (port 0: no endpoint). A port in use stops start-up."""
    if port:
        start_http_server(port, addr=host)
