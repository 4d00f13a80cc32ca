"""Wizards' AI levels and the search under `hard` (shared/engine/search.py, shared/wizards/determinize.py,
shared/wizards/levels.py): a determinization keeps all that the seat sees and fills in only what the view
hides (14.3, views.py: the decks' order, the Gem Cards in the boxes, other players' Gem Records, Secret
Wizard Records and False Wizards, the Secret Wizards' identities, face-down tiles); the search is
repeatable for a seed, always answers a legal action and cannot tell apart two states that look alike to
its seat."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.engine import CHANCE, TERMINAL, MatchConfig, registry
from shared.engine.playout import policy_playout, sample_chance
from shared.engine.search import Budget
from shared.wizards import levels, policy
from shared.wizards.determinize import determinize
from shared.wizards.pack import pack
from shared.wizards.policy import choose
from tests.wizards.scenario import ENGINE, build
from tests.wizards.test_properties import equip, scramble

E = ENGINE
SMALL = Budget(iterations=4, ms=None)  # iterations alone: the search is repeatable for a seed


def positions(start, rng: random.Random, steps: int = 400, every: int = 3) -> list:
    """Decision states (a seat awaited) met by play from `start`: the normal policy mostly, a random legal
    action a third of the time (so that Orders, Animals, spells and encounters of all kinds come up), every
    `every`-th one kept."""
    found, state, n = [], start, 0
    for _ in range(steps):
        who = E.actor(state)
        if who == TERMINAL:
            break
        if who == CHANCE:
            state, _ = E.apply_chance(state, sample_chance(E.chance_request(state), rng))
            continue
        legal = E.legal_actions(state, who)
        n += 1
        if n % every == 0:
            found.append(state)
        pick = rng.choice(legal) if rng.random() < 0.35 else choose(E.view(state, who), who, legal, rng)
        state, _ = E.apply(state, who, pick)
    return found


def gathering(seats: int = 2, variant: str = "standard"):
    """Everyone at Rank FOUR of the Wizards with their Mandatory Tasks done, gathering Gems (13): seat 0 holds
    two Gems, knows the False Wizard, and a Secret Wizard (A) is on the board, known to seat 0 only; seat 1
    holds a Gem of its own. Records agree with the Gem boxes and the markers."""
    p = pack()

    def prepare(s):
        gem = {c["id"]: c for c in p.gem_cards}
        false = next(n for n, g in s.gem_boxes.items() if gem[g].get("false_wizard"))
        real = [n for n in p.high_wizards if n != false]
        for q in s.players:
            q["order"], q["rank"] = "wizards", 4
        s.players[0]["gems"] = {real[0]: gem[s.gem_boxes[real[0]]]["gem"], real[1]: gem[s.gem_boxes[real[1]]]["gem"]}
        s.players[0]["false_wizard"] = false
        s.players[1]["gems"] = {real[2]: gem[s.gem_boxes[real[2]]]["gem"]}
        s.secret_wizards = [{"letter": "A", "wizard": real[3], "at": list(s.players[1]["at"])}]
        s.players[0]["secret_record"] = {"A": real[3]}
    return prepare


def check_determinizations(states: list, rng: random.Random) -> int:
    checked = 0
    for state in states:
        for seat in range(state.seats):
            view = E.view(state, seat)
            sample = determinize(view, seat, random.Random(rng.getrandbits(32)))
            E.check_invariants(sample)
            assert E.view(sample, seat) == view, "a determinization looks different to its seat"
            assert E.actor(sample) == E.actor(state)
            if seat == E.actor(state) and not state.pending:
                assert E.legal_actions(sample, seat) == E.legal_actions(state, seat)
            checked += 1
    return checked


# --- the determinizer -----------------------------------------------------------------
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([2, 3, 4]), partnership=st.booleans())
def test_14_3_a_determinization_is_valid_and_looks_to_the_seat_exactly_like_its_view(seed, seats, partnership):
    """14.3 (views.py): for random reachable states (2-4 seats, standard and partnership; Orders, Animals,
    afflictions, Boats, Gems gathered), determinize(view(state, seat)) keeps every invariant (invariants.py)
    and its view for that seat is the view it came from; the same seat acts, with the same legal actions
    where no resolution is in progress."""
    rng = random.Random(seed)
    variant = "partnership" if partnership and seats == 4 else "standard"
    prepare = gathering(seats, variant) if rng.random() < 0.4 else equip(rng)
    start = build(seats=seats, days=14, prepare=prepare, variant=variant)
    assert check_determinizations(positions(start, rng, steps=1200, every=4), rng) > 0


def test_14_3_a_determinization_keeps_what_the_seat_knows_and_deals_the_rest_from_the_pack():
    """14.3 / 3.11 / 7.302 6: the Gem Cards of the seat's own Gem Record and the False Wizard it knows stay in
    their High Wizards' boxes, the Secret Wizard on its record keeps his identity; the decks are the cards not
    seen elsewhere; the other players' records (hidden) are filled from the boxes as sampled."""
    p = pack()
    state = build(seats=2, days=6, prepare=gathering())
    gem = {c["id"]: c for c in p.gem_cards}
    mine = state.players[0]
    boxes_seen, others = set(), set()
    for i in range(30):
        s = determinize(E.view(state, 0), 0, random.Random(i))
        E.check_invariants(s)
        for name, g in mine["gems"].items():
            assert gem[s.gem_boxes[name]]["gem"] == g
        assert gem[s.gem_boxes[mine["false_wizard"]]].get("false_wizard")
        assert s.secret_wizards[0]["wizard"] == mine["secret_record"]["A"]
        for name, g in s.players[1]["gems"].items():
            assert gem[s.gem_boxes[name]]["gem"] == g and not gem[s.gem_boxes[name]].get("false_wizard")
        assert s.players[1]["secret_record"] == {} and s.players[1]["false_wizard"] is None
        assert sorted(s.decks["task"]) == sorted(state.decks["task"])
        boxes_seen.add(tuple(sorted(s.gem_boxes.items())))
        others.add(tuple(sorted(s.players[1]["gems"].items())))
    assert len(boxes_seen) > 1 and len(others) > 1, "what the seat does not know is sampled, not fixed"
    # seat 1 knows neither seat 0's Gems nor the Secret Wizard: both are sampled for it
    ids = {determinize(E.view(state, 1), 1, random.Random(i)).secret_wizards[0]["wizard"] for i in range(30)}
    assert len(ids) > 1


def test_14_3_two_states_alike_to_the_seat_give_the_same_determinizations():
    """14.3: determinize reads only the view: a state whose hidden parts are scrambled (decks, Gem boxes, other
    records) gives, for the same random draws, the same sample."""
    rng = random.Random(7)
    for state in positions(build(seats=3, days=6, prepare=equip(rng)), rng, steps=200, every=10):
        other = scramble(state, 0, rng)
        assert E.view(other, 0) == E.view(state, 0)
        a = determinize(E.view(state, 0), 0, random.Random(3))
        b = determinize(E.view(other, 0), 0, random.Random(3))
        assert E.encode(a) == E.encode(b)


# --- the hard level -------------------------------------------------------------------
def test_the_registry_offers_easy_normal_and_hard_for_wizards():
    assert registry.levels_for("wizards") == ("easy", "normal", "hard")
    for level in ("easy", "normal", "hard"):
        assert callable(registry.policy_for("wizards", level))
    assert registry.policy_for("wizards", "normal") is choose


def search_positions(seed: int = 11, seats: int = 2) -> list:
    """Decision states of play with a real choice and no resolution in progress: the search's own."""
    rng = random.Random(seed)
    found = positions(build(seats=seats, days=6, prepare=equip(rng)), rng, steps=300, every=1)
    return [s for s in found if not s.pending and len(E.legal_actions(s, E.actor(s))) > 1][::4][:8]


def test_hard_is_repeatable_for_a_seed_with_an_iteration_budget():
    """With a budget of iterations only, the same view, legal actions and seed give the same choice and the
    same statistics (every candidate's samples)."""
    found = levels.search(budget=SMALL)
    states = search_positions()
    assert states
    for state in states:
        seat = E.actor(state)
        view, legal = E.view(state, seat), E.legal_actions(state, seat)
        a = found.run(view, seat, legal, random.Random(5))
        b = found.run(view, seat, legal, random.Random(5))
        assert a.action == b.action and a.children == b.children
        assert a.action in legal
        assert 0 < a.iterations == b.iterations <= max(SMALL.iterations, len(legal))  # halving: one each at least


def test_hard_cannot_see_hidden_state():
    """14.3: two states that differ only in what the seat cannot see (scramble: the decks' order, the Gem
    boxes, the other players' secret records) give the same choice for the same seed."""
    hard = levels.hard(budget=SMALL)
    rng = random.Random(2)
    for state in search_positions(seed=23, seats=3):
        seat = E.actor(state)
        other = scramble(state, seat, rng)
        legal = E.legal_actions(state, seat)
        assert E.legal_actions(other, seat) == legal
        assert (hard(E.view(state, seat), seat, legal, random.Random(9))
                == hard(E.view(other, seat), seat, legal, random.Random(9)))


def test_hard_never_plays_an_illegal_action_in_a_whole_match():
    """A whole (time-limited) match of hard against normal: policy_playout raises on an illegal action."""
    hard = levels.hard(budget=Budget(iterations=2, ms=None), horizon=2)

    def policy(view, seat, legal, rng):
        return (hard if seat == 0 else choose)(view, seat, legal, rng)

    final, _ = policy_playout(E, MatchConfig(2, options={"days": 14}), policy, random.Random(4))
    assert E.actor(final) == TERMINAL


def test_hard_plays_the_normal_policy_in_the_middle_of_a_resolution():
    """An encounter's choice (the view leaves the stage out, so no state can be rebuilt): the normal
    policy's pick, for the same seed."""
    hard = levels.hard(budget=SMALL)
    rng = random.Random(31)
    found = [s for s in positions(build(seats=2, days=6, prepare=equip(rng)), rng, steps=400, every=1)
             if s.pending]
    assert found
    for state in found[:10]:
        seat = E.actor(state)
        view, legal = E.view(state, seat), E.legal_actions(state, seat)
        assert hard(view, seat, legal, random.Random(1)) == choose(view, seat, legal, random.Random(1))


def test_the_value_of_a_rollout_is_the_win_blended_with_progress():
    """In [0, 1]; a seat ahead in Rank is valued above one behind, a match won above both."""
    state = build(seats=2, days=6)
    state.players[0]["order"], state.players[0]["rank"] = "wizards", 2
    ahead, behind = levels.value(E, state, 0), levels.value(E, state, 1)
    assert 0.0 <= behind < 0.5 < ahead <= 1.0
    won = E.decode(E.encode(state))
    won.phase, won.result = "over", {"scores": [1, 0], "winners": [0], "summary": "seat 0 delivered the Gems"}
    assert levels.value(E, won, 0) > ahead and levels.value(E, won, 1) < behind


def test_a_seat_that_delivered_the_gems_stands_ahead_though_they_left_its_record():
    """7.336: the six Gems delivered to Rüktal leave the winner's Gem Record; `standing` counts them, so the
    winner leads every other seat (the search's value and the strength bench's measure read it), where
    progress alone would put him behind a seat with Gems still on its record."""
    state = build(seats=2, days=6)
    for q in state.players:
        q["order"], q["rank"] = "sorcerers", 4
    state.players[1]["gems"] = {"W1": "diamond", "W2": "ruby"}  # seat 0 delivered his: his record is empty
    assert levels.progress(state.players[0]) < levels.progress(state.players[1])
    won = E.decode(E.encode(state))
    won.phase, won.result = "over", {"scores": [1, 0], "winners": [0], "summary": "seat 0 delivered the Gems"}
    assert levels.standing(won, 0) == levels.progress(won.players[0]) + levels.DELIVERED
    assert levels.lead(won, 0) > 0 > levels.lead(won, 1)
    assert levels.value(E, won, 0) > 0.75 > 0.25 > levels.value(E, won, 1)
    # counted from the record alone (bench.strength --win record, as before revision 4), the winner stands behind
    assert levels.lead(won, 0, delivered=False) < 0 < levels.lead(won, 1, delivered=False)
    served, record = levels.search(), levels.search(win="record")
    assert served.value(E, won, 0) == levels.value(E, won, 0)
    assert record.value(E, won, 0) == levels.value(E, won, 0, delivered=False) < served.value(E, won, 0)
    with pytest.raises(ValueError, match="win must be one of delivered, record"):
        levels.hard(win="gems")


def test_a_partnership_leads_by_its_better_partner_over_the_best_other_side():
    """Appendix B: partners win together, so a side's progress is its better partner's, measured against the
    best seat of the other side, never against the partner (the search's value, and the strength bench's
    margin, both read this lead); a solitaire game has no other side."""
    state = build(seats=4, days=6, variant="partnership")
    state.players[1]["order"], state.players[1]["rank"] = "wizards", 2  # seat 0's partner
    state.players[2]["order"], state.players[2]["rank"] = "wizards", 1
    p = [levels.progress(q) for q in state.players]
    assert levels.lead(state, 0) == levels.lead(state, 1) == p[1] - p[2] > 0
    assert levels.lead(state, 2) == levels.lead(state, 3) == p[2] - p[1] < 0
    assert levels.value(E, state, 0) == levels.value(E, state, 1) > 0.5 > levels.value(E, state, 3)
    assert levels.lead(build(seats=1), 0) is None


def test_the_root_shortlist_keeps_few_candidates_and_the_policy_s_own_pick():
    """On a move: the `keep` destinations the hard seat's own play rates best (the Lair and the Demons' reach
    counted down, as the policy weighs them when it picks), its best moves and the normal policy's where they are
    not among them (without its pick the search has no move to beat), ending the movement and every spell; before
    a roll, its pick and the roll, no other Transport."""
    seen = {"move": 0, "roll": 0, "pick beyond the best rated": 0}
    states = []
    for seed, seats in ((11, 2), (23, 3)):
        rng = random.Random(seed)
        states += positions(build(seats=seats, days=6, prepare=equip(rng)), rng, steps=300, every=1)
    for state in states:
        seat = E.actor(state)
        legal = E.legal_actions(state, seat)
        if state.pending or len(legal) < 2:
            continue
        view = E.view(state, seat)
        kept = levels.shortlist(view, seat, legal, keep=3)
        assert kept and all(a in legal for a in kept)
        moves = [a for a in legal if a["kind"] == "move"]
        if moves:
            seen["move"] += 1
            kept_moves = [a for a in kept if a["kind"] == "move"]
            beyond = kept_moves[min(3, len(moves)):]
            best: list[dict] = []
            for advancing in (True, False):
                best += [a for a in policy.best_moves(view, seat, legal, advancing)[0]
                         if a["kind"] == "move" and a not in kept_moves[:3] and a not in best]
            assert beyond == best
            assert all(choose(view, seat, legal, random.Random(k)) in kept for k in range(4))
            assert all(levels.own(view, seat, legal, random.Random(k)) in kept for k in range(4))
            seen["pick beyond the best rated"] += bool(beyond)
            rated = policy.rate_moves(view, seat, moves, advancing=True) or [0.0] * len(moves)
            rates = dict(zip(map(repr, moves), rated))
            ranked = [rates[repr(a)] for a in kept_moves[:3]]
            assert min(ranked) >= max([rates[repr(a)] for a in moves if a not in kept_moves[:3]], default=min(ranked))
            assert [a for a in kept if a["kind"] != "move"] == [a for a in legal if a["kind"] != "move"]
        elif any(a["kind"] == "roll" for a in legal):  # before a roll: its pick and the roll, no other Transport
            seen["roll"] += 1
            assert kept[0] == levels.own(view, seat, legal, random.Random(0)) and {"kind": "roll"} in kept
            assert not any(a.get("spell") == "transporting" for a in kept[1:])
    assert all(seen.values()), seen


def test_the_shortlist_ranks_a_demon_s_space_down_as_the_policy_does():
    """7.304: a Demon's space may cost the seat its Gems or carry it into the Lair. The policy walks round it
    (tests/wizards/test_policy.py), and the shortlist ranks the destinations as the policy rates them: with one
    destination kept, the Demon's space, nearest the goal, is not it."""
    from tests.wizards.scenario import bound_for_a_task

    st = bound_for_a_task()
    nearest = levels.shortlist(E.view(st, 0), 0, E.legal_actions(st, 0), keep=1)[0]
    assert nearest["kind"] == "move"
    st = bound_for_a_task(demon=nearest["to"])
    kept = levels.shortlist(E.view(st, 0), 0, E.legal_actions(st, 0), keep=1)
    assert kept[0]["kind"] == "move" and kept[0]["to"] != nearest["to"]
    assert nearest["to"] not in [a.get("to") for a in kept]
    # ranked as before revision 4 (bench.strength --rank nearest): the way alone, the Demon not counted, and a
    # Territory not yet seen counted up though the seat has a goal, so one leads, with the policy's move after it
    view, legal = E.view(st, 0), E.legal_actions(st, 0)
    moves = [a for a in legal if a["kind"] == "move"]
    to = [tuple(a["to"]) for a in moves]
    rated = dict(zip(to, policy.rate_moves(view, 0, moves)))
    way = dict(zip(to, policy.rate_moves(view, 0, moves, nearest=True)))
    assert way[tuple(nearest["to"])] > rated[tuple(nearest["to"])]
    before = levels.shortlist(view, 0, legal, keep=1, rank="nearest")
    first = tuple(before[0]["to"])
    assert way[first] == max(way.values()) == rated[first] + 12 and kept[0] in before
    with pytest.raises(ValueError, match="rank must be one of rated, nearest"):
        levels.hard(rank="closest")


def test_10_2_every_candidate_is_a_line_its_own_play_follows_where_normal_would_turn_back():
    """The search's first line (its incumbent) is the hard seat's own pick, and every line goes on with the seat's
    own play to the rollout's end (revision 7): where meeting its Mentor would advance it now (10.2), its way to
    him (a Master Sorcerer's Tower, 7.345), where a rollout of the normal policy would turn to its Task at the
    next step; and once the Rank is its own, still its own play (the normal policy plays the other seats)."""
    from tests.wizards.scenario import ready_to_advance

    st = ready_to_advance(white=6)
    view, legal = E.view(st, 0), E.legal_actions(st, 0)
    found = levels.lines(view, 0, levels.shortlist(view, 0, legal))
    first = found[0]
    assert first.first == levels.own(view, 0, legal, random.Random(0)) != choose(view, 0, legal, random.Random(0))
    assert all(line.then is first.then is not None for line in found)
    assert choose(view, 0, legal, random.Random(0)) in [line.first for line in found[1:]]
    # on its next step, still short of the Tower, it keeps to its way where the normal policy turns back to its Task
    later, _ = E.apply(st, 0, first.first)
    assert E.actor(later) == 0
    steps = E.legal_actions(later, 0)
    kept = first.then(later, 0, steps)
    assert kept == levels.own(E.view(later, 0), 0, steps, random.Random(0))
    assert kept != choose(E.view(later, 0), 0, steps, random.Random(0))
    promoted = E.decode(E.encode(later))
    promoted.players[0]["rank"] = 2
    steps = E.legal_actions(promoted, 0)
    assert first.then(promoted, 0, steps) == levels.own(E.view(promoted, 0), 0, steps, random.Random(0))


def test_11_213_before_a_roll_the_search_weighs_its_plays_transport_against_the_roll_only():
    """Revision 7: before a roll the root's candidates are the hard seat's pick and the roll, never a Transport to a
    Territory its play has no goal in (a random space there is a gamble a dozen samples can take for a gain)."""
    from tests.wizards.scenario import member, solo

    def met_out(s):
        member(order="sorcerers", rank=4)(s)
        h = s.players[0]["at"]
        s.players[0]["space_encounters"] = {f"{h[0]},{h[1]}": 2}
    st = solo("M2", "Center", prepare=met_out)
    view, legal = E.view(st, 0), E.legal_actions(st, 0)
    assert sum(a.get("spell") == "transporting" for a in legal) > 10
    pick = levels.own(view, 0, legal, random.Random(0))
    assert pick["spell"] == "transporting"
    assert levels.shortlist(view, 0, legal) == [pick, {"kind": "roll"}]
    fresh = solo("M2", "Center", prepare=member(order="sorcerers", rank=4))
    assert levels.shortlist(E.view(fresh, 0), 0, E.legal_actions(fresh, 0)) == [{"kind": "roll"}]


def test_the_policy_moves_to_one_of_its_best_moves_and_picks_among_them_only_when_they_tie():
    """policy.best_moves is what the policy chooses from on a movement decision (the shortlist keeps them):
    its pick is always one of them, and the same whatever the dice unless they tie."""
    rng = random.Random(5)
    tied = 0
    for state in positions(build(seats=2, days=6, prepare=equip(rng)), rng, steps=300, every=1):
        seat = E.actor(state)
        legal = E.legal_actions(state, seat)
        if state.pending or not any(a["kind"] in ("move", "end_move") for a in legal):
            continue
        view = E.view(state, seat)
        best, tie = policy.best_moves(view, seat, legal)
        picks = [choose(view, seat, legal, random.Random(k)) for k in range(6)]
        assert all(p in best for p in picks)
        if not tie:
            assert picks == [best[0]] * 6
        tied += tie and len(best) > 1
    assert tied


def test_the_search_s_clock_moves_a_share_of_a_day_with_each_seat_s_turn_and_a_day_with_each_round():
    """levels.clock (the hard search's tempo): days played (3.74) and the turns of the day begun, so that its
    horizon gives each seat the same turns of its own whatever the seats: every turn passed to the next seat
    moves it on 1/seats, an extra turn (the same seat again) not at all, and it never goes back in play."""
    for seats in (2, 4):
        rng = random.Random(seats)
        state = build(seats=seats, days=6, prepare=equip(rng))
        last, seat, turns = levels.clock(state), None, 0
        for _ in range(600):
            who = E.actor(state)
            if who == TERMINAL:
                break
            if who == CHANCE:
                state, _ = E.apply_chance(state, sample_chance(E.chance_request(state), rng))
            else:
                legal = E.legal_actions(state, who)
                state, _ = E.apply(state, who, choose(E.view(state, who), who, legal, rng))
            if state.turn is None or E.actor(state) == TERMINAL:  # (set-up; the end may fall in the middle of a day)
                continue
            now = levels.clock(state)
            assert now >= last
            if seat is not None and state.turn["seat"] != seat:  # the next seat's turn: a share of a day on
                assert abs(now - last - 1 / seats) < 1e-9, (seat, state.turn["seat"], last, now)
                turns += 1
            elif seat is not None:  # the same seat's (an extra turn): the clock stands, but for the day Evil
                assert now - last in (0, 1)  # attacks (12.1: the dealer's turn, a day on when it is over)
            last, seat = now, state.turn["seat"]
        assert turns >= 2 * seats


def test_a_rollout_is_judged_the_horizon_s_days_on_by_either_root():
    """The hard search's horizon is in days of `levels.clock` (served: HARD_HORIZON), for halving from the
    decision asked about and for UCT from where its rollout leaves the tree: with 3 seats too, where a share
    of a day is no exact float ((10 + 2/3) - (4 + 2/3) < 6: search.TEMPO_ROUNDING)."""
    assert levels.search().tempo is levels.clock is levels.search(root="uct").tempo
    # 3 seats: from a turn where two days on is no exact float ((2 + 1/3) + 2 - (2 + 1/3) < 2, and so on)
    inexact = (2 + 1 / 3, 3 + 1 / 3, 6 + 2 / 3, 7 + 2 / 3)
    for seats in (2, 3):
        rng = random.Random(seats)
        state = next(s for s in positions(build(seats=seats, days=0, prepare=equip(rng)), rng, steps=900, every=1)
                     if not s.pending and s.phase == "play" and E.actor(s) >= 0
                     and (seats == 2 and levels.clock(s) >= 4 or any(abs(levels.clock(s) - c) < 1e-9 for c in inexact))
                     and len(levels.shortlist(E.view(s, E.actor(s)), E.actor(s), E.legal_actions(s, E.actor(s)))) > 1)
        seat = E.actor(state)
        legal = E.legal_actions(state, seat)
        start = levels.clock(state)
        for root in ("halving", "uct"):
            judged: list[float] = []

            def value(engine, end, me, judged=judged, start=start):
                if engine.actor(end) != TERMINAL:
                    judged.append(levels.clock(end) - start)
                return levels.value(engine, end, me)

            found = levels.search(budget=Budget(iterations=6, ms=None), horizon=2, root=root)
            found.value = value
            found.run(E.view(state, seat), seat, legal, random.Random(1))
            assert judged
            if root == "halving":
                assert all(abs(d - 2) < 1e-6 for d in judged), judged
            else:
                assert all(d > 2 - 1e-6 for d in judged) and min(judged) < 3, judged


def _three_lines():
    """A decision of play where the hard search weighs three lines or more, and its incumbent (its own pick)."""
    for state in search_positions():
        seat = E.actor(state)
        view, legal = E.view(state, seat), E.legal_actions(state, seat)
        found = levels.lines(view, seat, levels.shortlist(view, seat, legal))
        if len(found) >= 3:
            return view, seat, legal, found
    raise AssertionError("no decision with three lines among the search positions")


def _watch_confirming(monkeypatch, found) -> dict:
    """Sets the returned flag's "now" once `found` begins to confirm a challenger (its fresh samples)."""
    flag = {"now": False}
    chosen = found._confirm

    def confirming(*args):
        flag["now"] = True
        return chosen(*args)
    monkeypatch.setattr(found, "_confirm", confirming)
    return flag


@pytest.mark.parametrize("holds", [False, True])
def test_a_challenger_is_answered_only_where_its_gain_holds_on_fresh_samples(monkeypatch, holds):
    """Revision 8 (search.Search.confirm): the best of some six lines on the same two or three samples is the
    luckiest as often as the best, so a challenger the halving prefers to the seat's own pick is answered only if
    its gain holds on `HARD_CONFIRM` fresh paired samples, drawn after it was chosen. A line ahead on every sample
    the halving took and behind on the fresh ones is not answered (the search before revision 8 answered it); one
    ahead on the fresh ones too is, and the result counts the fresh samples it took."""
    view, seat, legal, found_lines = _three_lines()
    incumbent, challenger = found_lines[0].first, found_lines[1].first
    assert levels.HARD_CONFIRM >= 2

    def answer(confirm: int):
        found = levels.search(budget=Budget(iterations=12, ms=None), confirm=confirm)
        fresh = _watch_confirming(monkeypatch, found)

        def sample(view, seat, line, seeds):  # the incumbent 0.5, the challenger 0.6 on the halving's samples
            if line.first == incumbent:
                return 0.5
            if line.first == challenger:
                return 0.6 if holds or not fresh["now"] else 0.4
            return 0.3
        monkeypatch.setattr(found, "_sample", sample)
        return found.run(view, seat, legal, random.Random(3)), fresh["now"]

    before, confirmed = answer(0)
    assert before.action == challenger and not confirmed
    served, confirmed = answer(levels.HARD_CONFIRM)
    assert confirmed and served.action == (challenger if holds else incumbent)
    visits = {repr(a): n for a, n, _ in served.children}
    unconfirmed = {repr(a): n for a, n, _ in before.children}
    for a in (incumbent, challenger):
        assert visits[repr(a)] == unconfirmed[repr(a)] + levels.HARD_CONFIRM
    assert served.iterations == before.iterations + 2 * levels.HARD_CONFIRM


@pytest.mark.parametrize("pairs", [0, 1, 2])
def test_a_confirmation_the_clock_cuts_is_judged_on_the_pairs_it_took(monkeypatch, pairs):
    """The clock is read before each fresh pair, and a confirmation it cuts is judged on the pairs it took: a
    decision whose time ran out in the halving, or after one pair (no test: `_beats` wants two), answers its own
    play's pick however far ahead the challenger was; two pairs that agree on a gain answer the challenger. No
    fresh sample is taken past the clock."""
    import shared.engine.search as search_module

    view, seat, legal, found_lines = _three_lines()
    incumbent, challenger = found_lines[0].first, found_lines[1].first
    assert levels.HARD_CONFIRM > pairs
    found = levels.search(budget=Budget(iterations=12, ms=1000.0))
    confirming = _watch_confirming(monkeypatch, found)
    reads = {"confirming": 0}

    class Clock:  # stands still through the halving and the first `pairs` reads of the confirmation, then is late
        @staticmethod
        def perf_counter() -> float:
            if not confirming["now"]:
                return 0.0
            reads["confirming"] += 1
            return 0.0 if reads["confirming"] <= pairs else 1e9

    monkeypatch.setattr(search_module, "time", Clock)
    taken = {"fresh": 0}

    def sample(view, seat, line, seeds):
        taken["fresh"] += confirming["now"]
        return 0.9 if line.first == challenger else 0.5
    monkeypatch.setattr(found, "_sample", sample)
    result = found.run(view, seat, legal, random.Random(3))
    assert confirming["now"] and taken["fresh"] == 2 * pairs
    assert result.action == (challenger if pairs >= 2 else incumbent)


def test_a_confirmation_counts_samples_of_the_halving_only():
    """`confirm` is a number of fresh samples (none below 0), and only halving has a challenger to confirm; the
    Wizards search asked for UCT confirms nothing."""
    with pytest.raises(ValueError, match="confirm counts halving's fresh samples"):
        levels.search(confirm=-1)
    with pytest.raises(ValueError, match="confirm counts halving's fresh samples"):
        replace(levels.search(), root="uct", lines=None)
    assert levels.search(root="uct").confirm == 0 and levels.search().confirm == levels.HARD_CONFIRM
