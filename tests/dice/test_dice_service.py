"""The dice service over real gRPC and Redis, and the command-line verifier."""
from __future__ import annotations

import json
import subprocess
import sys

import grpc
import pytest
import redis
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

from services.cli.main import main as cli
from services.core.store import log_key


@pytest.fixture
def dice(channel):
    return dice_pb2_grpc.DiceStub(channel)


def d6(n, purpose="test"):
    return dice_pb2.Pool(purpose=purpose, count=n, sides=6)


def test_commit_roll_reveal_verify(dice):
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    assert len(s.commitment) == 64 and s.token
    dice.AddClientSeed(dice_pb2.AddClientSeedRequest(session_id=s.session_id, client_seed="my luck"))
    r = dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token, pools=[
        d6(3, "attack"), dice_pb2.Pool(purpose="cast", count=2, faces=["wand", "ward", "blank"])]))
    assert [list(p.nonces) for p in r.results] == [[0, 1, 2], [3, 4]]
    assert all(f in "123456" for f in r.results[0].faces)
    assert set(r.results[1].faces) <= {"wand", "ward", "blank"}
    before = dice.Verify(dice_pb2.VerifyRequest(session_id=s.session_id))
    assert not before.ok and any("not been revealed" in p for p in before.problems)
    revealed = dice.Reveal(dice_pb2.RevealRequest(session_id=s.session_id, token=s.token))
    assert len(revealed.seed) == 64
    v = dice.Verify(dice_pb2.VerifyRequest(session_id=s.session_id))
    assert v.ok, list(v.problems)
    assert v.rolls_checked == 5
    log = dice.ExportLog(dice_pb2.ExportLogRequest(session_id=s.session_id))
    assert [e.type for e in log.events] == ["dice_committed", "client_seed", "roll", "dice_revealed"]
    assert json.loads(log.events[2].body_json)["pools"][0]["purpose"] == "attack"


def test_after_reveal_no_more_rolls(dice):
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    dice.Reveal(dice_pb2.RevealRequest(session_id=s.session_id, token=s.token))
    with pytest.raises(grpc.RpcError) as err:
        dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token, pools=[d6(1)]))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_a_roll_without_a_committed_session_is_refused(dice):
    with pytest.raises(grpc.RpcError) as err:
        dice.Roll(dice_pb2.RollRequest(session_id="never-committed", token="x", pools=[d6(1)]))
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_wrong_token_is_permission_denied(dice):
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    with pytest.raises(grpc.RpcError) as err:
        dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token="not-it", pools=[d6(1)]))
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED


@pytest.mark.parametrize("pool, code", [
    (dice_pb2.Pool(purpose="x", count=0, sides=6), grpc.StatusCode.INVALID_ARGUMENT),
    (dice_pb2.Pool(purpose="x", count=1, sides=1), grpc.StatusCode.INVALID_ARGUMENT),
    (dice_pb2.Pool(purpose="x", count=1), grpc.StatusCode.INVALID_ARGUMENT),
    (dice_pb2.Pool(purpose="x", count=5000, sides=6), grpc.StatusCode.RESOURCE_EXHAUSTED),
])
def test_bad_pools_are_refused_and_consume_nothing(dice, pool, code):
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    with pytest.raises(grpc.RpcError) as err:
        dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token, pools=[pool]))
    assert err.value.code() == code
    assert dice.GetSession(dice_pb2.GetSessionRequest(session_id=s.session_id)).next_nonce == 0


def test_a_match_session_draws_only_at_its_cursor_and_never_rolls(dice):
    s = dice.CreateSession(dice_pb2.CreateSessionRequest(owned_by_match=True))
    with pytest.raises(grpc.RpcError) as err:
        dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token, pools=[d6(1)]))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as err:
        dice.Draw(dice_pb2.DrawRequest(session_id=s.session_id, token=s.token, first_nonce=10**6, pools=[d6(1)]))
    assert err.value.code() == grpc.StatusCode.ABORTED
    ahead = dice.Draw(dice_pb2.DrawRequest(session_id=s.session_id, token=s.token, first_nonce=4, pools=[d6(2)]))
    assert list(ahead.results[0].nonces) == [4, 5]  # a match drawing its second chance step before committing
    a = dice.Draw(dice_pb2.DrawRequest(session_id=s.session_id, token=s.token, first_nonce=0, pools=[d6(4)]))
    b = dice.Draw(dice_pb2.DrawRequest(session_id=s.session_id, token=s.token, first_nonce=0, pools=[d6(4)]))
    assert list(a.results[0].faces) == list(b.results[0].faces)  # not recorded: the match records it
    with pytest.raises(grpc.RpcError) as err:
        dice.Reveal(dice_pb2.RevealRequest(session_id=s.session_id, token=s.token))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_client_seed_is_length_checked(dice):
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    with pytest.raises(grpc.RpcError) as err:
        dice.AddClientSeed(dice_pb2.AddClientSeedRequest(session_id=s.session_id, client_seed=""))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def _rolled_and_revealed(dice):
    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    for _ in range(3):
        dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token, pools=[d6(2)]))
    dice.Reveal(dice_pb2.RevealRequest(session_id=s.session_id, token=s.token))
    return s


def _tamper(redis_url, session_id, seq, field, value):
    r = redis.Redis.from_url(redis_url)
    key = log_key(session_id)
    entries = r.xrange(key)
    r.delete(key)
    for entry_id, data in entries:
        if entry_id == f"0-{seq}".encode():
            if value is None:
                continue
            data[field.encode()] = value
        r.xadd(key, data, id=entry_id)


def test_verify_catches_a_tampered_roll_in_redis(dice, redis_url, platform):
    s = _rolled_and_revealed(dice)
    body = json.loads(redis.Redis.from_url(redis_url).xrange(log_key(s.session_id))[1][1][b"body"])
    body["pools"][0]["results"][0] = body["pools"][0]["results"][0] % 6 + 1
    _tamper(redis_url, s.session_id, 2, "body", json.dumps(body, sort_keys=True, separators=(",", ":")))
    v = dice.Verify(dice_pb2.VerifyRequest(session_id=s.session_id))
    assert not v.ok and any("edited" in p for p in v.problems)
    assert cli(["--addr", platform.address, "verify", s.session_id]) == 1


def test_verify_catches_a_deleted_event_in_redis(dice, redis_url, platform):
    s = _rolled_and_revealed(dice)
    _tamper(redis_url, s.session_id, 3, "body", None)
    assert not dice.Verify(dice_pb2.VerifyRequest(session_id=s.session_id)).ok
    assert cli(["--addr", platform.address, "verify", s.session_id]) == 1


def test_command_line_round_trip_and_tampered_file(platform, tmp_path):
    """Commit, roll, reveal and verify from the command line; then edit the exported file."""
    run = [sys.executable, "-m", "services.cli.main", "--addr", platform.address]
    made = json.loads(subprocess.run(run + ["dice", "new"], capture_output=True, text=True, check=True).stdout)
    sid, token = made["session_id"], made["token"]
    rolled = subprocess.run(run + ["dice", "roll", sid, token, "3d6", "2d8", "x[wand,ward]"],
                            capture_output=True, text=True, check=True).stdout
    assert "3d6:" in rolled and "x[wand,ward]:" in rolled
    subprocess.run(run + ["dice", "reveal", sid, token], capture_output=True, text=True, check=True)
    ok = subprocess.run(run + ["verify", sid], capture_output=True, text=True)
    assert ok.returncode == 0 and "OK:" in ok.stdout
    log_file = tmp_path / "log.json"
    subprocess.run(run + ["dice", "export", sid, "-o", str(log_file)], check=True)
    assert subprocess.run(run + ["verify", "--file", str(log_file)], capture_output=True).returncode == 0
    data = json.loads(log_file.read_text())
    data["events"][1], data["events"][2] = data["events"][2], data["events"][1]
    log_file.write_text(json.dumps(data))
    bad = subprocess.run(run + ["verify", "--file", str(log_file)], capture_output=True, text=True)
    assert bad.returncode == 1 and "TAMPERED" in bad.stdout
    wrong = subprocess.run(run + ["verify", sid, "--commitment", "0" * 64], capture_output=True, text=True)
    assert wrong.returncode == 1 and "not the published commitment" in wrong.stdout


def test_a_log_larger_than_a_page_is_exported_page_after_page_and_verifies(dice, platform, monkeypatch):
    """A long match's log outgrows a gRPC message (a 250-day Wizards match: 5.5 MB): ExportLog
    answers in pages, each with where the next one starts, and the pages join into the log."""
    from services.client.reading import whole_dice_log
    from services.dice import handlers

    s = dice.CreateSession(dice_pb2.CreateSessionRequest())
    for i in range(6):
        dice.Roll(dice_pb2.RollRequest(session_id=s.session_id, token=s.token, pools=[d6(2, f"roll {i}")]))
    dice.Reveal(dice_pb2.RevealRequest(session_id=s.session_id, token=s.token))
    whole = dice.ExportLog(dice_pb2.ExportLogRequest(session_id=s.session_id))
    assert whole.next_seq == 0 and len(whole.events) >= 8  # commitment, six rolls, the reveal: one page

    monkeypatch.setattr(handlers, "EXPORT_SLICE", 3)  # the log read three events at a time: one page still
    assert list(dice.ExportLog(dice_pb2.ExportLogRequest(session_id=s.session_id)).events) == list(whole.events)
    monkeypatch.setattr(handlers, "EXPORT_PAGE_BYTES", 1)  # every page holds one event
    first = dice.ExportLog(dice_pb2.ExportLogRequest(session_id=s.session_id))
    assert [e.seq for e in first.events] == [whole.events[0].seq] and first.next_seq == whole.events[1].seq
    commitment, paged = whole_dice_log(dice, s.session_id)
    assert commitment == whole.commitment and list(paged) == list(whole.events)
    past = dice.ExportLog(dice_pb2.ExportLogRequest(session_id=s.session_id, from_seq=whole.events[-1].seq + 1))
    assert list(past.events) == [] and past.next_seq == 0
    assert cli(["--addr", platform.address, "verify", s.session_id]) == 0  # the verifier reads every page
