"""What the dice write into a log, and the verifier that recomputes it.

Dice events (types): "dice_committed" {commitment}, "client_seed" {seed},
"roll" {pools: [{purpose, faces, nonces, results}], secret}, "dice_revealed" {seed}.
The verifier needs nothing but the log and the commitment: it checks the chain,
that the revealed seed matches the commitment, that nonces run 0, 1, 2, ... with
none skipped, and recomputes every die.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from shared import fairdice
from shared.eventlog import GENESIS, LoggedEvent, chain_hash


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
    ok: bool = True
    rolls_checked: int = 0
    events_checked: int = 0
    problems: list[str] = field(default_factory=list)

    def fail(self, problem: str) -> None:
        self.ok = False
        self.problems.append(problem)


def verify(session_id: str, commitment: str, events: Iterable[LoggedEvent]) -> Verdict:
    """Check a whole log against the published commitment; every problem is listed."""
    v = Verdict()
    events = list(events)
    prev = GENESIS
    seed: bytes | None = None
    for expected_seq, e in enumerate(events, start=1):
        v.events_checked += 1
        if e.seq != expected_seq:
            v.fail(f"event {expected_seq}: found seq {e.seq} (an event was removed, added or reordered)")
        if e.prev_hash != prev:
            v.fail(f"event {e.seq}: does not follow the event before it (chain broken)")
        if chain_hash(e.prev_hash, e.seq, e.type, e.body_json) != e.hash:
            v.fail(f"event {e.seq}: its content does not match its hash (edited)")
        prev = e.hash
        if e.type == "dice_revealed":
            seed = bytes.fromhex(e.body["seed"])
    committed = [e for e in events if e.type == "dice_committed"]
    if not committed:
        v.fail("the log has no dice commitment")
    elif committed[0].body.get("commitment") != commitment:
        v.fail("the commitment in the log is not the published commitment")
    if seed is None:
        v.fail("the seed has not been revealed: rolls cannot be checked yet")
        return v
    if fairdice.commitment(seed) != commitment:
        v.fail("the revealed seed does not match the commitment")
        return v
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
                    if faces[idx] != result:
                        v.fail(f"event {e.seq}: die {nonce} for {pool['purpose']!r} shows {result!r}, "
                               f"the seed gives {faces[idx]!r}")
                    next_nonce = nonce + 1
                    v.rolls_checked += 1
                if len(pool["nonces"]) != len(pool["results"]):
                    v.fail(f"event {e.seq}: {pool['purpose']!r} has {len(pool['results'])} results "
                           f"for {len(pool['nonces'])} nonces")
    return v
