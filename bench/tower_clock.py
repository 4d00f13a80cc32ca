"""What moves the Wizard King up the Ramp of Time in all-AI Tower matches, in process:
every climb of every match counted by its cause, for 2, 3 and 4 players.

    tower_climbs_<n>p_<cause>_share   the share of climbs by that cause (attacker's
                                      transformation, Spell of Transformation, Spell of
                                      Self-Transformation, patience: the King's authored wait)
    tower_patience_ended_<n>p_share   matches whose last climb (onto the Tower) was the King's patience
    tower_ramp_tokens_lost_<n>p       Ramp tokens per match that left the game unused
    tower_turns_<n>p                  turns per match (extra turns included), mean
"""
from __future__ import annotations

import random
from collections import Counter

from shared.engine import CHANCE, TERMINAL, MatchConfig
from shared.engine.playout import sample_chance
from shared.engine.registry import engine_for, policy_for

CAUSES = {"attacker's transformation": "attack", "Spell of Transformation": "spell",
          "Spell of Self-Transformation": "self", "patience": "patience"}


def play(seats: int, seed: int) -> tuple[Counter, bool, int, int]:
    """One all-AI match: climbs by cause, whether the last climb was patience, Ramp tokens lost, turns."""
    engine, policy = engine_for("tower"), policy_for("tower")
    rng = random.Random(seed)
    state = engine.setup(MatchConfig(seats))
    climbs: Counter = Counter()
    last, lost, turns = "", 0, 0
    while (who := engine.actor(state)) != TERMINAL:
        if who == CHANCE:
            state, events = engine.apply_chance(state, sample_chance(engine.chance_request(state), rng))
        else:
            legal = engine.legal_actions(state, who)
            state, events = engine.apply(state, who, policy(engine.view(state, who), who, legal, rng))
        for e in events:
            if e["type"] == "king_climbed":
                cause = CAUSES.get(e["cause"], e["cause"])
                climbs[cause] += 1
                last = cause
            elif e["type"] in ("ramp_token_lost", "ramp_token_discarded"):
                lost += 1
            elif e["type"] == "turn_started":
                turns += 1
    return climbs, last == "patience", lost, turns


def measure(matches: int = 12, seats_list: tuple[int, ...] = (2, 3, 4)) -> dict:
    out: dict = {}
    for seats in seats_list:
        total: Counter = Counter()
        ended = lost = turns = 0
        for m in range(matches):
            climbs, by_patience, gone, n = play(seats, 1000 * seats + m)
            total += climbs
            ended += by_patience
            lost += gone
            turns += n
        all_climbs = sum(total.values())
        for cause in CAUSES.values():
            out[f"tower_climbs_{seats}p_{cause}_share"] = total[cause] / all_climbs
        out[f"tower_patience_ended_{seats}p_share"] = ended / matches
        out[f"tower_ramp_tokens_lost_{seats}p"] = lost / matches
        out[f"tower_turns_{seats}p"] = turns / matches
    return out


if __name__ == "__main__":
    from bench.counts import counts

    (n,) = counts(__doc__, ("matches", 12))
    for name, value in measure(n).items():
        print(f"{name:<40} {value:>10.3f}")
