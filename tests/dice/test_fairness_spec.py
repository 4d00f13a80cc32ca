"""docs/fairness.md as a contract: its vectors hold against the platform's code, and a second
verifier written from the document alone (below: no import of the platform's dice, log or
canonical code) checks the vectors and real matches' exported logs, finished and running."""
from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from pathlib import Path

import grpc
import pytest
from archmage.board.v1 import board_pb2, board_pb2_grpc
from archmage.combat.v1 import combat_pb2_grpc
from archmage.common.v1 import common_pb2
from archmage.dice.v1 import dice_pb2, dice_pb2_grpc

from tests.trust.support import human_match

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "docs" / "fairness-vectors.json").read_text("utf-8"))


# --- the verifier of docs/fairness.md, written from the document ------------------------------
def canon(value) -> str:
    """Section 6, for the values the platform writes into a log (no floats)."""
    def ordered(v):
        if isinstance(v, dict):
            return {k: ordered(v[k]) for k in sorted(v, key=lambda k: k.encode("utf-16-be"))}
        return [ordered(x) for x in v] if isinstance(v, list) else v
    return json.dumps(ordered(value), separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def commitment_of(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def fold(digest: str, client_seed: str) -> str:
    return hashlib.sha256(digest.encode() + b"\x00" + client_seed.encode()).hexdigest()


def die_index(seed: bytes, session: str, nonce: int, digest: str, faces: int) -> tuple[int, int]:
    """Section 4: (index, blocks read)."""
    message = f"{session}|{nonce}|{digest}".encode()
    limit = 2**32 - (2**32 % faces)
    b = 0
    while True:
        mac = hmac.new(seed, message if b == 0 else message + b"|" + str(b).encode(), hashlib.sha256).digest()
        for i in range(8):
            w = int.from_bytes(mac[4 * i:4 * i + 4], "big")
            if w < limit:
                return w % faces, b + 1
        b += 1


def chained(type_: str, body_text: str, salt_hex: str) -> str:
    """Section 7: the chained body of a sealed event shown with its salt."""
    sealed = hashlib.sha256(bytes.fromhex(salt_hex) + body_text.encode()).hexdigest()
    body = json.loads(body_text)
    if "visible_to" in body:
        public = {"redacted": True, "sealed": sealed}
    else:
        public = json.loads(body_text)
        for pool in public["pools"]:
            pool["results"] = ["?"] * len(pool["results"])
        public["sealed"] = sealed
    return canon(public)


def private(type_: str, body: dict) -> bool:
    if "sealed" in body:
        return False  # a public form
    return "visible_to" in body or (type_ == "roll" and body.get("secret") is True)


def audit(session: str, commitment: str, events: list[dict]) -> dict:
    """Sections 7-9 over events {seq, type, body, prev, hash, salt?}: what was checked; raises on tampering."""
    first = json.loads(events[0]["body"])
    assert events[0]["type"] == "dice_committed" and first["commitment"] == commitment, "not the commitment"
    version = first.get("chain", 1)
    seed = None
    if events[-1]["type"] == "dice_revealed":
        seed = bytes.fromhex(json.loads(events[-1]["body"])["seed"])
        assert commitment_of(seed) == commitment, "the seed does not match the commitment"
    prev, hidden = "0" * 64, 0
    for n, e in enumerate(events, start=1):
        assert e["seq"] == n and e["prev"] == prev, f"event {n}: chain broken"
        body = json.loads(e["body"])
        text = e["body"]
        if version >= 2 and private(e["type"], body):
            salt = e.get("salt", "")
            if seed is not None:
                due = hmac.new(seed, b"seal\x00" + session.encode() + b"\x00" + str(n).encode(),
                               hashlib.sha256).hexdigest()
                assert salt == due, f"event {n}: wrong salt"
            text = chained(e["type"], e["body"], salt)
        elif "sealed" in body:
            assert seed is None, f"event {n}: still sealed after the reveal"
            hidden += 1
        digest = hashlib.sha256(f"{e['prev']}\n{n}\n{e['type']}\n{text}".encode()).hexdigest()
        assert digest == e["hash"], f"event {n}: edited"
        prev = e["hash"]
    done = {"head": prev, "hidden": hidden, "dice": 0, "revealed": seed is not None}
    if seed is None:
        return done  # the dice wait for the seed
    digest, nonce = "", 0
    for e in events:
        body = json.loads(e["body"])
        if e["type"] == "client_seed":
            digest = fold(digest, body["seed"])
        elif e["type"] == "roll":
            for pool in body["pools"]:
                assert len(pool["nonces"]) == len(pool["results"])
                for got_nonce, result in zip(pool["nonces"], pool["results"]):
                    assert got_nonce == nonce, f"nonce {got_nonce} where {nonce} was due"
                    index, _ = die_index(seed, session, nonce, digest, len(pool["faces"]))
                    assert canon(pool["faces"][index]) == canon(result), f"die {nonce} is not what the seed gives"
                    nonce += 1
                    done["dice"] += 1
    return done


# --- the vectors, by the document's verifier and by the platform's code -------------------------
def test_the_vectors_hold_by_the_document_alone():
    for c in VECTORS["commitments"]:
        assert commitment_of(bytes.fromhex(c["seed"])) == c["commitment"]
    for d in VECTORS["client_digests"]:
        assert fold(d["digest_before"], d["client_seed"]) == d["digest_after"]
    for d in VECTORS["dice"] + VECTORS["all_rejected"]:
        seed = bytes.fromhex(d["seed"])
        assert d["message"] == f"{d['session_id']}|{d['nonce']}|{d['client_digest']}"
        assert hmac.new(seed, d["message"].encode(), hashlib.sha256).hexdigest() == d["hmac_block0"]
        assert die_index(seed, d["session_id"], d["nonce"], d["client_digest"], d["faces"]) == (d["index"],
                                                                                               d["blocks_read"])
    assert [d["blocks_read"] for d in VECTORS["all_rejected"]] == [2, 3]
    for r in VECTORS["rolls"]:
        digest = ""
        for c in r["client_seeds"]:
            digest = fold(digest, c)
        assert digest == r["client_digest"]
        nonce = r["first_nonce"]
        for pool, results, nonces in zip(r["pools"], r["results"], r["nonces"]):
            assert nonces == list(range(nonce, nonce + pool["count"]))
            for n, result in zip(nonces, results):
                assert pool["faces"][die_index(bytes.fromhex(r["seed"]), r["session_id"], n, digest,
                                               len(pool["faces"]))[0]] == result
            nonce += pool["count"]
    for c in VECTORS["canonical"]:
        if not any(isinstance(x, float) for x in (c["value"] if isinstance(c["value"], list) else [])):
            assert canon(c["value"]) == c["text"]
    chain = VECTORS["chain"]
    done = audit(chain["session_id"], chain["commitment"], chain["events"])
    assert done["head"] == chain["head"] and done["dice"] == chain["rolls_checked"] and done["revealed"]
    for e in chain["events"]:
        if "salt" in e:
            assert chained(e["type"], e["body"], e["salt"]) == e["chained_body"]


def test_the_vectors_hold_by_the_platforms_code():
    from shared import dicelog, fairdice
    from shared.canonical import canonical
    from shared.eventlog import LoggedEvent, chained_body

    for c in VECTORS["commitments"]:
        assert fairdice.commitment(bytes.fromhex(c["seed"])) == c["commitment"]
    for d in VECTORS["client_digests"]:
        assert fairdice.fold_client_seed(d["digest_before"], d["client_seed"]) == d["digest_after"]
    for d in VECTORS["dice"] + VECTORS["all_rejected"]:
        assert fairdice.face_index(bytes.fromhex(d["seed"]), d["session_id"], d["nonce"], d["client_digest"],
                                   d["faces"]) == d["index"]
    for r in VECTORS["rolls"]:
        faces, nonces = fairdice.roll_pools(bytes.fromhex(r["seed"]), r["session_id"], r["first_nonce"],
                                            r["client_digest"], [(p["count"], p["faces"]) for p in r["pools"]])
        assert (faces, nonces) == (r["results"], r["nonces"])
    for c in VECTORS["canonical"]:
        assert canonical(c["value"]) == c["text"]
    chain = VECTORS["chain"]
    events = [LoggedEvent.from_dict(e) for e in chain["events"]]
    verdict = dicelog.verify(chain["session_id"], chain["commitment"], events)
    assert verdict.ok and verdict.head == chain["head"] and verdict.sealed_opened == 3
    for e in chain["events"]:
        if "salt" in e:
            assert chained_body(e["type"], e["body"], e["salt"]) == e["chained_body"]


def test_the_document_names_what_the_vectors_hold():
    text = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text("utf-8")
    for key in VECTORS:
        if key != "about":
            assert f"`{key}`" in text


# --- real matches, exported and checked by the document's verifier ------------------------------
def exported(dice, match_id, meta=()) -> tuple[str, list[dict]]:
    log = dice.ExportLog(dice_pb2.ExportLogRequest(session_id=match_id), metadata=meta)
    return log.commitment, [{"seq": e.seq, "type": e.type, "body": e.body_json, "prev": e.prev_hash,
                             "hash": e.hash, **({"salt": e.salt} if e.salt else {})} for e in log.events]


def act(board, combat, match_id, meta, action):
    request = common_pb2.ActRequest(match_id=match_id, action_id=str(uuid.uuid4()), action_json=json.dumps(action))
    (combat.Resolve if action["kind"] == "roll" else board.Move)(request, metadata=meta)


@pytest.fixture
def stubs(raw_channel):
    return (board_pb2_grpc.BoardStub(raw_channel), combat_pb2_grpc.CombatStub(raw_channel),
            dice_pb2_grpc.DiceStub(raw_channel))


def test_a_real_match_verifies_by_the_document_while_it_runs_and_after_its_end(stubs, raw_channel):
    """A match with client seeds, a secret roll and private events: every reader (spectator, each seat)
    checks the chain to its head during play, the dice after the end; the session id is the match id."""
    board, combat, dice = stubs
    match_id, metas = human_match(raw_channel, "race", 2, variant="secret-start")
    created = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id))
    for seat, meta in enumerate(metas):
        dice.AddClientSeed(dice_pb2.AddClientSeedRequest(session_id=match_id, client_seed=f"seat {seat} ✓"),
                           metadata=meta)
    act(board, combat, match_id, metas[0], {"kind": "hide", "number": 3})
    act(board, combat, match_id, metas[1], {"kind": "roll"})
    heads = set()
    for meta in ((), metas[0], metas[1]):
        commitment, events = exported(dice, match_id, meta)
        assert commitment == created.dice_commitment
        done = audit(match_id, commitment, events)
        assert not done["revealed"] and done["dice"] == 0
        heads.add(done["head"])
        # the secret start roll; and for all but seat 0 its hidden number
        assert done["hidden"] == (1 if meta == metas[0] else 2)
    assert len(heads) == 1  # every reader checks the same chain
    session = dice.GetSession(dice_pb2.GetSessionRequest(session_id=match_id))
    assert session.commitment == created.dice_commitment and not session.revealed and not session.seed
    for _ in range(200):
        view = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id))
        if view.status == "finished":
            break
        act(board, combat, match_id, metas[view.to_act], {"kind": "roll"})
    commitment, events = exported(dice, match_id)
    done = audit(match_id, commitment, events)
    assert done["revealed"] and done["dice"] >= 2 and done["hidden"] == 0
    assert events[-1]["type"] == "dice_revealed" and heads.pop() in {e["hash"] for e in events}
    assert sum(1 for e in events if "salt" in e) == 2  # the secret roll and the hidden number, opened
    session = dice.GetSession(dice_pb2.GetSessionRequest(session_id=match_id))
    assert session.revealed and session.seed == json.loads(events[-1]["body"])["seed"]


def test_the_document_verifier_catches_an_edited_private_body(stubs, raw_channel):
    board, combat, dice = stubs
    match_id, metas = human_match(raw_channel, "race", 2, variant="secret-start")
    act(board, combat, match_id, metas[0], {"kind": "hide", "number": 3})
    commitment, events = exported(dice, match_id, metas[0])
    mine = next(e for e in events if e["type"] == "hid")
    assert "salt" in mine and json.loads(mine["body"])["number"] == 3
    audit(match_id, commitment, events)
    mine["body"] = mine["body"].replace('"number":3', '"number":4')
    with pytest.raises(AssertionError, match="edited"):
        audit(match_id, commitment, events)


def test_a_log_of_chain_version_1_still_verifies_once_ended(platform):
    """A match logged before private events were sealed: its whole log, shown after the end, verifies."""
    from shared import dicelog, fairdice
    from shared.eventlog import GENESIS, link

    seed = bytes(range(32))
    body = [("dice_committed", {"commitment": fairdice.commitment(seed)}),
            ("action", {"seat": 0, "action": {"kind": "hide", "number": 2}, "visible_to": [0]})]
    faces, nonces = fairdice.roll_pools(seed, "old", 0, "", [(2, list(range(1, 7)))])
    body.append(("roll", dicelog.roll_body([{"purpose": "secret start", "faces": list(range(1, 7))}], faces,
                                           nonces, secret=True)))
    body.append(("dice_revealed", {"seed": seed.hex()}))
    events = link(body, 0, GENESIS)  # version 1: no sealer
    verdict = dicelog.verify("old", fairdice.commitment(seed), events)
    assert verdict.ok and verdict.chain_version == 1 and verdict.rolls_checked == 2
    done = audit("old", fairdice.commitment(seed), [e.to_dict() for e in events])
    assert done["dice"] == 2
    from services.core.visibility import redact

    running = [redact(e, None, False) for e in events[:-1]]
    live = dicelog.verify("old", fairdice.commitment(seed), running)
    assert live.chain_ok and not live.ok and live.unchecked == [2, 3]


def test_dice_verify_of_a_running_match_checks_its_chain_to_the_head(stubs, raw_channel):
    board, combat, dice = stubs
    match_id, metas = human_match(raw_channel, "race", 2, variant="secret-start")
    act(board, combat, match_id, metas[0], {"kind": "hide", "number": 1})
    v = dice.Verify(dice_pb2.VerifyRequest(session_id=match_id))
    last = board.GetMatch(board_pb2.GetMatchRequest(match_id=match_id)).last_seq
    assert v.chain_ok and not v.revealed and not v.ok and v.head_seq == last and v.chain_version == 2
    assert any("not been revealed" in p for p in v.problems)
    with pytest.raises(grpc.RpcError) as err:
        dice.Verify(dice_pb2.VerifyRequest(session_id="no-such-match"))
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
