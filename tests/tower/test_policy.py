"""The AI policy: legal, fast, sensible, and reading only its own view."""
from __future__ import annotations

import random

import pytest

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import policy_playout, sample_chance
from shared.tower.pack import pack
from shared.tower.policy import _best_odds, choose
from shared.tower.state import TowerState
from tests.tower.scenario import E, act, at, blank, castle, ramp, roll, top, wizard

P = pack()

CHARS = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}


def policy_game(seats: int, seed: int) -> TowerState:
    state, _ = policy_playout(E, MatchConfig(seats=seats), choose, random.Random(seed), 5000)
    return state


@pytest.mark.parametrize("seats,seed", [(2, 1), (3, 2), (4, 3)])
def test_policy_plays_only_legal_actions_to_the_end(seats, seed):
    """Every seat an AI: the game ends and every choice is legal (its speed is in `make bench`)."""
    assert E.outcome(policy_game(seats, seed)) is not None


def first_turn(chars=CHARS) -> TowerState:
    state = blank(4, chars)
    at(state, 0, "thornwood")
    return state


def test_goes_for_its_own_symbol():
    """General Strategy: explore for the Tokens that help you; your own symbol is a Pennant."""
    state = first_turn()
    castle(state, "foggy-fen", f"symbol:{wizard(state, 0)}", up=True)
    castle(state, "goldmeadow", "home:Ogre", up=True)
    action = choose(E.view(state, 0), 0, E.legal_actions(state, 0), random.Random(0))
    assert action["kind"] == "move" and action["to"] == "foggy-fen"


def test_takes_its_home_castles_pennants():
    """Home Castles: the Pennants count at the end; the policy adds them."""
    state = first_turn()
    castle(state, "goldmeadow", "home:Warrior")
    state, _ = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    chosen = choose(E.view(state, 0), 0, E.legal_actions(state, 0), random.Random(0))
    assert chosen == {"kind": "home", "choice": "pennants"}


def test_attacks_when_the_odds_are_good_and_not_when_they_are_bad():
    """General Strategy: 'Attack your opponents to increase your strength' - when the dice favour you."""
    good = first_turn()  # the Warrior rolls 5 against the Dwarf's 3
    castle(good, "goldmeadow", None, wizard=wizard(good, 1), count=3)
    assert choose(E.view(good, 0), 0, E.legal_actions(good, 0), random.Random(0))["to"] == "goldmeadow"
    bad = first_turn({0: "Orc", 1: "Dragon", 2: "Warrior", 3: "Ogre"})  # 2 dice against 5; the Tower no better
    castle(bad, "goldmeadow", None, wizard=wizard(bad, 1), count=1)
    picks = {choose(E.view(bad, 0), 0, E.legal_actions(bad, 0), random.Random(s)).get("to") for s in range(5)}
    assert "goldmeadow" not in picks


def test_transforms_when_the_matchup_is_bad_and_fights_when_it_is_good():
    """Attacker's Special Transformation Power: 'If you ... don't like the difference in strength ... change'."""
    for chars, expected in (({0: "Elf", 1: "Dragon", 2: "Warrior", 3: "Orc"}, "transform"),
                            ({0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}, "fight")):
        state = first_turn(chars)
        castle(state, "goldmeadow", f"symbol:{wizard(state, 1)}")
        state, _ = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
        assert top(state)["stage"] == "ready"
        assert choose(E.view(state, 0), 0, E.legal_actions(state, 0), random.Random(0))["kind"] == expected


def test_rerolls_a_losing_defence_and_keeps_a_winning_one():
    """Defender's Special Pennant Power: 'If you think you can improve your combat roll, you have the option of
    re-rolling'."""
    state = first_turn()
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=3)
    state, _ = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    state, _ = act(state, 0, {"kind": "fight"})
    losing, _ = roll(state, [5, 4, 1, 1, 1], [3, 2, 1])
    action = choose(E.view(losing, 1), 1, E.legal_actions(losing, 1), random.Random(0))
    assert action["kind"] == "reroll"
    winning, _ = roll(state, [5, 4, 1, 1, 1], [6, 2, 1])
    assert choose(E.view(winning, 1), 1, E.legal_actions(winning, 1), random.Random(0)) == {"kind": "accept"}


def test_chooses_from_the_redacted_view_alone():
    """AI seats act through the public API: the policy works on a view where tokens and the Tower are hidden."""
    state = first_turn()
    castle(state, "goldmeadow", f"symbol:{wizard(state, 0)}")  # face down: the policy cannot know
    view = E.view(state, 0)
    assert view["board"]["goldmeadow"]["token"] == {"up": False} and "chambers" not in view["tower"]
    action = choose(view, 0, E.legal_actions(state, 0), random.Random(0))
    assert action in E.legal_actions(state, 0)


def test_policy_beats_random_play():
    """General Strategy: 'The player who takes advantage of all the opportunities will be victorious' - one AI
    seat among random players wins far more often than its share (fixed seeds: a repeatable measurement)."""
    wins = 0
    for seed in range(8):
        rng = random.Random(seed)
        state, ai = E.setup(MatchConfig(seats=4)), seed % 4
        while (who := E.actor(state)) != TERMINAL:
            if who == CHANCE:
                state, _ = E.apply_chance(state, sample_chance(E.chance_request(state), rng))
                continue
            legal = E.legal_actions(state, who)
            action = choose(E.view(state, who), who, legal, rng) if who == ai else rng.choice(legal)
            state, _ = E.apply(state, who, action)
        wins += ai in E.outcome(state).winners
    assert wins >= 5, f"the policy won {wins} of 8 four-player games; chance alone gives 2"


def test_takes_back_its_home_castle():
    """Home Castles: 'you may remove them and replace them with your own color' - a swing the policy takes."""
    state = first_turn({0: "Elf", 1: "Dwarf", 2: "Warrior", 3: "Orc"})
    at(state, 0, "goldmeadow")
    castle(state, "thornwood", "home:Elf", up=True, wizard=wizard(state, 2), count=4)
    state, _ = act(state, 0, {"kind": "move", "to": "thornwood", "path": [["walk", "thornwood"]]})
    legal = E.legal_actions(state, 0)
    assert choose(E.view(state, 0), 0, legal, random.Random(0)) == {"kind": "home", "choice": "reclaim"}


def test_counts_the_defenders_rerolls_before_attacking():
    """Defender's Special Pennant Power: 5 Pennants give the defender 4 re-rolls, which turns an attack that looks
    worth it on the bare dice (a third of a chance to win 6 Pennants' swing) into a bad one; the policy stays away."""
    state = first_turn({0: "Orc", 1: "Dragon", 2: "Warrior", 3: "Ogre"})
    castle(state, "goldmeadow", None, wizard=wizard(state, 1), count=5)
    view = E.view(state, 0)
    bare = _best_odds(view, 0, 1)
    assert bare * 6 - (1 - bare) > 1, "on the bare dice the attack would look good"
    assert _best_odds(view, 0, 1, 5) < bare - 0.15
    picks = {choose(view, 0, E.legal_actions(state, 0), random.Random(s)).get("to") for s in range(5)}
    assert "goldmeadow" not in picks


def at_the_ready(chars=CHARS, king: int = 0, ramp_tokens: dict | None = None, lead: int = 0) -> TowerState:
    """Seat 0 has landed on seat 1's symbol and must fight or transform; seat 0 leads by `lead` Pennants."""
    state = first_turn(chars)
    castle(state, "goldmeadow", f"symbol:{wizard(state, 1)}")
    if lead:
        castle(state, "frostpeak", None, wizard=wizard(state, 0) if lead > 0 else wizard(state, 2), count=abs(lead))
    state.king = king
    ramp(state, ramp_tokens or {})
    state, _ = act(state, 0, {"kind": "move", "to": "goldmeadow", "path": [["walk", "goldmeadow"]]})
    assert top(state)["stage"] == "ready"
    return state


def test_transforms_to_take_the_ramp_token_on_the_next_step():
    """The Wizard King's Ramp: 'If he lands on a Token, take it' - a battle the AI would fight as it is is worth a
    transformation when it brings the Ramp token on the next step (Battle Sequence: it is used after the battle)."""
    chars = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}  # 5 dice against 3: the Tower is worse on average
    plain = at_the_ready(chars)
    assert choose(E.view(plain, 0), 0, E.legal_actions(plain, 0), random.Random(0))["kind"] == "fight"
    token = at_the_ready(chars, king=3, ramp_tokens={"4": "ramp:conquer"})
    assert choose(E.view(token, 0), 0, E.legal_actions(token, 0), random.Random(0))["kind"] == "transform"


def test_a_leader_transforms_on_the_last_step_to_end_the_game():
    """Winning the Game: 'The game ends when the Wizard King makes the final step ... If game play calls for one
    final battle at this time ... wage the final battle'. Ahead by more than the battle can swing, the AI moves the
    King onto the Tower; behind, it does not hurry the end."""
    chars = {0: "Warrior", 1: "Dwarf", 2: "Elf", 3: "Orc"}  # a battle it would fight as it is
    ahead = at_the_ready(chars, king=P.ramp_steps, lead=4)
    assert choose(E.view(ahead, 0), 0, E.legal_actions(ahead, 0), random.Random(0))["kind"] == "transform"
    behind = at_the_ready(chars, king=P.ramp_steps, lead=-4)
    assert choose(E.view(behind, 0), 0, E.legal_actions(behind, 0), random.Random(0))["kind"] == "fight"


def test_all_ai_matches_are_timed_by_the_tower_not_the_kings_patience():
    """The Wizard King's Ramp: 'This is the game's timer ... moves up one step every time the Tower is used'. In
    all-AI matches the players' transformations move the King; the authored patience is a rare safety net."""
    from bench.tower_clock import measure

    figures = measure(matches=4)
    for seats in (2, 3, 4):
        assert figures[f"tower_climbs_{seats}p_patience_share"] < 0.15
        assert figures[f"tower_climbs_{seats}p_attack_share"] > 0.6
