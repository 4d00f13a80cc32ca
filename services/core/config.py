"""Configuration, read once from the environment, typed, failing loudly.

Every setting has a default that runs the embedded platform on one machine;
a value that cannot be read stops start-up with a message naming it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field


class ConfigError(RuntimeError):
    pass


def _get(env: dict, name: str, default: str) -> str:
    return env.get(name, default)


def _int(env: dict, name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None


def _float(env: dict, name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None


def _positive(env: dict, name: str, default: int) -> int:
    value = _int(env, name, default)
    if value <= 0:
        raise ConfigError(f"{name} must be positive, got {value}")
    return value


def _web_secret(env: dict) -> str:
    secret = _get(env, "WEB_SECRET", "")
    if secret and len(secret) < 16:
        raise ConfigError("WEB_SECRET must be at least 16 characters: it signs the web service's session cookies")
    return secret


def _choice(env: dict, name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = env.get(name) or default
    if raw not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, got {raw!r}")
    return raw


@dataclass(frozen=True)
class Settings:
    redis_url: str = "redis://127.0.0.1:6379/0"
    # REDIS_URL names one node of a Redis Cluster (any one: the others are discovered)
    redis_cluster: bool = False
    # the Celery broker of the AI turns: REDIS_URL's Redis unless set; its own plain Redis on a
    # Cluster (kombu's Redis transport cannot use a Cluster)
    broker_url: str = "redis://127.0.0.1:6379/0"
    redis_fsync: str = "everysec"  # the launcher's own redis-server: appendfsync always, everysec or no
    # where clients find each service; in the embedded default all four share one address
    grpc_host: str = "127.0.0.1"
    grpc_port: int = 50051
    # several serving processes on one port (SO_REUSEPORT; the launcher's --procs N sets it when
    # N > 1): the kernel spreads connections over them. Off, a port already bound is an error.
    reuse_port: bool = False
    dice_addr: str = "127.0.0.1:50051"
    board_addr: str = "127.0.0.1:50051"
    combat_addr: str = "127.0.0.1:50051"
    matchmaking_addr: str = "127.0.0.1:50051"
    metrics_port: int = 9100  # 0 = no /metrics endpoint
    metrics_host: str = "127.0.0.1"
    log_level: str = "INFO"
    # the command line: where it finds the platform, and the session credential it plays with
    client_addr: str = "127.0.0.1:50051"
    client_token: str = ""
    metrics_multiproc_dir: str = ""  # PROMETHEUS_MULTIPROC_DIR: a worker's pool processes share metrics here
    drain_s: float = 5.0  # after SIGTERM: NOT_SERVING but still answering this long, then stop
    stop_grace_s: float = 5.0  # then in-flight calls get this long to finish
    dice_mode: str = "inprocess"  # the match driver rolls in process, or through the dice service
    match_ttl_s: int = 7 * 24 * 3600  # an active match untouched this long expires
    finished_ttl_s: int = 24 * 3600  # a finished match stays readable (and verifiable) this long
    action_id_ttl_s: int = 24 * 3600
    cas_retries: int = 8
    match_cache: int = 2000  # matches whose newest record a serving process keeps decoded (0: none)
    max_message_bytes: int = 1 << 20
    ai_enabled: bool = True  # queue AI turns on Celery
    ai_queue: str = "ai"
    ai_stall_s: float = 5.0  # an AI turn due this long with no move is queued again
    ai_sweep_s: float = 1.0  # how often the board service looks for such turns
    clock_sweep_s: float = 0.5  # how often each board replica acts on the clock deadlines that are due
    stand_in_grace_s: float = 5.0  # a player out of time has this long at each turn to come back first
    # a match with human seats where no human acted for this long ends as abandoned (0 = never)
    abandon_after_s: float = 3 * 24 * 3600.0
    ticket_ttl_s: int = 600  # a ticket not matched in this long expires
    mm_interval_s: float = 0.2  # how often each matchmaking replica runs a cycle
    mm_window_base: float = 100.0  # rating gap accepted at once
    mm_window_per_s: float = 25.0  # and how much wider it grows per second waited
    mm_lock_ms: int = 5_000  # a replica holds a queue this long at most per cycle
    mm_claim_ms: int = 30_000  # tickets claimed by a replica that died go back after this
    player_key_file: str = ""  # PEM Ed25519 key that signs session credentials; empty = one kept in Redis
    session_ttl_s: int = 3600  # how long a session credential lasts
    ai_key_file: str = ""  # the key AI seats' tokens are derived from (matchmaking, AI workers); empty = in Redis
    tls_cert_file: str = ""  # the server's certificate (and a client's, for mutual TLS); services/rpc/tls.py
    tls_key_file: str = ""
    tls_ca_file: str = ""  # clients trust servers signed by this CA
    tls_client_ca_file: str = ""  # servers require client certificates signed by this CA
    limits: dict = field(default_factory=dict)  # LIMIT_<NAME>=rate overrides (services/rpc/quotas.py)
    # the web service (services/web): where it listens, the key that signs its session cookies
    # (empty = a fresh one per start), how long a session lasts, /metrics apart (0 = only the
    # app's own /metrics); it finds the platform at ARCHMAGE_ADDR, and Board and Combat at
    # BOARD_ADDR and COMBAT_ADDR only when those are given (split mode, compose, Kubernetes)
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    web_secret: str = ""
    web_session_s: int = 3600
    web_metrics_port: int = 0
    web_board_addr: str = ""
    web_combat_addr: str = ""
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: dict | None = None) -> "Settings":
        env = dict(os.environ if env is None else env)
        host = _get(env, "ARCHMAGE_HOST", "127.0.0.1")
        port = _int(env, "ARCHMAGE_PORT", 50051)
        default_addr = f"{host}:{port}"
        redis_url = _get(env, "REDIS_URL", "redis://127.0.0.1:6379/0")
        cluster = _choice(env, "REDIS_CLUSTER", "0", ("0", "1")) == "1"
        ai_enabled = _choice(env, "AI_ENABLED", "1", ("0", "1")) == "1"
        broker_url = _get(env, "BROKER_URL", "")
        if cluster and ai_enabled and not broker_url:
            raise ConfigError("REDIS_CLUSTER=1 needs BROKER_URL: the Celery broker of the AI turns runs on a plain "
                              "(non-cluster) Redis of its own (or set AI_ENABLED=0)")
        return cls(
            redis_url=redis_url,
            redis_cluster=cluster,
            broker_url=broker_url or redis_url,
            redis_fsync=_choice(env, "REDIS_FSYNC", "everysec", ("always", "everysec", "no")),
            grpc_host=host,
            grpc_port=port,
            reuse_port=_choice(env, "SERVE_REUSEPORT", "0", ("0", "1")) == "1",
            dice_addr=_get(env, "DICE_ADDR", default_addr),
            board_addr=_get(env, "BOARD_ADDR", default_addr),
            combat_addr=_get(env, "COMBAT_ADDR", default_addr),
            matchmaking_addr=_get(env, "MATCHMAKING_ADDR", default_addr),
            metrics_port=_int(env, "METRICS_PORT", 9100),
            metrics_host=_get(env, "METRICS_HOST", "127.0.0.1"),
            log_level=_choice(env, "LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR")),
            client_addr=_get(env, "ARCHMAGE_ADDR", "127.0.0.1:50051"),
            client_token=_get(env, "ARCHMAGE_TOKEN", ""),
            metrics_multiproc_dir=_get(env, "PROMETHEUS_MULTIPROC_DIR", ""),
            drain_s=_float(env, "DRAIN_S", 5.0),
            stop_grace_s=_float(env, "STOP_GRACE_S", 5.0),
            dice_mode=_choice(env, "DICE_MODE", "inprocess", ("inprocess", "service")),
            match_ttl_s=_int(env, "MATCH_TTL_S", 7 * 24 * 3600),
            finished_ttl_s=_int(env, "FINISHED_TTL_S", 24 * 3600),
            action_id_ttl_s=_int(env, "ACTION_ID_TTL_S", 24 * 3600),
            cas_retries=_int(env, "CAS_RETRIES", 8),
            match_cache=_int(env, "MATCH_CACHE", 2000),
            max_message_bytes=_int(env, "MAX_MESSAGE_BYTES", 1 << 20),
            ai_enabled=ai_enabled,
            ai_queue=_get(env, "AI_QUEUE", "ai"),
            ai_stall_s=_float(env, "AI_STALL_S", 5.0),
            ai_sweep_s=_float(env, "AI_SWEEP_S", 1.0),
            clock_sweep_s=_float(env, "CLOCK_SWEEP_S", 0.5),
            stand_in_grace_s=_float(env, "STAND_IN_GRACE_S", 5.0),
            abandon_after_s=_float(env, "ABANDON_AFTER_S", 3 * 24 * 3600.0),
            ticket_ttl_s=_int(env, "TICKET_TTL_S", 600),
            mm_interval_s=_float(env, "MM_INTERVAL_S", 0.2),
            mm_window_base=_float(env, "MM_WINDOW_BASE", 100.0),
            mm_window_per_s=_float(env, "MM_WINDOW_PER_S", 25.0),
            mm_lock_ms=_int(env, "MM_LOCK_MS", 5_000),
            mm_claim_ms=_int(env, "MM_CLAIM_MS", 30_000),
            player_key_file=_get(env, "PLAYER_KEY_FILE", ""),
            session_ttl_s=_int(env, "SESSION_TTL_S", 3600),
            ai_key_file=_get(env, "AI_KEY_FILE", ""),
            tls_cert_file=_get(env, "TLS_CERT_FILE", ""),
            tls_key_file=_get(env, "TLS_KEY_FILE", ""),
            tls_ca_file=_get(env, "TLS_CA_FILE", ""),
            tls_client_ca_file=_get(env, "TLS_CLIENT_CA_FILE", ""),
            limits={k[len("LIMIT_"):].lower(): v for k, v in env.items() if k.startswith("LIMIT_") and v},
            web_host=_get(env, "WEB_HOST", "127.0.0.1") or "127.0.0.1",
            web_port=_int(env, "WEB_PORT", 8080),
            web_secret=_web_secret(env),
            web_session_s=_positive(env, "WEB_SESSION_S", 3600),
            web_metrics_port=_int(env, "WEB_METRICS_PORT", 0),
            web_board_addr=_get(env, "BOARD_ADDR", ""),
            web_combat_addr=_get(env, "COMBAT_ADDR", ""),
        )
