"""Determinized Monte Carlo tree search over the engine contract (information-set MCTS, in
the style of OpenSpiel's IS-MCTS and boardgame.io's MCTS bot), for an AI seat that sees only
its own view.

Each iteration:

1. samples a whole state consistent with the seat's VIEW (the game's `determinize(view, seat,
   rng) -> state`; never the real state, which the search is not given);
2. walks down a tree of the seat's own decisions, keyed by the action (its canonical JSON):
   at a node, every legal action of this determinization counts as available once; one not
   tried yet is expanded, otherwise UCT picks the child with the best
   `mean + c * sqrt(ln(available) / visits)` (the availability count of IS-MCTS stands in for
   the parent's visits, since the actions on offer change with the determinization). A decision
   with one legal action is taken without a node. Chance steps are answered by sampling the
   engine's chance request (dice, shuffles); the other seats play the game's normal policy on
   their own view of the sampled state;
3. once past the tree, plays on with the normal policy for every seat (the rollout), to the end
   of the match or for `horizon` steps;
4. scores the end for the seat (`value`: by default 1 for a win, a share of a tie, 0 for a loss;
   a game may blend in its normalized score, or judge a rollout cut off at the horizon) and adds
   it to every node of the path.

Two optional aids for small budgets: a progressive `bias` towards the normal policy's own pick
at each of the seat's decisions in the tree (tried first, and a bonus that fades with its
visits), and a game's `candidates` for the root (the few actions its policy rates best), so
that a few dozen iterations are not spread over hopeless moves.

A game may judge its rollouts at a point of play rather than after a number of steps (`tempo`:
Incantris counts rounds of the table, Wizards days; UCT from where its rollout begins, halving from
the decision asked about), and may share the root's budget by sequential halving over
paired samples instead of UCT (`root="halving"`, see `_halve`): every candidate still running is
sampled on the same determinization, dice and rollout choices, so that a few dozen samples compare
moves and not luck, and the normal policy's pick is answered unless another move's paired gain
over it is clear (on fresh samples, with `confirm`: the luckiest of several on the same samples is
not the best). Halving may weigh a game's `lines` rather than single actions: plans the seat
follows for a while (Incantris: walk to a hex and cast from it), answered by their first action.

UCT answers the root's most visited action (then the best mean, then the first listed), and stops
early once that action leads the next by more than the iterations left (the same answer, sooner);
halving answers as `_halve` says. Either way the answer is one of the legal actions it was handed.
The budget is iterations and/or milliseconds: with iterations alone the search is deterministic for
a given seed (tests); a wall-clock budget is for serving, and a search stops at whichever limit
comes first.
"""
from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from shared.engine.contract import CHANCE, TERMINAL, GameEngine, canonical_json
from shared.engine.playout import sample_chance

# a tempo is a share of a round (Wizards: of a day), as a float: (10 + 2/3) - (4 + 2/3) is 5.999999999999999,
# so a horizon is reached this near it
TEMPO_ROUNDING = 1e-9

Policy = Callable[[dict, int, list[dict], random.Random], dict]
Determinize = Callable[[dict, int, random.Random], Any]
Value = Callable[[GameEngine, Any, int], float]
Observe = Callable[[Any, int], dict]


@dataclass(frozen=True)
class Budget:
    """How long one decision may think: at most `iterations` iterations and at most `ms`
    milliseconds of wall clock (None: no such limit; at least one of them must be set)."""

    iterations: int | None = 64
    ms: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.ms is None:
            raise ValueError("a search budget needs iterations or milliseconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a search budget needs at least one iteration")


Follow = Callable[[Any, int, list[dict]], "dict | None"]


def _paired_seeds(rng: random.Random) -> tuple[int, int, int]:
    """One paired sample's seeds, shared by every line it compares: the determinization's, the dice's and the
    rollout choices'."""
    return rng.getrandbits(64), rng.getrandbits(64), rng.getrandbits(64)


@dataclass(frozen=True)
class Line:
    """A root candidate for sequential halving: the legal action it answers with (`first`), and how
    the seat goes on after it while the line lasts (`then(state, seat, legal)`: the line's next
    action, or None once it is over and the normal policy plays on). A game whose decisions are
    steps of a larger plan (Incantris: walk to a hex, then cast) compares plans this way, where
    single steps, each followed by the policy's own replanning, would all look alike."""

    first: dict
    then: Follow | None = None


@dataclass
class Node:
    """A decision of the searching seat, reached by `action` from its parent."""

    action: dict = field(default_factory=dict)  # the root's is empty
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[bytes, "Node"] = field(default_factory=dict)
    favoured: dict | None = None  # the normal policy's pick here (the root's, asked once)

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class Result:
    """What a search chose, with what it saw: iterations run, milliseconds taken, and every legal
    action it was handed (action, visits or samples, mean value) in the order of that list, those it
    did not weigh (not among the game's candidates) with none."""

    action: dict
    iterations: int
    ms: float
    children: list[tuple[dict, int, float]]


def outcome_value(engine: GameEngine, state: Any, seat: int) -> float:
    """1 for a win, 1/k for a k-way tie, 0 for a loss; 0.5 for a match not over (a cut rollout)."""
    result = engine.outcome(state)
    if result is None:
        return 0.5
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


def blended(win: float, margin: float, weight: float) -> float:
    """A rollout's value in [0, 1] for a game that judges a cut rollout by a margin too: (1 - weight) x the win
    (outcome_value) + weight x the margin (clamped to [-1, 1]) mapped onto [0, 1]."""
    margin = max(-1.0, min(1.0, margin))
    return (1 - weight) * win + weight * (0.5 + margin / 2)


@dataclass
class Search:
    """One game's search: its engine, how to sample a state from a view, the policy that plays
    the other seats and the rollouts, and the tuning."""

    engine: GameEngine
    determinize: Determinize
    policy: Policy
    budget: Budget = field(default_factory=Budget)
    exploration: float = 0.7
    horizon: float | None = None  # rollout steps after the tree (or `tempo`) before the position is judged
    # what the horizon counts (None: steps, chance steps included); a game may count its own clock instead
    # (Incantris: rounds of the table; Wizards: days), so that a rollout is judged at the same point of play
    # whatever the moves on the way cost in steps (a step-counted cut favours the quickest blow); with
    # halving a paired sample then draws each roll's dice from its point on that clock (see `_dice`)
    tempo: Callable[[Any], float] | None = None
    value: Value = outcome_value
    max_steps: int = 20_000
    # what the policy is shown of a SAMPLED state when it plays a seat (None: engine.view); a game
    # may hand a cheaper reading whose choices are the same as on the view (the state is a sample,
    # so nothing real is shown)
    observe: Observe | None = None
    # progressive bias towards the normal policy's own pick at each of the seat's decisions in the
    # tree: tried first, and `bias / (visits + 1)` added to its UCT score, so that a search of few
    # iterations leaves the policy's choice only for one that did better in its samples
    bias: float = 0.0
    # the root's candidates among the legal actions (None: all of them): a game may keep the few its
    # policy rates best, so that a small budget is not spread over hopeless moves
    candidates: Callable[[dict, int, list[dict]], list[dict]] | None = None
    # stop once the answer is settled (the leader's lead over the next exceeds the iterations left):
    # the same answer as the whole budget's; False runs every iteration (to compare statistics)
    settle: bool = True
    # how the root's candidates share the budget: "uct" (the tree above), or "halving": sequential
    # halving over paired samples (each sample's hidden state, dice and rollout choices drawn from
    # seeds shared by every candidate still in the running), for budgets too small for UCT to tell
    # a good move from a lucky one; there `bias` is how many standard errors of the paired gain a
    # move needs to be answered over the normal policy's pick (see `_halve`)
    root: str = "uct"
    # halving only: the game's root candidates as lines of play (None: each legal action alone, the
    # normal policy's pick the incumbent): the first line is the incumbent (the game's own choice),
    # and the search answers the winning line's first action
    lines: Callable[[dict, int, list[dict]], list[Line]] | None = None
    # halving only: fresh paired samples a challenger's gain over the incumbent must hold on, taken after the
    # halving chose it (0: judged on the samples that chose it). The best of several candidates on the same few
    # samples is the luckiest as often as the best, so its gain on those samples is no test (see `_confirm`)
    confirm: int = 0

    def __post_init__(self) -> None:
        if self.root not in ("uct", "halving"):
            raise ValueError(f"a search's root is uct or halving, not {self.root!r}")
        if self.root == "uct" and self.lines is not None:
            raise ValueError("lines are for halving's paired samples, not for UCT")
        if self.confirm < 0 or (self.confirm and self.root != "halving"):
            raise ValueError(f"confirm counts halving's fresh samples, 0 or more, not {self.confirm} for {self.root}")

    def choose(self, view: dict, seat: int, legal: list[dict], rng: random.Random) -> dict:
        """The policy signature: one of `legal`."""
        return self.run(view, seat, legal, rng).action

    def run(self, view: dict, seat: int, legal: list[dict], rng: random.Random) -> Result:
        if not legal:
            raise ValueError("a search needs at least one legal action")
        start = time.perf_counter()
        if len(legal) == 1:
            return Result(legal[0], 0, 0.0, [(legal[0], 0, 0.0)])
        local = random.Random(rng.getrandbits(64))
        offered = legal
        if self.candidates is not None:
            kept = [a for a in self.candidates(view, seat, legal) if a in legal]
            legal = kept or legal
        if len(legal) == 1:
            return Result(legal[0], 0, 0.0, [(a, 0, 0.0) for a in offered])
        if self.root == "halving" and self.lines is not None:
            lines = [line for line in self.lines(view, seat, legal) if line.first in legal]
            if len(lines) <= 1:
                answer = lines[0].first if lines else self.policy(view, seat, legal, local)
                return Result(answer, 0, 0.0, [(a, 0, 0.0) for a in offered])
            return self._halve(view, seat, lines, 0, offered, local, start)
        if self.root == "halving":
            pick = self.policy(view, seat, legal, random.Random(local.getrandbits(32))) if self.bias else None
            incumbent = legal.index(pick) if pick in legal else -1
            return self._halve(view, seat, [Line(a) for a in legal], incumbent, offered, local, start)
        root = Node()
        keys = [canonical_json(a) for a in legal]
        for key, action in zip(keys, legal):
            root.children[key] = Node(action)
        deadline = None if self.budget.ms is None else start + self.budget.ms / 1000.0
        iterations = 0
        while True:
            if self.budget.iterations is not None and iterations >= self.budget.iterations:
                break
            if deadline is not None and iterations > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(root, keys, legal, view, seat, local)
            iterations += 1
            if (self.settle and self.budget.iterations is not None
                    and self._settled(root, keys, self.budget.iterations - iterations)):
                break
        order = {k: i for i, k in enumerate(keys)}
        best_key = max(keys, key=lambda k: (root.children[k].visits, root.children[k].mean(), -order[k]))
        ms = (time.perf_counter() - start) * 1000.0
        children = [(a, n.visits, n.mean()) if (n := root.children.get(canonical_json(a))) else (a, 0, 0.0)
                    for a in offered]
        return Result(root.children[best_key].action, iterations, ms, children)

    @staticmethod
    def _settled(root: Node, keys: list[bytes], left: int) -> bool:
        """Whether the answer can no longer change: the most visited child leads the next by more
        than the iterations left, so stopping now gives the action the whole budget would have."""
        first = second = 0
        for k in keys:
            v = root.children[k].visits
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
        return first - second > left

    def _roll(self, state: Any, rng: random.Random) -> Any:
        """The state after its chance step, the dice it asks for sampled from `rng`."""
        request = self.engine.chance_request(state)
        assert request is not None, "a CHANCE state names its dice"
        return self.engine.apply_chance(state, sample_chance(request, rng))[0]

    def _past(self, state: Any, since: float, steps: int) -> bool:
        """Whether a rollout has gone its horizon: `steps` steps, or the game's tempo `horizon` past `since`."""
        if self.horizon is None:
            return False
        if self.tempo is None:
            return steps > self.horizon
        return self.tempo(state) - since >= self.horizon - TEMPO_ROUNDING

    def _dice(self, state: Any, seed: int, rolls: Counter) -> random.Random:
        """The dice of a paired sample's chance step, drawn from the sample's seed, the game's tempo and
        how many rolls were made at that tempo before: two lines of play that roll differently on the
        seat's own turn still meet the same dice on the turns after it."""
        assert self.tempo is not None, "dice keyed by the point of play need the game's tempo"
        at = self.tempo(state)
        rolls[at] += 1
        return random.Random(f"{seed}:{at}:{rolls[at]}")

    # --- sequential halving with common random numbers ------------------------------------------
    def _halve(self, view: dict, seat: int, lines: list[Line], incumbent: int, offered: list[dict],
               rng: random.Random, start: float) -> Result:
        """Sequential halving (Karnin, Koren and Somekh 2013) at the root: in each of about log2(n)
        rounds every candidate still in the running gets the same number of samples, and the better
        half by mean goes on. Sample j draws its determinization, its dice and its rollout's choices
        from seeds shared by every candidate still running (common random numbers): two moves are
        compared on the same hidden state and the same luck, so the difference of their means is
        the move's and not the dice's.

        The incumbent (the normal policy's own pick when `bias` is set, or the game's first line;
        -1: none) is never cut, so every sample of a survivor has its pair, and the search answers
        another move only if that move's paired gain over it is more than `bias` standard errors
        above nothing. A short horizon often sees no difference at all (nobody hurt yet), and a move
        that merely ties the policy's pick is not worth the policy's knowledge that the rollouts do
        not see.

        The budget counts samples: at most `iterations` (the first round gives every candidate one
        even if that is more), and fewer once the cuts leave only the incumbent and one challenger
        (their comparison has its pairs from every round; the rest of the budget is not spent). The
        clock, when set, is read before each candidate's sample. A search stopped by either decides on the
        samples every candidate still running took (a sample the clock cut short is left out). With
        `confirm`, a challenger the halving prefers is answered only if its gain holds on that many fresh
        pairs (`_confirm`), taken past `iterations` but within the clock."""
        iterations = self.budget.iterations
        deadline = None if self.budget.ms is None else start + self.budget.ms / 1000.0
        alive = list(range(len(lines)))
        scores: list[dict[int, float]] = [{} for _ in lines]  # a candidate's value on each sample it took
        rounds = max(1, math.ceil(math.log2(len(lines))))
        spent = sample = 0
        stopped = False

        def mean(i: int) -> float:
            return sum(scores[i].values()) / len(scores[i]) if scores[i] else float("-inf")

        def best_of(candidates: list[int]) -> list[int]:
            most = max(len(scores[i]) for i in candidates)
            return sorted((i for i in candidates if len(scores[i]) == most),
                          key=lambda i: (mean(i), i == incumbent, -i), reverse=True)

        for r in range(rounds):
            if iterations is None:
                per = 1 << r  # a clock alone: samples double each round until it runs out
            else:
                per = max(1, (iterations - spent) // (len(alive) * (rounds - r)))
            for _ in range(per):
                seeds = _paired_seeds(rng)
                for i in alive:
                    if (iterations is not None and r > 0 and spent >= iterations) or (
                            deadline is not None and spent > 0 and time.perf_counter() >= deadline):
                        stopped = True
                        break
                    scores[i][sample] = self._sample(view, seat, lines[i], seeds)
                    spent += 1
                if stopped:  # part-way through a sample: the candidates it reached would rank alone, so it is left out
                    for i in alive:
                        scores[i].pop(sample, None)
                    break
                sample += 1
            if stopped or len(alive) == 1 or len(alive) == 2 and incumbent in alive:
                break  # nothing left to cut: the incumbent stays whatever the samples say
            kept = best_of(alive)[:max(1, (len(alive) + 1) // 2)]
            alive = kept + ([incumbent] if incumbent >= 0 and incumbent not in kept else [])
        best = best_of(alive)[0]
        if incumbent >= 0 and best != incumbent:
            if self.confirm:
                fresh = self._confirm(view, seat, lines[best], lines[incumbent], rng, deadline)
                spent += sum(len(f) for f in fresh)
                for i, taken in zip((best, incumbent), fresh):  # the result shows every sample a line took
                    scores[i].update({sample + k: v for k, v in taken.items()})
                confirmed = self._beats(*fresh)
            else:
                confirmed = self._beats(scores[best], scores[incumbent])
            if not confirmed:
                best = incumbent
        ms = (time.perf_counter() - start) * 1000.0
        sampled: dict[bytes, tuple[int, float]] = {}
        for i, line in enumerate(lines):  # an action that starts several lines shows its best line's
            key = canonical_json(line.first)
            if scores[i] and (key not in sampled or mean(i) > sampled[key][1]):
                sampled[key] = (len(scores[i]), mean(i))
        children = [(a, *sampled.get(canonical_json(a), (0, 0.0))) for a in offered]
        return Result(lines[best].first, spent, ms, children)

    def _confirm(self, view: dict, seat: int, challenger: Line, incumbent: Line, rng: random.Random,
                 deadline: float | None) -> tuple[dict[int, float], dict[int, float]]:
        """`confirm` fresh paired samples of the challenger the halving chose and of the incumbent: seeds drawn
        after the choice, so the challenger's gain on them is not the luck that chose it (Karnin et al.'s
        guarantee is for the best arm's identity, not for its measured margin). The clock, when set, is read
        before each pair; a test it cuts is judged on the pairs taken, and keeps the incumbent below two
        (`_beats` wants two)."""
        taken: tuple[dict[int, float], dict[int, float]] = ({}, {})
        for k in range(self.confirm):
            if deadline is not None and time.perf_counter() >= deadline:
                break
            seeds = _paired_seeds(rng)
            taken[0][k] = self._sample(view, seat, challenger, seeds)
            taken[1][k] = self._sample(view, seat, incumbent, seeds)
        return taken

    def _beats(self, challenger: dict[int, float], incumbent: dict[int, float]) -> bool:
        """Whether the challenger's gain over the incumbent, paired sample by sample, is more than
        `bias` standard errors above nothing (all of at least two samples agreeing on a gain will do)."""
        gains = [challenger[k] - incumbent[k] for k in challenger if k in incumbent]
        if len(gains) < 2:
            return False
        gain = statistics.fmean(gains)
        return gain > 0 and gain > self.bias * statistics.stdev(gains) / math.sqrt(len(gains))

    def _sample(self, view: dict, seat: int, line: Line, seeds: tuple[int, int, int]) -> float:
        """One paired sample of `line` (or of one action alone): a determinization from the first
        seed, the dice from the second, every seat's policy (the rollout) from the third, the seat
        following the line while it lasts, played for `horizon` after the line's first action (or
        to the end) and judged by `value`."""
        engine = self.engine
        observe = self.observe or engine.view
        state = self.determinize(view, seat, random.Random(seeds[0]))
        dice, choices = random.Random(seeds[1]), random.Random(seeds[2])
        following = line.then
        rolls: Counter = Counter()  # chance steps taken at each point of the game's tempo
        acted = False
        steps, since = 0, 0.0
        for _ in range(self.max_steps):
            who = engine.actor(state)
            if who == TERMINAL:
                break
            if acted:
                steps += 1
                if self._past(state, since, steps):
                    break
            if who == CHANCE:
                state = self._roll(state, self._dice(state, seeds[1], rolls) if self.tempo else dice)
                continue
            if not acted and who == seat:
                # the decision asked about; the horizon counts from before it, so a line that ends
                # the turn at once is judged at the same point of play as one that acts first
                since = self.tempo(state) if self.tempo is not None else 0.0
                state, _ = engine.apply(state, seat, line.first)
                acted = True
                continue
            actions = engine.legal_actions(state, who)
            action = None
            if following is not None and who == seat:
                action = following(state, who, actions)
                if action is None:
                    following = None  # the line is over: the policy plays on
            if action is None:
                action = self.policy(observe(state, who), who, actions, choices)
            state, _ = engine.apply(state, who, action)
        return self.value(engine, state, seat)

    # --- one iteration ---------------------------------------------------------------
    def _select(self, node: Node, keys: list[bytes], legal: list[dict], rng: random.Random,
                favoured: dict | None) -> Node:
        for key, action in zip(keys, legal):
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node(action)
            child.available += 1
        pick = node.children[canonical_json(favoured)] if favoured is not None else None
        if pick is not None and pick.visits == 0:
            return pick
        untried = [node.children[k] for k in keys if node.children[k].visits == 0]
        if untried:
            return rng.choice(untried)
        c, bias = self.exploration, self.bias

        def score(ch: Node) -> float:
            u = ch.mean() + c * math.sqrt(math.log(ch.available) / ch.visits)
            return u + bias / (ch.visits + 1) if ch is pick else u

        return max((node.children[k] for k in keys), key=score)

    def _favoured(self, state: Any, view: dict | None, seat: int, legal: list[dict], rng: random.Random) -> dict | None:
        if not self.bias:
            return None
        seen = view if view is not None else (self.observe or self.engine.view)(state, seat)
        return self.policy(seen, seat, legal, random.Random(rng.getrandbits(32)))

    def _iterate(self, root: Node, root_keys: list[bytes], root_legal: list[dict], view: dict, seat: int,
                 rng: random.Random) -> None:
        engine, policy = self.engine, self.policy
        observe = self.observe or engine.view
        state = self.determinize(view, seat, rng)
        path: list[Node] = []
        node: Node | None = root
        first = True
        rollout, since = 0, 0.0
        for _ in range(self.max_steps):
            who = engine.actor(state)
            if who == TERMINAL:
                break
            if node is None:
                rollout += 1
                if self._past(state, since, rollout):
                    break
            if who == CHANCE:
                state = self._roll(state, rng)
                continue
            if first and who == seat:
                # the decision asked about: the legal actions handed in, never the sample's own
                if root.favoured is None and self.bias:
                    root.favoured = self._favoured(state, view, seat, root_legal, rng)
                child = self._select(root, root_keys, root_legal, rng, root.favoured)
                first = False
            else:
                actions = engine.legal_actions(state, who)
                if who != seat or node is None or len(actions) == 1:
                    state, _ = engine.apply(state, who, policy(observe(state, who), who, actions, rng))
                    continue
                child = self._select(node, [canonical_json(a) for a in actions], actions, rng,
                                     self._favoured(state, None, seat, actions, rng))
            path.append(child)
            state, _ = engine.apply(state, who, child.action)
            # a child visited for the first time is the one node this iteration adds
            node = child if child.visits > 0 else None
            if node is None:  # the rollout begins: its horizon counts from here
                rollout, since = 0, self.tempo(state) if self.tempo is not None else 0.0
        value = self.value(engine, state, seat)
        for n in path:
            n.visits += 1
            n.total += value
