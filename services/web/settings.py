"""What the web service takes from the platform's settings (services/core/config.py reads the
environment, as for every service):

    WEB_HOST, WEB_PORT      where it listens (127.0.0.1:8080)
    ARCHMAGE_ADDR           the platform's public gRPC address (127.0.0.1:50051): Players and
                            Matchmaking, and the rest unless named apart below
    BOARD_ADDR, COMBAT_ADDR Board's and Combat's, when those services listen apart (split mode,
                            compose, Kubernetes)
    WEB_SECRET              the key that signs session cookies; empty = a fresh one per start
                            (sessions then end when the service restarts); several replicas
                            behind one address need the same one
    WEB_SESSION_S           how long a session lasts (3600 s, the platform's session credential's life)
    WEB_METRICS_PORT        where /metrics is served apart (0 = only on the app's own /metrics)
    TLS_CA_FILE             the web service reaches the platform over TLS trusting this CA, and
                            presents TLS_CERT_FILE / TLS_KEY_FILE when TLS_CLIENT_CA_FILE asks
                            for client certificates (services/rpc/tls.py), as every client does
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from services.core.config import Settings


@dataclass(frozen=True)
class WebSettings:
    host: str = "127.0.0.1"
    port: int = 8080
    platform_addr: str = "127.0.0.1:50051"
    board_addr: str = ""
    combat_addr: str = ""
    secret: bytes = b""
    session_s: int = 3600
    metrics_port: int = 0
    call_timeout_s: float = 10.0
    tls_ca_file: str = ""  # TLS to the platform when set
    tls_cert_file: str = ""  # a client certificate, for mutual TLS
    tls_key_file: str = ""

    @property
    def tls(self) -> tuple[str, str, str]:
        """(CA, client certificate, client key) for services.client.open_channel."""
        return self.tls_ca_file, self.tls_cert_file, self.tls_key_file

    @classmethod
    def from_settings(cls, settings: Settings) -> "WebSettings":
        return cls(host=settings.web_host, port=settings.web_port, platform_addr=settings.client_addr,
                   board_addr=settings.web_board_addr, combat_addr=settings.web_combat_addr,
                   secret=settings.web_secret.encode() if settings.web_secret else secrets.token_bytes(32),
                   session_s=settings.web_session_s, metrics_port=settings.web_metrics_port,
                   tls_ca_file=settings.tls_ca_file,
                   **({"tls_cert_file": settings.tls_cert_file, "tls_key_file": settings.tls_key_file}
                      if settings.tls_client_ca_file else {}))

    @classmethod
    def from_env(cls, env: dict | None = None) -> "WebSettings":
        return cls.from_settings(Settings.from_env(env))
