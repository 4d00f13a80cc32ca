"""TLS from configuration: a throwaway CA (made here with `cryptography`), a match played
over TLS, plaintext refused, and mutual TLS between services."""
from __future__ import annotations

import datetime
import ipaddress
import json
import uuid
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc
from archmage.matchmaking.v1 import matchmaking_pb2 as mm
from archmage.matchmaking.v1 import matchmaking_pb2_grpc
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from services.client.session import signed_in
from services.rpc.tls import warn_if_plaintext
from tests.support.server import ServerThread


@dataclass
class Pki:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def _key():
    return ec.generate_private_key(ec.SECP256R1())


def _write(path: Path, key, cert) -> tuple[Path, Path]:
    path.with_suffix(".crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    path.with_suffix(".key").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                           serialization.PrivateFormat.PKCS8,
                                                           serialization.NoEncryption()))
    return path.with_suffix(".crt"), path.with_suffix(".key")


def _cert(subject: str, key, issuer_key, issuer_name, ca: bool, san=None):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
               .issuer_name(issuer_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=1)).not_valid_after(now + datetime.timedelta(hours=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if san:
        builder = builder.add_extension(x509.SubjectAlternativeName(san), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Pki:
    d = tmp_path_factory.mktemp("pki")
    ca_key = _key()
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "archmage test CA")])
    ca_cert = _cert("archmage test CA", ca_key, ca_key, ca_name, ca=True)
    ca, _ = _write(d / "ca", ca_key, ca_cert)
    server_key = _key()
    server = _cert("archmage", server_key, ca_key, ca_name, ca=False,
                   san=[x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    server_cert, server_key_path = _write(d / "server", server_key, server)
    client_key = _key()
    client = _cert("archmage service", client_key, ca_key, ca_name, ca=False)
    client_cert, client_key_path = _write(d / "client", client_key, client)
    return Pki(ca, server_cert, server_key_path, client_cert, client_key_path)


def tls_channel(address: str, pki: Pki, client_cert: bool = False):
    creds = grpc.ssl_channel_credentials(
        root_certificates=pki.ca.read_bytes(),
        private_key=pki.client_key.read_bytes() if client_cert else None,
        certificate_chain=pki.client_cert.read_bytes() if client_cert else None)
    return grpc.secure_channel(address, creds)


def play_a_race(channel) -> str:
    ch = signed_in(channel)
    made = matchmaking_pb2_grpc.MatchmakingStub(ch).CreateMatch(mm.CreateMatchRequest(
        game="race", seats=[mm.SeatSpec(kind="human")]))
    board, combat = board_pb2_grpc.BoardStub(ch), combat_pb2_grpc.CombatStub(ch)
    meta = (("x-seat-token", made.seat_tokens[0].token),)
    while board.GetMatch(board_pb2.GetMatchRequest(match_id=made.match_id)).status != "finished":
        combat.Resolve(common_pb2.ActRequest(match_id=made.match_id, action_id=str(uuid.uuid4()),
                                             action_json=json.dumps({"kind": "roll"})), metadata=meta)
    assert dice_pb2_grpc.DiceStub(ch).Verify(dice_pb2.VerifyRequest(session_id=made.match_id)).ok
    return made.match_id


def test_a_match_is_played_over_tls_and_plaintext_is_refused(redis_url, pki):
    server = ServerThread(redis_url, tls_cert_file=str(pki.server_cert), tls_key_file=str(pki.server_key))
    server.start()
    try:
        with tls_channel(server.address, pki) as ch:
            play_a_race(ch)
        with grpc.insecure_channel(server.address) as plain:
            with pytest.raises(grpc.RpcError) as err:
                dice_pb2_grpc.DiceStub(plain).CreateSession(dice_pb2.CreateSessionRequest(), timeout=5)
            assert err.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        server.stop()


def test_mutual_tls_admits_only_clients_with_a_certificate_of_the_ca(redis_url, pki):
    server = ServerThread(redis_url, tls_cert_file=str(pki.server_cert), tls_key_file=str(pki.server_key),
                          tls_client_ca_file=str(pki.ca))
    server.start()
    try:
        with tls_channel(server.address, pki, client_cert=True) as ch:
            play_a_race(ch)
        with tls_channel(server.address, pki) as no_cert:
            with pytest.raises(grpc.RpcError) as err:
                dice_pb2_grpc.DiceStub(no_cert).CreateSession(dice_pb2.CreateSessionRequest(), timeout=5)
            assert err.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        server.stop()


def test_a_plaintext_bind_off_loopback_warns_loudly(capsys):
    warn_if_plaintext("0.0.0.0", tls=False)
    assert "WITHOUT TLS" in capsys.readouterr().out
    for quiet in (("127.0.0.1", False), ("::1", False), ("localhost", False), ("0.0.0.0", True)):
        warn_if_plaintext(*quiet)
        assert capsys.readouterr().out == ""


def test_the_terminal_the_ai_seats_and_the_web_service_reach_a_mutual_tls_platform(redis_url, pki):
    """Every client the platform runs takes TLS from the same settings (services/rpc/tls.py): the
    `archmage` command, the AI's turns (the channel a worker opens, tls.channel) and the web
    service, each presenting the client certificate a mutual-TLS platform asks for."""
    from starlette.testclient import TestClient

    from services.client import Client
    from services.core.config import Settings
    from services.rpc import tls
    from services.web.app import build_app
    from services.web.settings import WebSettings
    from tests.support.terminal import Terminal, ai_server

    env = {"TLS_CA_FILE": str(pki.ca), "TLS_CERT_FILE": str(pki.client_cert), "TLS_KEY_FILE": str(pki.client_key),
           "TLS_CLIENT_CA_FILE": str(pki.ca)}
    server = ai_server(redis_url, tls_cert_file=str(pki.server_cert), tls_key_file=str(pki.server_key),
                       tls_client_ca_file=str(pki.ca))
    terminal = None
    try:
        server.turns.client = Client(tls.channel(server.address, Settings.from_env(env)), sign_in=False)
        terminal = Terminal(["play", "race", "--ai", "1"], server.address, env=env)
        terminal.expect(r"match \S+ created")
        terminal.play(timeout=60)
        terminal.expect(r"verify it: archmage verify \S+")
        assert terminal.close() == 0, terminal.output()

        web = TestClient(build_app(WebSettings.from_env({**env, "ARCHMAGE_ADDR": server.address,
                                                         "WEB_SECRET": "s" * 32})))
        assert web.post("/api/guest").status_code < 300
        made = web.post("/api/matches", json={"game": "race", "ai": 1})
        assert made.status_code == 201, made.text
        no_cert = TestClient(build_app(WebSettings(platform_addr=server.address, secret=b"s" * 32,
                                                   tls_ca_file=str(pki.ca), call_timeout_s=3)))
        refused = no_cert.post("/api/guest")
        assert refused.status_code == 503 and "does not answer" in refused.text, refused.text  # no certificate
    finally:
        if terminal is not None:
            terminal.kill()
        server.stop()
