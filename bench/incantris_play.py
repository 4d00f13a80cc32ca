"""Incantris, whole matches in process, every seat on the AI policy (shared/incantris/policy.py):

    incantris_solo_win_rate        solo games the player's team wins against the attacking wizards
    incantris_solo_greedy_rate     the same for a greedy player (best expected damage now, else close in)
    incantris_red_share            2-player Battle Royale self-play (red seat 0 against blue seat 1):
                                   the share red wins
    incantris_red_share_swapped    the same with the teams swapped (blue seat 0, red seat 1): red's share
    incantris_seat0_share          seat 0's share over both (the first player's edge alone)
    incantris_max_rounds           the longest match in rounds (the stalemate bounds it: scenarios.py)
    incantris_stalemates           matches the authored stalemate ended

    python -m bench.incantris_play [solo games] [2-player games per order]
"""
from __future__ import annotations

import random

from shared.engine import MatchConfig
from shared.engine.playout import policy_playout
from shared.hexgrid import distance
from shared.incantris import dice, match
from shared.incantris.arena import as_hex
from shared.incantris.engine import IncantrisEngine
from shared.incantris.pack import load
from shared.incantris.policy import DAMAGE, choose
from shared.incantris.state import IncantrisState

E = IncantrisEngine()


def greedy(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """The baseline: the damage cast with the most expected hits now, else a step toward the
    nearest foe, else the policy's answer (set-up, dice choices) or the end of the turn."""
    s = IncantrisState.of_view(view)
    if s.turn is None or not s.turn.get("wizard") or s.queue:
        return choose(view, seat, legal, rng)
    me = match.side_of_seat(s, seat)
    w = match.wizard(s, s.turn["wizard"])
    power = match.kind(w).power

    def hurt(a):
        spell = load().spells[a["spell"]]
        if isinstance(a["target"], str):
            x = match.wizard(s, a["target"])
            if x["side"] == me:
                return -1.0
            return dice.expected_wands({"dice": spell.dice, "plus": spell.plus}) - dice.expected_wards(
                dice.ward_roll(s, x, power))
        return 0.0

    casts = [a for a in legal if a["kind"] == "cast" and a["spell"] in DAMAGE and isinstance(a["target"], str)]
    if casts:
        best = max(casts, key=hurt)
        if hurt(best) > 0:
            return best
    steps = [a for a in legal if a["kind"] == "step"]
    foes = [as_hex(x["hex"]) for x in match.on_board(s) if x["side"] != me]
    if steps and foes and not s.turn["cast"]:
        here = as_hex(w["hex"])
        near = min(distance(here, f) for f in foes)
        best_step = min(steps, key=lambda a: min(distance(as_hex(a["to"]), f) for f in foes))
        if near > 1 and min(distance(as_hex(best_step["to"]), f) for f in foes) < near:
            return best_step
    return {"kind": "end"} if {"kind": "end"} in legal else choose(view, seat, legal, rng)


def solo_rate(policy, games: int, seed: int = 0) -> float:
    won = 0
    for i in range(games):
        state, _ = policy_playout(E, MatchConfig(1, "solo"), policy, random.Random(seed + i), max_steps=200_000)
        o = E.outcome(state)
        won += bool(o is not None and o.winners)
    return won / games


def duel(teams: list[str], games: int, seed: int = 0) -> tuple[list[int], int, int]:
    wins = [0, 0]
    longest = stalemates = 0
    for i in range(games):
        state, _ = policy_playout(E, MatchConfig(2, "battle-royale", {"teams": teams}), choose,
                                  random.Random(seed + i), max_steps=200_000)
        for side in state.result["winners"]:
            wins[side] += 1
        longest = max(longest, state.round)
        stalemates += bool(state.result.get("stalemate"))
    return wins, longest, stalemates


def measure(solo_games: int = 200, duel_games: int = 40) -> dict:
    out: dict = {"incantris_solo_win_rate": solo_rate(choose, solo_games),
                 "incantris_solo_greedy_rate": solo_rate(greedy, solo_games)}
    rb, l1, s1 = duel(["red", "blue"], duel_games)
    br, l2, s2 = duel(["blue", "red"], duel_games, seed=10_000)
    out["incantris_red_share"] = rb[0] / duel_games
    out["incantris_red_share_swapped"] = br[1] / duel_games
    out["incantris_seat0_share"] = (rb[0] + br[0]) / (2 * duel_games)
    out["incantris_max_rounds"] = max(l1, l2)
    out["incantris_stalemates"] = s1 + s2
    return out


if __name__ == "__main__":
    from bench.counts import counts

    for name, value in measure(*counts(__doc__, ("solo_games", 200), ("duel_games", 40))).items():
        print(f"{name:<32} {value:>10.3f}")
