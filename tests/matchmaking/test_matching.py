"""Grouping tickets into matches (services/matchmaking/matching.py), without Redis."""
from __future__ import annotations

import itertools

from services.matchmaking.matching import QueuedTicket, Window, propose

_ids = itertools.count()
COUNTS = (2, 3, 4)


def ticket(party=1, seats=0, rating=1000, ai=False, max_wait_ms=60_000, invite="", created=0):
    i = next(_ids)
    return QueuedTicket(f"t{i}", tuple(f"p{i}.{k}" for k in range(party)), seats, rating, ai, max_wait_ms, invite,
                        created)


def test_four_singles_make_one_four_seat_match_without_ai():
    ts = [ticket(seats=4) for _ in range(4)]
    [p] = propose(ts, COUNTS, now_ms=10)
    assert p.seats == 4 and p.ai_seats == 0 and {t.ticket_id for t in p.tickets} == {t.ticket_id for t in ts}


def test_any_size_tickets_prefer_the_largest_full_match():
    ts = [ticket() for _ in range(3)]
    [p] = propose(ts, COUNTS, now_ms=10)
    assert p.seats == 3 and p.players == 3


def test_parties_stay_together_and_fill_exactly():
    pair, pair2 = ticket(party=2, seats=4), ticket(party=2, seats=4)
    single = ticket(seats=4)
    [p] = propose([pair, single, pair2], COUNTS, now_ms=10)
    assert set(p.tickets) == {pair, pair2}
    assert p.players == 4


def test_a_party_never_splits_across_matches():
    trio, single1, single2 = ticket(party=3, seats=4), ticket(seats=4), ticket(seats=4)
    proposals = propose([trio, single1, single2], COUNTS, now_ms=10)
    assert len(proposals) == 1 and set(proposals[0].tickets) == {trio, single1}


def test_invite_codes_only_meet_their_own_code():
    a, b = ticket(seats=2, invite="secret"), ticket(seats=2)
    assert propose([a, b], COUNTS, now_ms=10) == []
    c = ticket(seats=2, invite="secret")
    [p] = propose([a, b, c], COUNTS, now_ms=10)
    assert set(p.tickets) == {a, c}


def test_far_ratings_wait_for_the_window_to_widen():
    window = Window(base=100, per_second=50)
    a, b = ticket(seats=2, rating=1000, created=0), ticket(seats=2, rating=1600, created=0)
    assert propose([a, b], COUNTS, now_ms=1_000, window=window) == []  # window 150 < 600
    assert propose([a, b], COUNTS, now_ms=9_000, window=window) == []  # 550
    [p] = propose([a, b], COUNTS, now_ms=10_000, window=window)  # 600
    assert set(p.tickets) == {a, b}


def test_ai_fills_after_the_wait_limit_only_if_welcome():
    welcome = ticket(seats=4, ai=True, max_wait_ms=5_000)
    assert propose([welcome], COUNTS, now_ms=4_999) == []
    [p] = propose([welcome], COUNTS, now_ms=5_000)
    assert p.ai_seats == 3 and p.tickets == [welcome]
    unwelcome = ticket(seats=4, ai=False, max_wait_ms=0)
    assert propose([unwelcome], COUNTS, now_ms=99_000) == []


def test_ai_fill_brings_along_other_waiting_players_who_welcome_ai():
    a = ticket(seats=4, ai=True, max_wait_ms=0, created=0)
    b = ticket(seats=4, ai=True, max_wait_ms=60_000, created=1)
    c = ticket(seats=4, ai=False, created=2)
    [p] = propose([a, b, c], COUNTS, now_ms=10)
    assert set(p.tickets) == {a, b} and p.ai_seats == 2


def test_seat_counts_must_agree():
    a, b = ticket(seats=2), ticket(seats=3)
    assert propose([a, b], COUNTS, now_ms=10) == []


def test_no_ticket_is_in_two_proposals():
    ts = [ticket(party=1 + i % 2, rating=900 + (i * 37) % 300, created=i) for i in range(500)]
    proposals = propose(ts, COUNTS, now_ms=1_000)
    seen = [t.ticket_id for p in proposals for t in p.tickets]
    assert len(seen) == len(set(seen))
    assert all(p.players + p.ai_seats == p.seats for p in proposals)


def test_a_replica_that_cannot_start_ai_turns_seats_no_ai():
    welcome = ticket(seats=4, ai=True, max_wait_ms=0)
    assert propose([welcome], COUNTS, now_ms=10, ai_fill=False) == []
    full = [ticket(seats=2, ai=True, max_wait_ms=0) for _ in range(2)]
    [p] = propose(full, COUNTS, now_ms=10, ai_fill=False)
    assert p.ai_seats == 0
