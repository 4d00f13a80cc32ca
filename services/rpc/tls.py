"""TLS from configuration, for servers and for every client the platform runs.

    TLS_CERT_FILE, TLS_KEY_FILE   the server's certificate chain and key (PEM): the server
                                  listens with TLS
    TLS_CA_FILE                   the CA that clients (service-to-service calls, the AI
                                  workers, the CLI) trust for the servers' certificates
    TLS_CLIENT_CA_FILE            servers require a client certificate signed by this CA
                                  (mutual TLS between services); clients then present
                                  TLS_CERT_FILE / TLS_KEY_FILE as their own
Without them a server listens in plaintext: fine on loopback (the embedded default),
loudly warned about on any other address.
"""
from __future__ import annotations

import ipaddress
import logging

import grpc

log = logging.getLogger("archmage.tls")


def _read(path: str) -> bytes | None:
    if not path:
        return None
    with open(path, "rb") as fh:
        return fh.read()


def server_credentials(settings) -> grpc.ServerCredentials | None:
    if not settings.tls_cert_file:
        return None
    client_ca = _read(settings.tls_client_ca_file)
    return grpc.ssl_server_credentials([(_read(settings.tls_key_file), _read(settings.tls_cert_file))],
                                       root_certificates=client_ca, require_client_auth=client_ca is not None)


def channel_credentials(settings) -> grpc.ChannelCredentials | None:
    if not settings.tls_ca_file:
        return None
    mutual = bool(settings.tls_client_ca_file and settings.tls_cert_file)
    return grpc.ssl_channel_credentials(root_certificates=_read(settings.tls_ca_file),
                                        private_key=_read(settings.tls_key_file) if mutual else None,
                                        certificate_chain=_read(settings.tls_cert_file) if mutual else None)


def channel(addr: str, settings, aio: bool = False, options=()):
    """A channel to `addr`: TLS when the settings name a CA, else plaintext; idempotent calls
    are retried on UNAVAILABLE (services/client/channels.py)."""
    from services.client.channels import OPTIONS

    module = grpc.aio if aio else grpc
    options = OPTIONS + list(options)
    creds = channel_credentials(settings)
    if creds is None:
        return module.insecure_channel(addr, options=options)
    return module.secure_channel(addr, creds, options=options)


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def warn_if_plaintext(host: str, tls: bool) -> None:
    if not tls and not is_loopback(host):
        message = (f"LISTENING ON {host} WITHOUT TLS: seat tokens and session credentials cross the network "
                   "in clear. Set TLS_CERT_FILE and TLS_KEY_FILE (docs/security.md).")
        log.warning(message)
        print("WARNING: " + message, flush=True)
