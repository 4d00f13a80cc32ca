"""What the dice write into a log, and the verifier that recomputes it (docs/fairness.md).

Dice events (types): "dice_committed" {commitment, chain}, "client_seed" {seed, seat},
"roll" {pools: [{purpose, faces, nonces, results}], secret}, "dice_revealed" {seed}.
The verifier needs nothing but the log and the commitment. At any time it checks the
chain up to the log's head (every event's link and hash, private events of a chain-2
log through their commitments) and the commitment; once the seed is revealed it also
checks the seed against the commitment, every private body against its commitment,
that nonces run 0, 1, 2, ... with none skipped, and recomputes every die.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from shared import fairdice
from shared.canonical import canonical
from shared.eventlog import GENESIS, LoggedEvent, chain_hash, chained_body, is_private, is_public_form, seal_salt


def roll_body(pools: Sequence[dict], faces: list[list], nonces: list[list[int]], secret: bool) -> dict:
    """The body of a "roll" event for pools given as {"purpose", "faces"} dicts."""
    return {
        "pools": [
            {"purpose": p["purpose"], "faces": list(p["faces"]), "nonces": n, "results": f}
            for p, f, n in zip(pools, faces, nonces)
        ],
        "secret": secret,
    }


@dataclass
class Verdict:
    """`ok`: the whole log checked and sound, dice included (so never before the seed is
    revealed). `chain_ok`: nothing wrong found in what could be checked: the chain up to
    `head`, the commitment, and, once revealed, the seed, private bodies and dice."""

    ok: bool = True
    rolls_checked: int = 0
    events_checked: int = 0
    problems: list[str] = field(default_factory=list)
    chain_ok: bool = True
    revealed: bool = False
    head: str = GENESIS
    head_seq: int = 0
    chain_version: int = 1
    sealed_checked: int = 0    # private events whose hash was checked through their commitment
    sealed_opened: int = 0     # private bodies checked against their commitments
    unchecked: list[int] = field(default_factory=list)  # chain-1 events hidden from this reader

    def fail(self, problem: str) -> None:
        self.ok = False
        self.chain_ok = False
        self.problems.append(problem)

    def pending(self, problem: str) -> None:
        """Not wrong, but not checkable yet: the verdict cannot be OK."""
        self.ok = False
        self.problems.append(problem)


def verify(session_id: str, commitment: str, events: Iterable[LoggedEvent]) -> Verdict:
    """Check a log against the published commitment; every problem is listed."""
    v = Verdict()
    events = list(events)
    committed = [e for e in events if e.type == "dice_committed"]
    if committed:
        try:
            v.chain_version = int(json.loads(committed[0].body_json).get("chain", 1))
        except (ValueError, AttributeError, TypeError):
            v.fail(f"event {committed[0].seq}: the commitment event is not a JSON object with an integer chain")
    seed: bytes | None = None
    for e in events:
        if e.type == "dice_revealed":
            try:
                seed = bytes.fromhex(json.loads(e.body_json)["seed"])
            except (ValueError, KeyError, TypeError):
                v.fail(f"event {e.seq}: the revealed seed is not hex")
    if seed is not None and fairdice.commitment(seed) != commitment:
        v.fail("the revealed seed does not match the commitment")
        seed = None
    prev = GENESIS
    for expected_seq, e in enumerate(events, start=1):
        v.events_checked += 1
        if e.seq != expected_seq:
            v.fail(f"event {expected_seq}: found seq {e.seq} (an event was removed, added or reordered)")
        if e.prev_hash != prev:
            v.fail(f"event {e.seq}: does not follow the event before it (chain broken)")
        prev = e.hash
        _check_hash(v, session_id, e, seed)
    v.head, v.head_seq = prev, len(events)
    if not committed:
        v.fail("the log has no dice commitment")
    elif json.loads(committed[0].body_json).get("commitment") != commitment:
        v.fail("the commitment in the log is not the published commitment")
    if seed is None:
        if not any(e.type == "dice_revealed" for e in events):
            v.pending("the seed has not been revealed: rolls cannot be checked yet")
        return v
    v.revealed = True
    if v.unchecked:
        v.fail(f"events {v.unchecked} are hidden in a log whose seed is revealed")
    _check_dice(v, session_id, seed, events)
    return v


def _check_hash(v: Verdict, session_id: str, e: LoggedEvent, seed: bytes | None) -> None:
    try:
        body = json.loads(e.body_json)
    except ValueError:
        v.fail(f"event {e.seq}: its body is not JSON")
        return
    chained = e.body_json
    if v.chain_version >= 2 and is_public_form(e.type, body):
        v.sealed_checked += 1  # the public form: its hash covers exactly this text
        if seed is not None:
            v.fail(f"event {e.seq}: still sealed in a log whose seed is revealed (its body is not shown)")
    elif v.chain_version >= 2 and is_private(e.type, body):
        salt = e.salt
        if seed is not None:
            due = seal_salt(seed, session_id, e.seq)
            if salt and salt != due:
                v.fail(f"event {e.seq}: its salt is not the one the seed gives")
            salt = due
        if not salt:
            v.pending(f"event {e.seq}: a private event shown without the salt of its commitment")
            return
        chained = chained_body(e.type, e.body_json, salt)
        v.sealed_opened += 1
    elif v.chain_version < 2 and isinstance(body, dict) and (body == {"redacted": True} or _secret_hidden(e, body)):
        v.unchecked.append(e.seq)  # a chain-1 log hides the body its hash covers
        return
    if chain_hash(e.prev_hash, e.seq, e.type, chained) != e.hash:
        v.fail(f"event {e.seq}: its content does not match its hash (edited)")


def _secret_hidden(e: LoggedEvent, body: dict) -> bool:
    return e.type == "roll" and body.get("secret") is True and any(
        r == "?" for p in body.get("pools", []) for r in p.get("results", []))


def _check_dice(v: Verdict, session_id: str, seed: bytes, events: list[LoggedEvent]) -> None:
    digest, next_nonce, committed_yet = "", 0, False
    for e in events:
        body = e.body
        if e.type == "dice_committed":
            committed_yet = True
        elif e.type == "client_seed":
            digest = fairdice.fold_client_seed(digest, body["seed"])
        elif e.type == "roll":
            if not committed_yet:
                v.fail(f"event {e.seq}: a roll before the commitment")
            for pool in body["pools"]:
                faces = pool["faces"]
                for nonce, result in zip(pool["nonces"], pool["results"], strict=False):
                    if nonce != next_nonce:
                        v.fail(f"event {e.seq}: nonce {nonce} where {next_nonce} was due (a roll skipped or repeated)")
                    idx = fairdice.face_index(seed, session_id, nonce, digest, len(faces))
                    if canonical(faces[idx]) != canonical(result):  # faces are labels: 3 is not "3"
                        v.fail(f"event {e.seq}: die {nonce} for {pool['purpose']!r} shows {result!r}, "
                               f"the seed gives {faces[idx]!r}")
                    next_nonce = nonce + 1
                    v.rolls_checked += 1
                if len(pool["nonces"]) != len(pool["results"]):
                    v.fail(f"event {e.seq}: {pool['purpose']!r} has {len(pool['results'])} results "
                           f"for {len(pool['nonces'])} nonces")
