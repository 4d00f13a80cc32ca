"""Incantris's AI levels (shared/engine/levels.py): easy, normal (policy.choose) and hard.

* easy: the default of shared/engine/levels.py, the normal policy with `EASY_NOISE` of its
  choices (where there is one) replaced by another legal action at random.
* hard: the determinized search (shared/engine/search.py) over determinize.py's states (the view
  is the whole state: only the dice to come are sampled), the normal policy playing the other
  seats, the solo game's attacking team being the engine's own (attackers.py) as always. A turn
  is a plan (walk to a hex, cast from it, step back), so on a wizard's turn in a fight the search
  weighs `lines`, whole plans for the turn: the policy's own play, its best blows each from the
  best place for it, and the places fewest foes can answer. Every plan is played out on the same
  sampled dice (paired: the dice of the turns after it do not depend on how many the plan rolled)
  until every side has answered it (`HARD_HORIZON`), and judged by `value`: the win blended with
  the margin of strength, where a kill counts beyond the life it took. The policy's play is kept
  unless another plan's paired gain is clear (`HARD_BIAS` standard errors). Any other decision
  weighs `shortlist`'s actions one by one. `HARD_BUDGET` is what one decision may spend;
  bench/strength.py measures think time and strength. The solo game is served its own settings
  (`HARD_VARIANTS`, `served`): the tree over single actions, which beat the plans there.
"""
from __future__ import annotations

import random

from shared.engine.contract import GameEngine
from shared.engine.registry import engine_for
from shared.engine.search import Budget, Follow, Line, Search, blended, outcome_value
from shared.hexgrid import Hex, distance
from shared.incantris import match, policy, setup
from shared.incantris.arena import as_hex
from shared.incantris.determinize import determinize
from shared.incantris.policy import choose
from shared.incantris.state import IncantrisState

HARD_BUDGET = Budget(iterations=32, ms=900.0)
HARD_ROOT = "lines"  # halving over `lines`, the plans for a turn; "uct": the tree over `shortlist`'s actions
HARD_HORIZON = 1  # rounds of the table from the decision before a line is judged (uct: steps)
HARD_BIAS = 2.0  # standard errors of paired gain a line needs over the policy's own play (uct: its bias)
HARD_EXPLORATION = 0.6  # uct only
HARD_SHORTLIST = 6  # actions weighed one by one where a decision is no turn's plan (0: all of them)
HARD_BLOWS = 4  # blows (a spell and its target, from the best place for it) weighed beside the policy's play
# Each scenario's own settings (keyed by scenario), where they differ from those above. The solo game keeps the
# tree over single actions (UCT) it was first served with: against the game's own attackers it won 78.5% of 200
# games where plans for the turn won 69.5%, and on the same 200 seeds it won 43 that the plans lost, the plans 25
# that it lost.
HARD_VARIANTS: dict[str, dict] = {"solo": {"iterations": 16, "ms": 700.0, "horizon": 16, "bias": 1.0, "root": "uct"}}
MARGIN_WEIGHT = 0.5  # share of the value given to the life margin, the rest to the win
ALIVE_WEIGHT = 0.5  # share of a side's strength given to its wizards alive, the rest to their life


def strength(state: IncantrisState, side: int) -> float:
    """A side's living wizards' life over its wizards' full life, in [0, 1] (0 for a side out),
    blended (`ALIVE_WEIGHT`) with the share of its wizards alive: a wizard left with one life point
    still casts as hard as a whole one, so a kill is worth more than the points it took."""
    full = life = count = alive = 0
    for w in state.wizards.values():
        if w["side"] == side:
            full += w["max"]
            count += 1
            if w["alive"]:
                life += w["life"]
                alive += 1
    if not full:
        return 0.0
    return (1 - ALIVE_WEIGHT) * min(1.0, life / full) + ALIVE_WEIGHT * alive / count


def value(engine: GameEngine, state: IncantrisState, seat: int) -> float:
    """The end of a rollout for `seat`, in [0, 1]: (1 - w) x the win (a tie shared, 1/2 for a
    match not over) + w x the margin of its side's `strength` (life and wizards alive) over the
    strongest other side's (the solo game's attacking team included), scaled from -1 (routed) to 1."""
    win = outcome_value(engine, state, seat)
    me = match.side_of_seat(state, seat)
    if me is None:
        return win
    others = [strength(state, i) for i in range(len(state.sides)) if i != me]
    return blended(win, strength(state, me) - (max(others) if others else 0.0), MARGIN_WEIGHT)


def glance(state: IncantrisState, seat: int) -> dict:
    """What the normal policy is shown of a state inside the search: its JSON, not copied, with the
    viewer, which is exactly engine.view's content (policy.choose reads it through
    IncantrisState.of_view and changes nothing; tests/incantris/test_levels.py holds it)."""
    data = dict(state.to_json())
    data["viewer"] = seat
    return data


def shortlist(view: dict, seat: int, legal: list[dict], keep: int = HARD_SHORTLIST) -> list[dict]:
    """The root's candidates on a wizard's turn: the normal policy's own pick, its best-rated spells
    (policy._value), ending the turn, the step nearest the foes and the one farthest from them, then
    the rest in the legal order, `keep` in all. Any other decision (set-up, a choice asked out of
    turn) keeps all its actions."""
    if len(legal) <= keep or not any(a["kind"] in ("step", "cast") for a in legal):
        return legal
    seen = IncantrisState.of_view(view)
    me = match.side_of_seat(seen, seat)
    acting = seen.turn.get("wizard") if seen.turn else None
    w = match.wizard(seen, acting) if acting else None
    order: list[dict] = [choose(view, seat, legal, random.Random(0))]
    casts = [a for a in legal if a["kind"] == "cast"]
    if w is not None and casts:
        rated = sorted(casts, key=lambda a: (-policy._value(seen, me, w, a), repr(a)))
        order += rated[:2]
    if {"kind": "end"} in legal:
        order.append({"kind": "end"})
    steps = [a for a in legal if a["kind"] == "step"]
    foes = [as_hex(x["hex"]) for x in match.on_board(seen) if x["side"] != me]
    if steps and foes:
        def near(a):
            return (min(distance(as_hex(a["to"]), f) for f in foes), repr(a))
        ranked = sorted(steps, key=near)
        order += [ranked[0], ranked[-1]]
    order += legal
    kept: list[dict] = []
    for a in order:
        if a in legal and a not in kept:
            kept.append(a)
        if len(kept) >= keep:
            break
    return kept


def side_turns(state: IncantrisState) -> float:
    """The search's clock (`tempo`): turns begun, in rounds of the table (a turn for every side), so
    that a horizon of 1 judges a plan once every other side has answered it. It divides by every side
    the match began with, out or not: a clock that sped up when a side went out would cut short
    the very plan that put it out (once a side is out, a round of the table is a turn longer)."""
    return state.serial / len(state.sides)


def walking(wid: str, serial: int, path: list[Hex], last: dict | None) -> Follow:
    """A line's way on (search.Line.then): on turn `serial` of wizard `wid`, enter the hexes of
    `path` one by one, then play `last` (a cast, or ending the turn); anything else, or a step the
    state does not allow, ends the line and the policy plays on."""

    def then(state: IncantrisState, seat: int, legal: list[dict]) -> dict | None:
        t = state.turn
        if state.serial != serial or not t or t.get("wizard") != wid:
            return None
        here = as_hex(match.wizard(state, wid)["hex"])
        rest = path[path.index(here) + 1:] if here in path else path
        if rest:
            action: dict | None = {"kind": "step", "to": list(rest[0])}
        elif last is not None and not (last["kind"] == "cast" and t["cast"]):
            action = last
        else:
            return None
        return action if action in legal else None

    return then


def lines(view: dict, seat: int, legal: list[dict], blows: int = HARD_BLOWS, keep: int = HARD_SHORTLIST) -> list[Line]:
    """The root's candidates, the normal policy's own play first (the incumbent). On a wizard's turn
    in a fight, whole plans for the turn: before its spell, the `blows` best-rated blows (a spell and
    its target, each from the best place for it: walk there, cast, and the policy plays on) and the
    place fewest foes can answer (walk there and end the turn); after it, the two places fewest foes
    can answer and staying put. Any other decision: `shortlist`'s actions (`keep`), one by one."""
    pick = choose(view, seat, legal, random.Random(0))
    found = [Line(pick)]
    seen = IncantrisState.of_view(view)
    t = seen.turn
    me = match.side_of_seat(seen, seat)
    wid = t.get("wizard") if t else None
    w = match.wizard(seen, wid) if wid else None
    fighting = seen.scenario in policy.FIGHTS or seen.quiet >= policy.STIR_AFTER
    ordinary = any(a["kind"] in ("step", "cast", "end") for a in legal)  # not a question asked mid-turn
    if t is None or w is None or w["hex"] is None or me is None or not fighting or not ordinary:
        return found + [Line(a) for a in (shortlist(view, seat, legal, keep) if keep else legal) if a != pick]
    here = as_hex(w["hex"])
    reach = policy.spots(seen, w)

    def plan(h: Hex, last: dict | None) -> Line:
        path = reach[h][1]
        first = {"kind": "step", "to": list(path[0])} if path else last
        return Line(first or {"kind": "end"}, walking(w["id"], seen.serial, path, last))

    if not t["cast"]:
        casts: list[dict] = []  # each blow (spell and target) once, from the best place for it
        for _, h, _, cast in policy.blows(seen, me, w, reach):
            if cast not in casts and len(casts) < blows:
                casts.append(cast)
                found.append(plan(h, cast))
    foes = [x for x in match.on_board(seen) if x["side"] != me]
    safest = sorted(reach, key=lambda h: (policy.threat(foes, h),
                                          -min((distance(h, as_hex(x["hex"])) for x in foes), default=0), h))
    found += [plan(h, {"kind": "end"}) for h in safest[:1 if not t["cast"] else 2]]
    if t["cast"] and here not in safest[:2]:
        found.append(plan(here, {"kind": "end"}))
    return [line for line in found if line.first in legal]


def search(budget: Budget = HARD_BUDGET, exploration: float = HARD_EXPLORATION,
           horizon: float | None = HARD_HORIZON, bias: float = HARD_BIAS, keep: int = HARD_SHORTLIST,
           root: str = HARD_ROOT) -> Search:
    """The hard search. "lines" (served, but in the solo game) halves over `lines`, each judged once every
    side has answered it `horizon` times; "uct" (the solo game's, HARD_VARIANTS) is the tree over
    `shortlist`'s actions, each rollout cut after `horizon` steps. UCT was served everywhere with 16
    iterations, 700 ms, a horizon of 16 and a bias of 1: the bench replays it outside the solo game with
    `--root uct --iterations 16 --ms 700 --horizon 16 --bias 1`."""
    engine = engine_for("incantris")
    if root == "lines":
        return Search(engine, determinize, choose, budget=budget, horizon=horizon, tempo=side_turns, value=value,
                      observe=glance, bias=bias, root="halving",
                      lines=lambda v, s, legal: lines(v, s, legal, keep=keep))
    if root != "uct":
        raise ValueError(f"Incantris's hard search has no root {root!r} (lines or uct)")
    candidates = (lambda v, s, legal: shortlist(v, s, legal, keep)) if keep else None
    return Search(engine, determinize, choose, budget=budget, exploration=exploration, horizon=horizon, value=value,
                  observe=glance, bias=bias, candidates=candidates)


def hard(budget: Budget = HARD_BUDGET, exploration: float = HARD_EXPLORATION,
         horizon: float | None = HARD_HORIZON, bias: float = HARD_BIAS, keep: int = HARD_SHORTLIST,
         root: str = HARD_ROOT):
    return search(budget, exploration, horizon, bias, keep, root).choose


def variant_settings(variant: str) -> dict:
    """A match variant's own hard settings: HARD_VARIANTS's for the scenario it plays (none: HARD_*)."""
    return HARD_VARIANTS.get(setup.scenario_of(variant), {})


def served_search(scenario: str) -> Search:
    """The hard search a match of `scenario` is served: the HARD_* settings, the scenario's own where
    HARD_VARIANTS names them."""
    s = {"iterations": HARD_BUDGET.iterations, "ms": HARD_BUDGET.ms, **HARD_VARIANTS.get(scenario, {})}
    return search(Budget(iterations=s.pop("iterations"), ms=s.pop("ms")), **s)


def served():
    """The hard level as served (the registry's): each decision searched by its match's scenario's
    `served_search`, each built once."""
    made: dict[str, Search] = {}

    def choose_served(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
        scenario = view["scenario"]
        if scenario not in made:
            made[scenario] = served_search(scenario)
        return made[scenario].choose(view, seat, legal, rng)

    return choose_served
