"""Wizards' AI levels (shared/engine/levels.py): easy, normal (policy.choose) and hard.

* easy: the default of shared/engine/levels.py, the normal policy with `EASY_NOISE` of its
  choices (where there is one) replaced by
  another legal action at random.
* hard: the determinized search (shared/engine/search.py) over determinize.py's samples of
  what the view hides (the decks' order, the Gem Cards in the boxes, the other players' secret
  records, the Secret Wizards, face-down tiles), the normal policy playing the other seats and
  the seat's own play (`own`) its own rollouts, the root's candidates compared by sequential halving
  on paired samples, a challenger to its own pick answered only if it holds on `HARD_CONFIRM` fresh ones. A
  Wizards match is long (hundreds of decisions, no time limit by default), so a rollout is cut
  `HARD_HORIZON` days on (`clock`: the same turns of the seat's own whatever the seats) and judged
  by `value`: the win (a tie shared) where the match
  ended, blended at `PROGRESS_WEIGHT` with the seat's progress towards it over the best other
  side (Rank, the points towards the next one, Gems on the record). `HARD_BUDGET` is what one
  decision may spend; bench/strength.py measures its think time and strength.

  The hard seat's own play (`own`) is the normal policy's, advancing: where meeting its Mentor
  would advance it now, it goes to him before its Tasks, and at Rank FOUR it transports where walking
  would take longer (11.213: to another Tower once its own is met out, 7.6; policy.choose). Its pick is
  the root's incumbent, and every candidate is a line of play (`lines`): the action, then the seat's own
  play to the rollout's end, so the search weighs its plans (the way to its Mentor, the walk to a Tower it
  transported to), not their first step undone by the normal policy at the next. A decision taken in the
  middle of a resolution (an encounter's choice: the view leaves its stage and cards out, so no state can
  be rebuilt to play it on) is `own`'s. `shortlist` keeps the root's candidates few: on a move, the
  destinations the hard seat's play rates best, with the normal policy's own moves, ending the movement
  and the spells on offer; before a roll, its pick and the roll.
"""
from __future__ import annotations

import random
from functools import partial

from shared.engine.contract import GameEngine
from shared.engine.registry import engine_for
from shared.engine.search import Budget, Line, Search, blended, outcome_value
from shared.wizards import policy
from shared.wizards.determinize import determinize
from shared.wizards.gems import six_gems
from shared.wizards.pack import pack
from shared.wizards.policy import choose

# at most 12 iterations and 600 ms: the clock is read before each sample, so a decision may run one sample
# (tens of ms) past it; bench.strength's records of whole 2-seat games show a p95 of 0.65 s
HARD_BUDGET = Budget(iterations=12, ms=600.0)
# days of rollout after the decision before the position is judged (some six turns of the seat's own): counted in
# steps (60, before revision 3) it was some six days with 2 seats (9 steps a day) but three with 4 (20 a day)
HARD_HORIZON = 6
HARD_EXPLORATION = 0.5  # uct only
# sequential halving over paired samples, the incumbent (the normal policy's pick; since revision 5 the first of
# `lines`, the hard seat's own, which the halving keeps whatever the bias) kept unless another move's paired gain
# is two standard errors clear (search.Search.root, bias): about level with normal on progress at the end of
# whole 2-player games, where UCT (bias 1) was ahead in 28% of 16 (docs/ai-levels.md has the rows as they grow)
HARD_BIAS = 2.0
HARD_ROOT = "halving"
# fresh paired samples a challenger's gain must hold on (search.Search.confirm, revision 8): with 12 samples shared by
# some six lines the challenger was judged on two or three pairs, the very ones that chose it, and the search answered
# another move than its own play's on 14 of 192 decisions of one game; with six fresh pairs, on 3 (docs/ai-levels.md)
HARD_CONFIRM = 6
HARD_SHORTLIST = 4  # destinations the search weighs on a move (0: all of them)
HARD_RANK = "rated"  # how the shortlist ranks them: "rated" as the policy does, "nearest" as before revision 4
RANKS = ("rated", "nearest")
# how the value counts a winner's progress: "delivered", with the six Gems he gave Rüktal (`standing`); "record",
# from his Gem Record alone, which they have left (7.336), as before revision 4
HARD_WIN = "delivered"
WINS = ("delivered", "record")
# raised when the hard level comes to choose otherwise at the same settings (bench.strength's records key on
# it): 2, the policy's own best moves always among the candidates (`shortlist`); 3, the horizon and a paired
# sample's dice counted by the days (`clock`), not by steps; 4, a win judged ahead (`standing`: the Gems delivered)
# and the shortlist ranked by the policy's own rating of a destination (`policy.rate_moves`: the Lair and Demons
# counted down, a Territory not yet seen counted up only when exploring); 5, its own seat advancing (`own`),
# the way to the Mentor a line of play (`lines`); 6, its own play transporting at Rank FOUR (policy._transport);
# 7, every line followed by its own play to the rollout's end, and no Transport but its play's among the candidates;
# 8, a challenger answered only on fresh paired samples (HARD_CONFIRM)
HARD_REVISION = 8
PROGRESS_WEIGHT = 0.5  # share of the value given to progress, the rest to the win
GEM_WEIGHT = 0.5  # a Gem on the record, in Ranks: the search did worse at 0.15 and at 1 (docs/ai-levels.md)
PROGRESS_SCALE = 4.0  # a progress margin this large (a whole Rank and six Gems' worth ...) is all of it


def progress(player: dict) -> float:
    """How far a player is on the way to delivering the Gems (13): his Rank, the share of the
    points his next Rank needs (10.11-10.13), a quarter for having an Order at all, half a Rank
    for each Gem on his record (only a record the state shows)."""
    p = float(player["rank"])
    if player["order"]:
        p += 0.25
        if player["rank"] < 4:
            need = pack().orders[player["order"]]["ranks"][player["rank"]]
            total = sum(need[t] for t in ("knowledge", "perception", "power"))
            got = sum(min(player["points"][t], need[t]) for t in ("knowledge", "perception", "power"))
            p += got / total if total else 0.0
    gems = player["gems"]
    if isinstance(gems, dict):
        p += GEM_WEIGHT * len(gems)
    return p


def _side(state, seat: int) -> list[int]:
    if state.config["variant"] == "partnership":
        first = seat - seat % 2
        return [first, first + 1]
    return [seat]


DELIVERED = GEM_WEIGHT * len(six_gems())  # the six Gems a winner gave Rüktal (13), as progress weighs them


def standing(state, seat: int, delivered: bool = True) -> float:
    """A seat's progress at this point of the match, a winner's counting the six Gems he delivered: they leave
    his Gem Record (7.336), and without them a seat that won outright would stand behind one that did not
    (`delivered` False: not counted, as the search did before revision 4)."""
    p = progress(state.players[seat])
    result = state.result
    return p + DELIVERED if delivered and result is not None and seat in result["winners"] else p


def lead(state, seat: int, delivered: bool = True) -> float | None:
    """How far `seat`'s side (it, or the better of a partnership) is ahead of the best other side in
    `standing` (negative: behind); None in a solitaire game, where there is no other side."""
    mine = _side(state, seat)
    others = [standing(state, q["seat"], delivered) for q in state.players if q["seat"] not in mine]
    if not others:
        return None
    return max(standing(state, i, delivered) for i in mine) - max(others)


def value(engine: GameEngine, state, seat: int, delivered: bool = True) -> float:
    """The end of a rollout for `seat`, in [0, 1]: (1 - w) x the win (a tie shared; 0.5 for a
    match not over) + w x the progress margin of its side (its partnership) over the best other."""
    win = outcome_value(engine, state, seat)
    ahead = lead(state, seat, delivered)
    if ahead is None:  # solitaire: progress alone
        return blended(win, standing(state, seat, delivered) / (2 * PROGRESS_SCALE), PROGRESS_WEIGHT)
    return blended(win, ahead / PROGRESS_SCALE, PROGRESS_WEIGHT)


def own(view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """The hard seat's own play where it does not search: the normal policy's, advancing and transporting
    (policy.choose)."""
    return choose(view, seat, legal, rng, advancing=True)


def shortlist(view: dict, seat: int, legal: list[dict], keep: int = HARD_SHORTLIST,
              rank: str = HARD_RANK) -> list[dict]:
    """The root's candidates on a move: the `keep` destinations the hard seat's play rates best (`own`;
    `policy.rate_moves`: its Way to its target, on foot or with the Boats, a Territory not yet seen counted up
    when it is exploring, the Lair and the Demons' reach counted down), the moves it or the normal policy would
    pick where those are not among them (on a tie they pick at random among more than `keep`: without its pick
    the search would have no move to beat), with ending the movement and every spell on offer; on any other
    decision every action when there are few, else its pick and the first `keep` others; before a roll its pick
    and the roll (no other Transporting, revision 7). `rank` "nearest": the
    destinations ranked by the way alone, an unseen Territory counted up always, as before revision 4."""
    moves = [a for a in legal if a["kind"] == "move"]
    if not moves:
        if any(a["kind"] == "roll" for a in legal):
            # before a roll: its pick (the Territory its play would transport to, or the roll) and the roll, since
            # revision 7 no Transport to a Territory its play has no goal in: a random space there is a gamble a
            # dozen samples can take for a gain (11.213)
            pick = own(view, seat, legal, random.Random(0))
            return [pick] + [a for a in legal if a != pick and a.get("spell") != "transporting"][:keep]
        if len(legal) <= keep + 1:
            return legal
        pick = own(view, seat, legal, random.Random(0))  # a fixed tie-break, no easy level's noise
        return [pick] + [a for a in legal if a != pick][:keep]
    nearest = _one_of("rank", rank, RANKS) == "nearest"
    rates = policy.rate_moves(view, seat, moves, nearest=nearest, advancing=True) or [0.0] * len(moves)
    ranked = [a for _, a in sorted(zip(rates, moves), key=lambda p: -p[0])][:keep]
    favoured: list[dict] = []
    for advancing in (True, False):
        favoured += [a for a in policy.best_moves(view, seat, legal, advancing)[0]
                     if a["kind"] == "move" and a not in ranked and a not in favoured]
    return ranked + favoured + [a for a in legal if a["kind"] != "move"]


def lines(view: dict, seat: int, legal: list[dict]) -> list[Line]:
    """The root's candidates (`shortlist`'s) as lines of play, the hard seat's own pick first (the incumbent), in
    every sample followed by the seat's own play (`_own_play`) where the other seats play the normal policy: a
    rollout of the normal policy would undo the first step of its plans at the next (turn from the way to its
    Mentor back to its Tasks, walk off a Tower's tile where it would transport), and judge the step by a play the
    seat does not make. Until revision 7 only the way to its Mentor was kept so, and the normal policy played on."""
    pick = own(view, seat, legal, random.Random(0))
    return [Line(pick, _own_play)] + [Line(a, _own_play) for a in legal if a != pick]


def _own_play(state, seat: int, legal: list[dict]) -> dict:
    """A Follow playing the seat's own play (`own`) on a sampled state, to the rollout's end; a tie broken the same
    way on every sample (a generator shared by the samples would give each one the draws the ones before it left,
    and the paired samples different luck)."""
    return own(engine_for("wizards").view(state, seat), seat, legal, random.Random(0))


def _one_of(setting: str, given: str, choices: tuple[str, ...]) -> str:
    if given not in choices:
        raise ValueError(f"{setting} must be one of {', '.join(choices)}, not {given!r}")
    return given


def clock(state) -> float:
    """The search's clock (`tempo`): days played (3.74), and the turns of the day begun, a seat's turn a
    share of a day, so that a horizon in days gives each seat the same turns whatever the seats (a day is
    some 9 steps with 2 seats, 20 with 4), and a paired sample draws the dice of a turn from its point on
    this clock: two moves compared meet the same dice on the turns after the seat's own, where dice
    drawn one after another would part at the first roll one of them made and the other did not (the
    paired gain's spread a third smaller, over 20 positions of 2-seat games and 16 of 4-seat ones)."""
    turn = state.turn
    begun = (turn["seat"] - state.dealer) % len(state.players) if turn and state.dealer is not None else 0
    return state.calendar["days_played"] + begun / len(state.players)


def search(budget: Budget = HARD_BUDGET, exploration: float = HARD_EXPLORATION, horizon: float | None = HARD_HORIZON,
           bias: float = HARD_BIAS, keep: int = HARD_SHORTLIST,
           root: str = HARD_ROOT, rank: str = HARD_RANK, win: str = HARD_WIN, confirm: int = HARD_CONFIRM) -> Search:
    """The hard search, which judges a rollout `horizon` days on (`clock`): halving (served), or UCT, served
    first (the bench plays it again with `--root uct --bias 1`; it counted 60 steps then)."""
    _one_of("rank", rank, RANKS)  # a bad rank is refused here, not at the first move decision
    delivered = _one_of("win", win, WINS) == "delivered"
    candidates = (lambda v, s, legal: shortlist(v, s, legal, keep, rank)) if keep else None
    return Search(engine_for("wizards"), determinize, choose, budget=budget, exploration=exploration,
                  horizon=horizon, tempo=clock, value=partial(value, delivered=delivered), bias=bias,
                  candidates=candidates, root=root, lines=lines if root == "halving" else None,
                  confirm=confirm if root == "halving" else 0)


def hard(budget: Budget = HARD_BUDGET, exploration: float = HARD_EXPLORATION, horizon: float | None = HARD_HORIZON,
         bias: float = HARD_BIAS, keep: int = HARD_SHORTLIST,
         root: str = HARD_ROOT, rank: str = HARD_RANK, win: str = HARD_WIN, confirm: int = HARD_CONFIRM):
    found = search(budget, exploration, horizon, bias, keep, root, rank, win, confirm)

    def choose_hard(view: dict, seat: int, legal: list[dict], rng) -> dict:
        if view["pending"] or view["chance"] or view["phase"] != "play":
            # a resolution in progress cannot be rebuilt from the view; set-up is its own play's too
            return own(view, seat, legal, rng)
        return found.choose(view, seat, legal, rng)

    choose_hard.__doc__ = "Wizards' hard level: the determinized search (levels.py)"
    return choose_hard
