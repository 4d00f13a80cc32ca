"""Incantris's AI levels and the search under `hard` (shared/engine/search.py, shared/incantris/determinize.py,
shared/incantris/levels.py). Everything in Incantris is public ("public information": life points and wizard
boards), so a seat's view is the whole state and a determinization is that state rebuilt exactly; the search is
repeatable for a seed, always answers a legal action, in every scenario and the solo game (where the attacking
team is the engine's, not a seat), and every level plays a whole match to its end."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.engine import MatchConfig, registry
from shared.engine.contract import CHANCE
from shared.engine.playout import policy_playout, random_playout, sample_chance
from shared.engine.search import Budget, Line
from shared.incantris import levels
from shared.incantris.determinize import determinize
from shared.incantris.policy import choose
from tests.incantris.support import E
from tests.support.positions import decision_points

# (scenario, seats): every scenario, the solo game, two to four players
TABLES = (("battle-royale", 2), ("battle-royale", 3), ("battle-royale", 4), ("crystal-sap", 2),
          ("capture-the-crystal", 3), ("shifting-arena", 2), ("solo", 1), ("campaign", 2))


def positions(variant: str, seats: int, seed: int, every: int = 7, policy=choose, max_steps: int = 1500) -> list:
    """States of one match (the normal policy's, or random play's with policy=None), every `every`-th one where a
    seat has a choice to make (tests/support/positions.py)."""
    return decision_points(E, MatchConfig(seats, variant), seed, every, policy, max_steps=max_steps)


# --- the determinizer -----------------------------------------------------------------
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), table=st.sampled_from(TABLES))
def test_a_determinization_is_exactly_the_state_its_view_shows(seed, table):
    """Public information (life points and wizard boards are public; the view is the whole state and its viewer):
    for random reachable states of every scenario, determinize(view(state, seat)) encodes exactly as the state,
    keeps every invariant, and is a copy (playing on from it leaves the view untouched)."""
    variant, seats = table
    fill = random.Random(seed ^ 0x5EED)
    checked = {"n": 0}

    def check(state):
        seat = fill.randrange(state.seats)
        v = E.view(state, seat)
        before = repr(v)
        sample = determinize(v, seat, fill)
        assert E.encode(sample) == E.encode(state)
        E.check_invariants(sample)
        assert E.view(sample, seat) == v
        who = E.actor(sample)
        if who >= 0:
            legal = E.legal_actions(sample, who)
            assert legal == E.legal_actions(state, who)
            E.apply(sample, who, legal[-1])
        assert repr(v) == before
        checked["n"] += 1

    random_playout(E, MatchConfig(seats, variant), random.Random(seed), max_steps=400, on_state=check)
    assert checked["n"] > 30


def test_the_normal_policy_chooses_on_the_searchs_glance_exactly_as_on_the_view():
    """levels.glance (the state's JSON with its viewer, not copied) gives the policy's choice on the view, and the
    policy leaves the state it glanced at unchanged."""
    n = 0
    for k, (variant, seats) in enumerate(TABLES):
        for j, state in enumerate(positions(variant, seats, 40 + k, every=5)):
            seat = E.actor(state)
            legal = E.legal_actions(state, seat)
            before = E.encode(state)
            assert choose(levels.glance(state, seat), seat, legal, random.Random(j)) == \
                choose(E.view(state, seat), seat, legal, random.Random(j))
            assert E.encode(state) == before
            n += 1
    assert n > 100


# --- the search -------------------------------------------------------------------------
def small(iterations: int = 6, horizon: float = 8, root: str = "uct"):
    """A search that runs every iteration of its budget (no early stop), so whole statistics compare."""
    return replace(levels.search(Budget(iterations=iterations, ms=None), horizon=horizon, root=root), settle=False)


# (root, horizon): the tree over single actions with a horizon in steps (served before), and halving over the
# plans for a turn with one in rounds of the table (served)
SEARCHES = (("uct", 8), ("lines", 1))


@pytest.mark.parametrize("root,horizon", SEARCHES)
def test_the_search_is_repeatable_for_a_seed(root, horizon):
    """Same view, same seed, an iteration budget: the same choice from the same statistics, with that many
    iterations (halving: at most that many, or one a candidate if there are more)."""
    search = small(6, horizon, root)
    compared = 0
    for variant, seats, seed in (("battle-royale", 2, 11), ("solo", 1, 12), ("crystal-sap", 3, 13)):
        for state in positions(variant, seats, seed, every=11)[:3]:
            seat = E.actor(state)
            legal = E.legal_actions(state, seat)
            v = E.view(state, seat)
            a = search.run(v, seat, legal, random.Random(42))
            b = search.run(v, seat, legal, random.Random(42))
            assert a.action == b.action and a.children == b.children
            assert a.iterations == b.iterations
            # halving: at most the budget, or one sample a line if there are more lines than that
            weighed = len(levels.lines(v, seat, legal))
            assert a.iterations in (0, 6) if root == "uct" else a.iterations <= max(6, weighed)
            compared += a.iterations > 0
    assert compared >= 5


def test_a_line_is_judged_once_every_side_has_answered_it():
    """The served search's horizon counts rounds of the table from before the line's first action: a line's rollout
    stops when every side has begun `horizon` turns after the seat's (or the match ends), whatever the steps on
    the way, and a line that ends the turn at once is judged at the same point as one that acts first: in a duel,
    at the start of the seat's next turn."""
    state = next(s for s in positions("battle-royale", 2, 15, every=3)[2:]
                 if {"kind": "end"} in E.legal_actions(s, E.actor(s)) and len(E.legal_actions(s, E.actor(s))) > 3)
    seat = E.actor(state)
    legal = E.legal_actions(state, seat)
    v = E.view(state, seat)
    judged: list = []
    for horizon in (1, 2, 3):
        search = replace(small(4, horizon, "lines"), value=lambda engine, s, who: judged.append(s) or 0.5)
        for k, action in enumerate([a for a in legal if a["kind"] != "end"][:3] + [{"kind": "end"}]):
            search._sample(v, seat, Line(action), (k, k + 1, k + 2))
            end = judged[-1]
            assert end.phase == "over" or end.serial - state.serial == 2 * horizon


def test_paired_lines_meet_the_same_dice_on_the_turns_after_their_own():
    """Two lines that roll differently on the seat's turn still get the same dice for every roll of the turns
    after it (common random numbers keyed by the point of play), and a sample is repeatable for its seeds."""
    search = small(4, 1, "lines")
    drawn: dict = {}

    def recording(state, rng):
        drawn[key].setdefault(levels.side_turns(state), []).append(rng.getstate())
        return rolling(state, rng)

    rolling = search._roll
    search._roll = recording  # type: ignore[method-assign]
    compared = 0
    for state in positions("battle-royale", 2, 16, every=2):
        seat = E.actor(state)
        v = E.view(state, seat)
        found = levels.lines(v, seat, E.legal_actions(state, seat))
        casting = [line for line in found if line.first["kind"] == "cast"]
        holding = [line for line in found if line.first["kind"] in ("step", "end") and line.then is not None]
        if not casting or not holding:
            continue
        for key, line in enumerate((casting[0], holding[0])):
            drawn[key] = {}
            search._sample(v, seat, line, (7, 8, 9))
        own = levels.side_turns(state)
        if len(drawn[0].get(own, [])) == len(drawn[1].get(own, [])):
            continue  # the lines rolled alike on the seat's own turn: nothing to tell apart
        for at in set(drawn[0]) & set(drawn[1]):
            if at > own:
                n = min(len(drawn[0][at]), len(drawn[1][at]))
                assert drawn[0][at][:n] == drawn[1][at][:n]
                compared += n
        again = dict(drawn[1])
        drawn[1] = {}
        search._sample(v, seat, holding[0], (7, 8, 9))
        assert drawn[1] == again
    assert compared > 0


@pytest.mark.parametrize("root,horizon", SEARCHES)
def test_hard_never_answers_an_illegal_action(root, horizon):
    """Positions of every scenario, the solo game and two to four players, from normal and from random play,
    every kind of decision: the answer is one of the legal actions."""
    search = levels.search(Budget(iterations=2, ms=None), horizon=horizon, root=root)
    kinds = set()
    n = 0
    for k, (variant, seats) in enumerate(TABLES):
        for policy, every in ((choose, 13), (None, 17)):
            for state in positions(variant, seats, 60 + k, every=every, policy=policy, max_steps=600):
                seat = E.actor(state)
                legal = E.legal_actions(state, seat)
                pick = search.choose(E.view(state, seat), seat, legal, random.Random(k))
                assert pick in legal
                kinds.add(pick["kind"])
                n += 1
    assert n > 100 and {"step", "cast", "end", "activate"} <= kinds


def test_the_shortlist_keeps_the_policys_pick_and_only_legal_actions():
    """The root's candidates on a wizard's turn: at most HARD_SHORTLIST legal actions, the normal policy's own pick
    first; another decision keeps every action."""
    trimmed = 0
    for k, (variant, seats) in enumerate(TABLES[:4] + TABLES[6:7]):
        for state in positions(variant, seats, 80 + k, every=3):
            seat = E.actor(state)
            legal = E.legal_actions(state, seat)
            v = E.view(state, seat)
            kept = levels.shortlist(v, seat, legal)
            assert kept and all(a in legal for a in kept) and len(kept) == len({repr(a) for a in kept})
            assert len(kept) == min(len(legal), levels.HARD_SHORTLIST) or kept == legal
            if len(kept) < len(legal):
                assert kept[0] == choose(v, seat, legal, random.Random(0))
                trimmed += 1
    assert trimmed > 20


def test_the_lines_are_plans_for_the_turn_led_by_the_policys_own_play():
    """On a wizard's turn in a fight, the search weighs whole plans: the normal policy's own play first (the
    incumbent), then places to cast from and places out of the foes' reach, each starting with a legal action; any
    other decision weighs the shortlist's actions one by one."""
    planned = 0
    for k, (variant, seats) in enumerate((("battle-royale", 2), ("battle-royale", 4), ("solo", 1), ("crystal-sap", 2))):
        for state in positions(variant, seats, 90 + k, every=3):
            seat = E.actor(state)
            legal = E.legal_actions(state, seat)
            v = E.view(state, seat)
            found = levels.lines(v, seat, legal)
            assert found[0] == Line(choose(v, seat, legal, random.Random(0)))
            assert all(line.first in legal for line in found)
            if any(line.then is not None for line in found):
                assert state.scenario in ("battle-royale", "solo") or state.quiet >= 2
                planned += 1
            else:
                assert [line.first for line in found[1:]] == [a for a in levels.shortlist(v, seat, legal)
                                                             if a != found[0].first]
    assert planned > 20


def test_a_line_walks_its_path_then_casts_and_then_leaves_the_turn_to_the_policy():
    """Followed on the real engine, a plan to cast from a place enters its path's hexes one by one, casts its
    spell from the place, and then is over (the policy plays the rest of the turn); a line meant for another
    turn is over at once."""
    followed = moved_on = 0
    for state in positions("battle-royale", 2, 31, every=2):
        seat = E.actor(state)
        legal = E.legal_actions(state, seat)
        v = E.view(state, seat)
        for line in levels.lines(v, seat, legal)[1:]:
            if line.then is None or line.first["kind"] != "step":
                continue
            s, _ = E.apply(state, seat, line.first)
            played = [line.first]
            if E.actor(s) == seat and line.then(s, seat, E.legal_actions(s, seat)) is not None:
                later = E.decode(E.encode(s))
                later.serial += 1  # the same position on another turn: the line is not followed there
                assert line.then(later, seat, E.legal_actions(s, seat)) is None
                moved_on += 1
            while E.actor(s) in (seat, CHANCE):
                if E.actor(s) == CHANCE:
                    s, _ = E.apply_chance(s, sample_chance(E.chance_request(s), random.Random(len(played))))
                    continue
                nxt = line.then(s, seat, E.legal_actions(s, seat))
                if nxt is None:
                    break
                played.append(nxt)
                s, _ = E.apply(s, seat, nxt)
            kinds = [a["kind"] for a in played]
            assert kinds[-1] in ("cast", "end") and set(kinds[:-1]) == {"step"}
            followed += 1
    assert followed > 10 and moved_on > 5


def test_the_value_is_the_win_blended_with_the_life_margin():
    """A won match is worth more than any unfinished one, a lost one less; an unfinished one rises with the seat's
    side's life and falls with its foes'."""
    state = positions("battle-royale", 2, 5, every=20)[2]
    final, _ = policy_playout(E, MatchConfig(2), choose, random.Random(5))
    winner = final.sides[final.result["winners"][0]]["seat"]
    assert levels.value(E, final, winner) > 0.5 + levels.MARGIN_WEIGHT / 2 - 1e-9
    assert levels.value(E, final, 1 - winner) < 0.5 - levels.MARGIN_WEIGHT / 2 + 1e-9
    seat = E.actor(state)
    base = levels.value(E, state, seat)
    hurt = E.decode(E.encode(state))
    mine = next(w for w in hurt.wizards.values() if hurt.sides[w["side"]]["seat"] == seat and w["alive"])
    mine["life"] = max(1, mine["life"] - 3)
    foe = E.decode(E.encode(state))
    theirs = next(w for w in foe.wizards.values() if foe.sides[w["side"]]["seat"] != seat and w["alive"])
    theirs["life"] = max(1, theirs["life"] - 3)
    assert levels.value(E, hurt, seat) < base <= levels.value(E, foe, seat)


# --- the levels ---------------------------------------------------------------------------
def test_the_registry_offers_easy_normal_and_hard_for_incantris():
    assert registry.levels_for("incantris") == ("easy", "normal", "hard")
    assert registry.policy_for("incantris") is choose and registry.policy_for("incantris", "normal") is choose
    assert callable(registry.policy_for("incantris", "easy")) and callable(registry.policy_for("incantris", "hard"))
    assert registry.policy_for("incantris", "hard") is registry.policy_for("incantris", "hard")


def test_every_level_plays_a_whole_match_to_its_end():
    """A battle royale of easy against normal against hard (a small budget), and the solo game at each level
    against the attacking team: each ends, every pick legal."""
    hard = levels.hard(Budget(iterations=2, ms=None), horizon=6)
    at = {"easy": registry.policy_for("incantris", "easy"), "normal": choose, "hard": hard}
    seen = set()

    def table(order):
        def policy(v, s, legal, rng):
            pick = at[order[s]](v, s, legal, rng)
            assert pick in legal
            seen.add(order[s])
            return pick
        return policy

    final, _ = policy_playout(E, MatchConfig(3), table(("easy", "normal", "hard")), random.Random(3))
    assert E.outcome(final) is not None
    for level in ("easy", "normal", "hard"):
        final, _ = policy_playout(E, MatchConfig(1, "solo"), table((level,)), random.Random(4))
        assert E.outcome(final) is not None and final.phase == "over"
    assert seen == {"easy", "normal", "hard"}


def test_a_kill_weighs_more_than_the_same_life_taken_from_wizards_who_live_on():
    """A wizard on one life point casts as hard as a whole one, so the search's strength of a side counts its wizards
    alive beside their life (ALIVE_WEIGHT): the same points taken as a kill leave the foes weaker than spread."""
    state = positions("battle-royale", 2, 5, every=20)[2]
    seat = E.actor(state)

    def foes_hurt(kill: bool):
        s = E.decode(E.encode(state))
        theirs = [w for w in s.wizards.values() if s.sides[w["side"]]["seat"] != seat and w["alive"]]
        assert len(theirs) >= 3 and all(w["life"] >= 3 for w in theirs)
        first, second, third = theirs[:3]
        first["life"] = 2
        if kill:
            first["life"], first["alive"] = 0, False
        else:
            second["life"] -= 1
            third["life"] -= 1
        return s, first["side"]

    killed, side = foes_hurt(True)
    spread, _ = foes_hurt(False)
    assert levels.strength(killed, side) < levels.strength(spread, side)
    assert levels.value(E, killed, seat) > levels.value(E, spread, seat)


def test_plans_belong_to_halving_not_to_uct():
    """A search is refused the combinations it has no meaning for, rather than silently ignoring them: plans
    are compared on paired samples; a clock of play is UCT's too (its rollouts judged that far on)."""
    served = levels.search(Budget(iterations=2, ms=None))
    assert served.root == "halving" and served.lines is not None and served.tempo is not None
    with pytest.raises(ValueError, match="not for UCT"):
        replace(served, root="uct")
    assert replace(served, root="uct", lines=None).tempo is served.tempo


def test_the_solo_game_is_served_its_own_search(monkeypatch):
    """The solo game's hard level is the tree over single actions (HARD_VARIANTS: it beat plans for the turn against
    the game's own attackers); every other scenario is served plans for the turn. The served level asks each view's
    scenario for its search, and builds each scenario's once."""
    solo, royale = levels.served_search("solo"), levels.served_search("battle-royale")
    assert solo.root == "uct" and solo.lines is None and (solo.budget.iterations, solo.budget.ms) == (16, 700.0)
    assert royale.root == "halving" and royale.lines is not None and royale.budget == levels.HARD_BUDGET
    asked: list[str] = []

    def built(scenario):
        asked.append(scenario)
        small = Budget(iterations=2, ms=None)
        return levels.search(small, horizon=6, root="uct") if scenario == "solo" else levels.search(small)

    monkeypatch.setattr(levels, "served_search", built)
    hard = levels.served()
    for variant, seats in (("solo", 1), ("battle-royale", 2), ("solo", 1)):
        state = positions(variant, seats, 7, every=9)[1]
        seat = E.actor(state)
        legal = E.legal_actions(state, seat)
        assert hard(E.view(state, seat), seat, legal, random.Random(1)) in legal
    assert asked == ["solo", "battle-royale"]
    assert dict(registry.GAMES["incantris"].levels)["hard"] == "shared.incantris.levels:served"
