"""Wizards: how far a player's progress lead foretells who ends a whole game ahead, in process.

Whole 2-seat games of the normal policy (no time limit) are played, and seat 0's lead over seat 1
(shared/wizards/levels.py `lead`, what the hard level's rollouts are judged by) is read at the start
of each new day with its parts: the Rank margin, the Gem margin and the rest (the Order and the
points towards the next Rank). The figures (to read, not a test):

    foresight at f     the correlation of the lead at fraction f of the game with the final lead, and
                       how often their signs agree (games where neither is zero)
    persistence at f   the correlation of the lead's change over the next 5 days (about the hard
                       search's horizon) with its change from f to the end
    weights at f       least squares of the final lead on the Rank margin, the Gem margin and the
                       rest at f: what a judgement of the end would weigh, where `progress` weighs a
                       Rank 1 and a Gem 0.5

    python -m bench.wizards_foresight [GAMES]   (300 by default, about 4 minutes of one core)
"""
from __future__ import annotations

import random
import statistics

from shared.engine import MatchConfig
from shared.engine.playout import policy_playout
from shared.engine.registry import engine_for
from shared.wizards.levels import lead
from shared.wizards.policy import choose

CONFIG = MatchConfig(2, "standard", options={})  # no time limit: the whole game
FRACTIONS = (0.1, 0.25, 0.5, 0.75, 0.9)
HORIZON_DAYS = 5


def play(seed: int) -> dict:
    """One whole game: seat 0's final lead, and at each new day [lead, Rank margin, Gem margin]."""
    points: list[list[float]] = []
    last = None

    def seen(state) -> None:
        nonlocal last
        day = (state.calendar["fortnight"], state.calendar["day"])
        if state.phase == "play" and day != last:
            last = day
            me, other = state.players
            points.append([lead(state, 0), me["rank"] - other["rank"], len(me["gems"]) - len(other["gems"])])

    final, _ = policy_playout(engine_for("wizards"), CONFIG, choose, random.Random(seed), on_state=seen)
    return {"final": lead(final, 0), "points": points}


def correlation(x: list[float], y: list[float]) -> float:
    if len(x) < 2 or statistics.pstdev(x) == 0 or statistics.pstdev(y) == 0:
        return 0.0
    return statistics.correlation(x, y)


def least_squares(rows: list[list[float]], y: list[float]) -> list[float]:
    """b minimising |rows b - y| (the normal equations, solved by elimination); 0 for a column with no spread."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] + [sum(r[i] * t for r, t in zip(rows, y))]
         for i in range(n)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda i: abs(a[i][c]))
        a[c], a[pivot] = a[pivot], a[c]
        if abs(a[c][c]) < 1e-12:
            continue
        for i in range(n):
            if i != c:
                f = a[i][c] / a[c][c]
                a[i] = [u - f * v for u, v in zip(a[i], a[c])]
    return [a[i][n] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def figures(games: list[dict]) -> dict[float, dict]:
    """Per fraction of the game: foresight (correlation, sign agreement), persistence and weights."""
    games = [g for g in games if g["points"]]
    out: dict[float, dict] = {}
    for f in FRACTIONS:
        at = [g["points"][min(len(g["points"]) - 1, int(f * len(g["points"])))] for g in games]
        finals = [g["final"] for g in games]
        signed = [(p[0] > 0) == (t > 0) for p, t in zip(at, finals) if p[0] and t]
        later = [g["points"][min(len(g["points"]) - 1, int(f * len(g["points"])) + HORIZON_DAYS)] for g in games]
        rows = [[1.0, p[1], p[2], p[0] - p[1] - 0.5 * p[2]] for p in at]
        out[f] = {"foresight": correlation([p[0] for p in at], finals),
                  "agree": sum(signed) / len(signed) if signed else 0.0, "signed": len(signed),
                  "persistence": correlation([q[0] - p[0] for p, q in zip(at, later)],
                                             [t - p[0] for p, t in zip(at, finals)]),
                  "weights": least_squares(rows, finals)[1:]}
    return out


def main(argv: list[str] | None = None) -> None:
    from bench.counts import counts

    (count,) = counts(__doc__, ("games", 300), argv=argv)
    games = []
    for i in range(count):
        games.append(play(7000 + i))
        if (i + 1) % 25 == 0 or i + 1 == count:
            print(f"  {i + 1}/{count} games played", flush=True)
    ahead = sum(g["final"] > 0 for g in games)
    print(f"{count} whole 2-seat games of the normal policy: seat 0 ended ahead in {ahead}, level in "
          f"{sum(g['final'] == 0 for g in games)}")
    for f, row in figures(games).items():
        rank, gems, rest = row["weights"]
        print(f"at {f:.2f} of the game: foresight {row['foresight']:+.2f} (sign agrees in {row['agree']:.0%} of "
              f"{row['signed']}); persistence of a {HORIZON_DAYS}-day change {row['persistence']:+.2f}; "
              f"final ~ {rank:.2f} x Rank + {gems:.2f} x Gem + {rest:.2f} x the rest")


if __name__ == "__main__":
    main()
