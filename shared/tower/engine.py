"""Tower of the Wizard King: the engine the platform hosts under the name "tower".

The state is a TowerState (state.py; its start in assembly.setup); every rule lives in
the modules named for it: movement, tokens, spells, battle, tower (the Tower and the
Ramp), turns, pennants. This class only routes: who acts, what they may do, and
running automatic tasks until a seat or chance must act again. A step works on
`state.successor()`, so the state it is given is never changed."""
from __future__ import annotations

from typing import Any, Sequence

from shared.engine import (
    CHANCE,
    TERMINAL,
    ChanceRequest,
    Event,
    GameEngine,
    MatchConfig,
    NotYourTurn,
    Outcome,
)
from shared.engine.chance import Face
from shared.engine.contract import Action, canonical_json, resign_step
from shared.engine.state import tree_copy
from shared.tower import actions, assembly, invariants, pennants, queries, render, resigning
from shared.tower.battle import Battle, final_battle_under_way
from shared.tower.pack import pack
from shared.tower.spells import Flight, RampToken, SpellChoice
from shared.tower.state import TowerState, playing
from shared.tower.tasks import Task
from shared.tower.tokens import HomeChoice, Land
from shared.tower.turns import Move, TurnEnd, begin, step_bound
from shared.tower.view import view as redact

TASKS: dict[str, Task[Any]] = {t.kind: t for t in (TurnEnd(), Move(), Flight(), Land(), HomeChoice(), SpellChoice(),
                                                     RampToken(), Battle())}


class TowerEngine(GameEngine[TowerState]):
    name = "tower"
    title = "Tower of the Wizard King"
    min_seats = 2
    max_seats = 4

    # --- set-up and turn structure -------------------------------------------------
    def setup(self, config: MatchConfig) -> TowerState:
        return assembly.setup(config)

    def step_bound(self, config: MatchConfig) -> int:
        """Winning the Game: a climb comes at least every king_patience rounds of turns and the 19th
        ends the game (turns.step_bound), with either set-up."""
        return step_bound(config.seats)

    def actor(self, state: TowerState) -> int:
        stage = state.stage
        if stage == "over":
            return TERMINAL
        if stage == "choose":
            return assembly.chooser(state)
        if stage != "play":
            return CHANCE
        task = state.tasks[-1]
        return TASKS[task["task"]].actor(state, task)

    def chance_request(self, state: TowerState) -> ChanceRequest | None:
        if self.actor(state) != CHANCE:
            return None
        if state.stage != "play":
            return assembly.request(state)
        task = state.tasks[-1]
        return TASKS[task["task"]].request(state, task)

    def legal_actions(self, state: TowerState, seat: int) -> list[Action]:
        if self.actor(state) != seat or seat < 0:
            return []
        if state.stage == "choose":
            return sorted(assembly.choices(state), key=canonical_json)
        task = state.tasks[-1]
        return sorted(TASKS[task["task"]].legal(state, task), key=canonical_json)

    def apply(self, state: TowerState, seat: int, action: Action) -> tuple[TowerState, list[Event]]:
        who = self.actor(state)
        if who < 0 or seat != who:
            raise NotYourTurn(f"seat {seat} may not act now" + (f"; seat {who} is to act" if who >= 0 else ""))
        actions.check_shape(action)
        if state.stage == "choose":
            if action not in assembly.choices(state):
                raise assembly.refuse(state, action)
            new = state.successor()
            events: list[Event] = []
            assembly.choose(new, tree_copy(action), events)
            self._settle(new, events)
            return new, events
        handler = TASKS[state.tasks[-1]["task"]]
        if not handler.accepts(state, state.tasks[-1], action):
            raise handler.refuse(state, state.tasks[-1], action)
        new = state.successor()
        events = []
        handler.apply(new, new.tasks[-1], tree_copy(action), events)
        self._settle(new, events)
        return new, events

    def apply_chance(self, state: TowerState, outcome: Sequence[Sequence[Face]]) -> tuple[TowerState, list[Event]]:
        faces = self.checked_outcome(state, outcome)
        new = state.successor()
        events: list[Event] = []
        if new.stage != "play":
            assembly.apply(new, faces, events)
            if new.stage == "play":
                begin(new, new.turn["regular"], False, events)
        else:
            task = new.tasks[-1]
            TASKS[task["task"]].apply_chance(new, task, faces, events)
        self._settle(new, events)
        return new, events

    def resign(self, state: TowerState, seat: int) -> tuple[TowerState, list[Event]]:
        return resign_step(self, state, seat, resigning.resign, self._settle)

    def _settle(self, state: TowerState, events: list[Event]) -> None:
        """Run automatic tasks; end the game once the King is on the Tower, after the
        final battle if one is under way (Winning the Game). A resigned seat is never
        waited for: its set-up choices are made for it and its turns end at once."""
        while resigning.first_choice(state, events):
            pass
        while state.stage == "play":
            if state.turn["seat"] in state.resigned and not state.ended and state.tasks[-1]["task"] != "turn":
                state.tasks = state.tasks[:1]  # a resigned seat's turn (its first, say) ends as it begins
            if state.ended and not final_battle_under_way(state):
                state.tasks = []
                state.stage = "over"
                return  # the platform logs the end, with outcome(), as "match_finished"
            task = state.tasks[-1]
            handler = TASKS[task["task"]]
            if not handler.automatic:
                return
            handler.run(state, task, events)

    # --- reading --------------------------------------------------------------------
    def view(self, state: TowerState, seat: int | None) -> dict:
        return redact(state, seat)

    def query(self, state: TowerState, seat: int | None, query: dict) -> dict:
        # answered from the seat's view, so an answer cannot use what the seat may not see
        return queries.answer(self.view(state, seat), seat, query)

    def outcome(self, state: TowerState) -> Outcome | None:
        if state.stage != "over":
            return None
        return self._result(state)

    def _result(self, state: TowerState) -> Outcome:
        dealt = all(pl["wizard"] is not None for pl in state.players)
        scores = pennants.scores(state) if dealt else [0] * state.seats
        left = playing(state)
        best = max(scores[s] for s in left)
        winners = tuple(s for s in left if scores[s] == best)
        names = {w.id: f"{w.name}, {w.title}" for w in pack().wizards}

        def name(s: int) -> str:
            wizard = state.players[s]["wizard"]
            return names[wizard] if wizard is not None else f"seat {s}"

        lead = " and ".join(name(s) for s in winners)
        gone = " and ".join(name(s) for s in state.resigned)
        if len(left) == 1:
            summary = f"{gone} resigned; {lead} ascends the throne"
        else:
            summary = (f"{lead} ascends the throne with {best} Pennants" if len(winners) == 1
                       else f"{lead} tie with {best} Pennants each")
            if gone:
                summary += f" ({gone} resigned)"
        return Outcome(tuple(scores), winners, summary, tuple(state.resigned))

    def action_domain(self, action: Action) -> str:
        return actions.domain(action)

    def describe(self, action: Action) -> str:
        return actions.describe(action)

    def label(self, state: TowerState, seat: int, action: Action) -> str:
        # from the seat's view: a battle's dice counts and odds, the faces a re-roll picks up
        return render.label(self.view(state, seat), seat, action)

    def check_invariants(self, state: TowerState) -> None:
        invariants.check(state)

    # --- bytes ------------------------------------------------------------------------
    def encode(self, state: TowerState) -> bytes:
        return state.encode()

    def decode(self, data: bytes) -> TowerState:
        return TowerState.decode(data)
