"""The test vectors of docs/fairness.md, computed by the platform's own code: written to
docs/fairness-vectors.json by `python -m docs.generate` (the tests fail while the file is
stale, and check every vector again, and with a verifier of their own that follows
docs/fairness.md alone)."""
from __future__ import annotations

import hashlib
import hmac
import json

from shared import dicelog, fairdice
from shared.canonical import canonical
from shared.eventlog import GENESIS, Sealer, chained_body, is_private, link

PATH = "docs/fairness-vectors.json"
SEED = bytes(range(32))
SEED_B = hashlib.sha256(b"archmage fairness vectors").digest()
HUGE = 2**31 + 1  # about half of all words are rejected: eight in a row happen once in 256 dice


def _blocks(seed: bytes, session: str, nonce: int, digest: str, faces: int) -> int:
    """How many HMAC blocks die `nonce` reads before a word is taken (1: the first block)."""
    limit = (1 << 32) - ((1 << 32) % faces)
    message = f"{session}|{nonce}|{digest}".encode()
    block = 0
    while True:
        m = message if block == 0 else message + b"|" + str(block).encode()
        mac = hmac.new(seed, m, hashlib.sha256).digest()
        if any(int.from_bytes(mac[i:i + 4], "big") < limit for i in range(0, 32, 4)):
            return block + 1
        block += 1


def _die(seed: bytes, session: str, nonce: int, digest: str, faces: int) -> dict:
    mac = hmac.new(seed, f"{session}|{nonce}|{digest}".encode(), hashlib.sha256).hexdigest()
    return {"seed": seed.hex(), "session_id": session, "nonce": nonce, "client_digest": digest, "faces": faces,
            "message": f"{session}|{nonce}|{digest}", "hmac_block0": mac,
            "blocks_read": _blocks(seed, session, nonce, digest, faces),
            "index": fairdice.face_index(seed, session, nonce, digest, faces)}


def _all_rejected() -> list[dict]:
    """The first nonces of SEED_B whose first block, then whose first two blocks, reject every word."""
    found: dict[int, dict] = {}
    nonce = 0
    while len(found) < 2:
        blocks = _blocks(SEED_B, "vectors", nonce, "", HUGE)
        if blocks >= 2 and blocks - 1 not in found and blocks <= 3:
            found[blocks - 1] = _die(SEED_B, "vectors", nonce, "", HUGE)
        nonce += 1
    return [found[1], found[2]]


def _digests() -> list[dict]:
    out, digest = [], ""
    for client_seed in ("alice", "bob", "é 🎲 x|y"):
        new = fairdice.fold_client_seed(digest, client_seed)
        out.append({"digest_before": digest, "client_seed": client_seed, "digest_after": new})
        digest = new
    return out


def _rolls() -> list[dict]:
    pools = [("attack", 3, list(range(1, 7))), ("wand", 2, ["wand", "ward", "blank"]), ("d8", 1, list(range(1, 9)))]
    out = []
    for session, client_seeds, first in (("kat", [], 0), ("kat", ["alice"], 5), ("m-7_x", ["alice", "bob"], 40)):
        digest = ""
        for c in client_seeds:
            digest = fairdice.fold_client_seed(digest, c)
        faces, nonces = fairdice.roll_pools(SEED, session, first, digest, [(n, f) for _, n, f in pools])
        out.append({"seed": SEED.hex(), "session_id": session, "client_seeds": client_seeds, "client_digest": digest,
                    "first_nonce": first,
                    "pools": [{"purpose": p, "count": n, "faces": f} for p, n, f in pools],
                    "results": faces, "nonces": nonces})
    return out


CANONICAL_VALUES = [
    {"b": 1, "a": [True, False, None], "c": {"z": "", "y": -7}},
    {"text": "é\u00e9 🎲 \u2028 \t\n\r\b\f \u0001 \u001f \u007f \"q\" \\ /"},
    {"\U0001F600": 1, "\uFFFF": 2, "a": 3, "B": 4},
    [0, 9007199254740991, -9007199254740991],
    [1.0, 0.5, -0.0, 1e21, 1e20, 1e-6, 1e-7, 123.456, 2.0 ** 60, 5e-324],
]


def _chain() -> dict:
    """A small match log of chain version 2: a public roll, a client seed, a private action and
    a secret roll, then the end and the seed."""
    session, seed = "vector-match", SEED_B
    commitment = fairdice.commitment(seed)
    sealer = Sealer(seed, session)
    d6 = list(range(1, 7))
    events: list[tuple[str, dict]] = [("dice_committed", {"chain": 2, "commitment": commitment}),
                                      ("match_created", {"game": "race", "config": {"seats": 2}})]
    cursor, digest = 0, ""
    faces, nonces = fairdice.roll_pools(seed, session, cursor, digest, [(2, d6)])
    events.append(("roll", dicelog.roll_body([{"purpose": "start", "faces": d6}], faces, nonces, secret=False)))
    cursor = nonces[-1][-1] + 1
    events.append(("client_seed", {"seat": 1, "seed": "bob's own"}))
    digest = fairdice.fold_client_seed(digest, "bob's own")
    events.append(("action", {"seat": 0, "action": {"kind": "hide", "number": 3}, "action_id": "a1",
                              "visible_to": [0]}))
    events.append(("hid", {"type": "hid", "seat": 0, "number": 3, "visible_to": [0]}))
    faces, nonces = fairdice.roll_pools(seed, session, cursor, digest, [(2, d6), (1, ["gold", "lead"])])
    events.append(("roll", dicelog.roll_body([{"purpose": "secret start", "faces": d6},
                                              {"purpose": "coin", "faces": ["gold", "lead"]}],
                                             faces, nonces, secret=True)))
    events.append(("match_finished", {"outcome": {"winner": 0}}))
    events.append(("dice_revealed", {"seed": seed.hex()}))
    linked = link(events, 0, GENESIS, sealer)
    shown = []
    for e in linked:
        row = {"seq": e.seq, "type": e.type, "body": e.body_json, "prev": e.prev_hash, "hash": e.hash}
        if is_private(e.type, json.loads(e.body_json)):
            salt = sealer.salt(e.seq)
            row.update(salt=salt, chained_body=chained_body(e.type, e.body_json, salt))
        shown.append(row)
    verdict = dicelog.verify(session, commitment, linked)
    assert verdict.ok, verdict.problems
    return {"session_id": session, "seed": seed.hex(), "commitment": commitment, "events": shown,
            "head": linked[-1].hash, "rolls_checked": verdict.rolls_checked}


def build() -> dict:
    return {
        "about": "Test vectors of docs/fairness.md. Bytes are lowercase hex; texts are Unicode strings "
                 "(UTF-8 when hashed).",
        "commitments": [{"seed": s.hex(), "commitment": fairdice.commitment(s)} for s in (SEED, SEED_B, bytes(32))],
        "client_digests": _digests(),
        "dice": [_die(SEED, "kat", n, d, f) for n in range(4) for d in ("", fairdice.fold_client_seed("", "alice"))
                 for f in (2, 6, 1000)],
        "all_rejected": _all_rejected(),
        "rolls": _rolls(),
        "canonical": [{"value": v, "text": canonical(v)} for v in CANONICAL_VALUES],
        "chain": _chain(),
    }


def render() -> str:
    return json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
