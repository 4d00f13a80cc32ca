"""The fair-dice arithmetic: known answers, determinism, uniformity, the verifier."""
from __future__ import annotations

import hashlib
import hmac
import json
import random

import pytest

from shared import dicelog, fairdice
from shared.eventlog import GENESIS, LoggedEvent, link

SEED = bytes(range(32))


def test_known_answer_vectors():
    """Fixed seed, session and nonces give these faces; any change to the scheme breaks them."""
    assert fairdice.commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert [fairdice.face_index(SEED, "kat", n, "", 6) + 1 for n in range(12)] == [6, 2, 3, 2, 4, 2, 1, 6, 6, 4, 3, 2]
    assert [fairdice.face_index(SEED, "kat", n, "", 8) + 1 for n in range(12)] == [6, 8, 3, 8, 6, 6, 3, 6, 4, 2, 3, 4]
    digest = fairdice.fold_client_seed("", "alice")
    with_seed = [fairdice.face_index(SEED, "kat", n, digest, 6) + 1 for n in range(12)]
    assert with_seed == [6, 4, 1, 2, 3, 6, 1, 6, 3, 1, 2, 3]


def test_scheme_matches_an_independent_reading_of_the_spec():
    """HMAC-SHA256(seed, "session|nonce|digest"), first 32-bit word under the limit, modulo faces."""
    for nonce in range(200):
        for faces in (2, 6, 8, 7, 1000):
            mac = hmac.new(SEED, f"s|{nonce}|".encode(), hashlib.sha256).digest()
            limit = 2**32 - 2**32 % faces
            words = [int.from_bytes(mac[i:i + 4], "big") for i in range(0, 32, 4)]
            expected = next(w % faces for w in words if w < limit)
            assert fairdice.face_index(SEED, "s", nonce, "", faces) == expected


def test_same_seed_and_nonce_give_the_same_face_and_seeds_differ():
    other = bytes(32)
    a = [fairdice.face_index(SEED, "m", n, "", 6) for n in range(100)]
    assert a == [fairdice.face_index(SEED, "m", n, "", 6) for n in range(100)]
    assert a != [fairdice.face_index(other, "m", n, "", 6) for n in range(100)]
    assert a != [fairdice.face_index(SEED, "m2", n, "", 6) for n in range(100)]


def test_client_seed_changes_later_rolls():
    d = fairdice.fold_client_seed("", "x")
    assert [fairdice.face_index(SEED, "m", n, "", 6) for n in range(50)] != \
        [fairdice.face_index(SEED, "m", n, d, 6) for n in range(50)]


# critical values of chi-square at p = 0.001 for 5 and 7 degrees of freedom
CHI2_CRIT = {6: 20.515, 8: 24.322}


@pytest.mark.slow
@pytest.mark.parametrize("faces", [6, 8])
def test_chi_square_over_600000_faces(faces):
    """600,000 faces of a d6 and of a d8 are uniform: chi-square below the p=0.001 critical value."""
    seed = hashlib.sha256(f"chi{faces}".encode()).digest()
    n = 600_000
    counts = [0] * faces
    for nonce in range(n):
        counts[fairdice.face_index(seed, "chi", nonce, "", faces)] += 1
    expected = n / faces
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    print(f"d{faces}: n={n} counts={counts} chi2={chi2:.3f} (critical {CHI2_CRIT[faces]} at p=0.001)")
    assert chi2 < CHI2_CRIT[faces]


def test_rejection_sampling_has_no_modulo_bias():
    """With 3 * 2^30 faces, plain modulo would make low faces twice as likely; rejection does not."""
    faces = 3 * 2**30
    low = sum(fairdice.face_index(SEED, "bias", n, "", faces) < 2**30 for n in range(30_000))
    # unbiased: P(low) = 1/3; biased modulo would give 1/2
    assert abs(low / 30_000 - 1 / 3) < 0.02


def _session_log(rolls=3):
    """A honest log: commitment, a client seed, rolls, reveal."""
    commit = fairdice.commitment(SEED)
    events = [("dice_committed", {"commitment": commit}), ("client_seed", {"seed": "abc"})]
    digest = fairdice.fold_client_seed("", "abc")
    nonce = 0
    for i in range(rolls):
        pools = [{"purpose": f"p{i}", "faces": [1, 2, 3, 4, 5, 6]}]
        faces, nonces = fairdice.roll_pools(SEED, "sess", nonce, digest, [(2, pools[0]["faces"])])
        nonce = nonces[-1][-1] + 1
        events.append(("roll", dicelog.roll_body(pools, faces, nonces, secret=False)))
    events.append(("dice_revealed", {"seed": SEED.hex()}))
    return commit, link(events, 0, GENESIS)


def _edit(e: LoggedEvent, body: dict) -> LoggedEvent:
    return LoggedEvent(e.seq, e.type, json.dumps(body, sort_keys=True, separators=(",", ":")), e.prev_hash, e.hash)


def test_an_honest_log_verifies():
    commit, events = _session_log()
    v = dicelog.verify("sess", commit, events)
    assert v.ok, v.problems
    assert (v.rolls_checked, v.events_checked) == (6, 6)


def test_a_tampered_roll_is_caught_even_when_rehashed():
    commit, events = _session_log()
    body = events[2].body
    body["pools"][0]["results"][0] = body["pools"][0]["results"][0] % 6 + 1
    # rebuild the chain so only the dice themselves can tell
    forged = link([(e.type, body if i == 2 else e.body) for i, e in enumerate(events)], 0, GENESIS)
    v = dicelog.verify("sess", commit, forged)
    assert not v.ok and any("the seed gives" in p for p in v.problems)


def test_an_edited_event_is_caught():
    commit, events = _session_log()
    body = events[1].body
    body["seed"] = "xyz"
    events[1] = _edit(events[1], body)
    assert any("edited" in p for p in dicelog.verify("sess", commit, events).problems)


def test_a_deleted_event_is_caught():
    commit, events = _session_log()
    del events[3]
    v = dicelog.verify("sess", commit, events)
    assert not v.ok and any("removed" in p or "chain" in p for p in v.problems)


def test_reordered_events_are_caught():
    commit, events = _session_log()
    events[2], events[3] = events[3], events[2]
    assert not dicelog.verify("sess", commit, events).ok


def test_a_wrong_revealed_seed_is_caught():
    commit, _ = _session_log()
    _, events = _session_log()
    body = events[-1].body
    body["seed"] = bytes(32).hex()
    forged = link([(e.type, body if e.type == "dice_revealed" else e.body) for e in events], 0, GENESIS)
    v = dicelog.verify("sess", commit, forged)
    assert any("does not match the commitment" in p for p in v.problems)


def test_a_changed_commitment_is_caught():
    _, events = _session_log()
    v = dicelog.verify("sess", fairdice.commitment(bytes(32)), events)
    assert not v.ok and any("not the published commitment" in p for p in v.problems)


def test_a_skipped_nonce_is_caught():
    commit, events = _session_log()
    body = events[3].body
    body["pools"][0]["nonces"] = [n + 1 for n in body["pools"][0]["nonces"]]
    forged = link([(e.type, body if i == 3 else e.body) for i, e in enumerate(events)], 0, GENESIS)
    assert any("skipped" in p for p in dicelog.verify("sess", commit, forged).problems)


def test_a_roll_before_the_commitment_is_caught():
    commit, events = _session_log()
    order = [events[2], events[0], events[1]] + events[3:]
    forged = link([(e.type, e.body) for e in order], 0, GENESIS)
    assert any("before the commitment" in p for p in dicelog.verify("sess", commit, forged).problems)


def test_shuffle_helpers_are_a_permutation():
    from shared.engine import apply_shuffle, shuffle_request

    rng = random.Random(1)
    for n in range(2, 12):
        pools = shuffle_request("deck", n)
        draws = [[rng.choice(p.faces)] for p in pools]
        assert sorted(apply_shuffle(list(range(n)), draws)) == list(range(n))
