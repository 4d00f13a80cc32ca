"""The resolution stack: encounters, Tasks and spells as small resumable items.

Most of sections 7-11 is "roll on a table, then maybe choose, then maybe something
else happens first" (a transport sets off the encounters of the new space, 7.5; a
Task drawn places its markers, 9.1; a Demon placed on a player attacks him at once,
7.5). Each such thing is an item on `state.pending`, a stack whose top runs next:

    {"do": <handler name>, "seat": <whom it concerns>, "stage": <where it is>, ...}

The step `resolve` runs the top item's handler (`Handler.run`). A handler makes
progress every time it runs: it finishes (`done`), pushes items that must happen
first (`push`), asks for dice (`roll`: the faces come back to `Handler.rolled`) or
asks a seat to choose (`ask`: `Handler.legal` lists the choices, the chosen one comes
back to `Handler.choose`). The bottom item of every stack is a `goto` that sets the
step to follow once all is resolved, so the flow of turns needs no other state.

Handlers register by name with `@handler("name")`; they live in the modules named
for what they resolve (places.py, randoms.py, tasks.py, ...).
"""
from __future__ import annotations

from typing import Callable, Sequence

from shared.engine import DicePool, MalformedAction, RuleViolation, d6
from shared.engine.contract import canonical_json
from shared.wizards.dice import ask as ask_dice
from shared.wizards.state import WizardsState

Item = dict

HANDLERS: dict[str, "Handler"] = {}
CHOICE_KINDS: set[str] = set()  # every action kind a handler offers (all on the combat path)
LABELS: dict[str, Callable[[dict], str]] = {}  # action kind -> a label for a person choosing


class Handler:
    """How one kind of item resolves. `rule` is the section a refusal names; `kinds`
    the action kinds its choices use."""

    rule = "7"
    kinds: tuple[str, ...] = ()

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        raise NotImplementedError

    def rolled(self, state: WizardsState, item: Item, faces: list, events: list) -> None:
        raise AssertionError(f"{item['do']} asked for no dice")

    def legal(self, state: WizardsState, item: Item, seat: int) -> list[dict]:
        return []

    def choose(self, state: WizardsState, item: Item, seat: int, action: dict, events: list) -> None:
        raise AssertionError(f"{item['do']} asked for no choice")

    @staticmethod
    def label(action: dict) -> str:
        """A one-line label of one of this handler's choices (override per handler)."""
        return " ".join(f"{k}={v}" for k, v in sorted(action.items()) if k != "kind") or action["kind"]


def handler(name: str) -> Callable[[type[Handler]], type[Handler]]:
    def register(cls: type[Handler]) -> type[Handler]:
        HANDLERS[name] = cls()
        CHOICE_KINDS.update(cls.kinds)
        for kind in cls.kinds:
            LABELS.setdefault(kind, cls.label)
        return cls
    return register


# --- the stack ------------------------------------------------------------------------
def begin(state: WizardsState, items: Sequence[Item], then_step: str) -> None:
    """Resolve `items` in order, then go on at `then_step`."""
    state.pending.append({"do": "goto", "step": then_step})
    push(state, *items)
    state.step = "resolve"


def push(state: WizardsState, *items: Item) -> None:
    """Put items on top of the stack; the first of them resolves first."""
    for i in items:
        if i["do"] not in HANDLERS:
            raise AssertionError(f"no handler for {i['do']!r}")
    state.pending.extend(reversed([dict(i) for i in items]))


def top(state: WizardsState) -> Item:
    return state.pending[-1]


def done(state: WizardsState, item: Item) -> None:
    """The item is resolved; it must be the top one."""
    assert state.pending and state.pending[-1] is item, "only the top item can finish"
    state.pending.pop()


def roll(state: WizardsState, item: Item, pools: Sequence[DicePool], secret: bool = False) -> None:
    """Ask for dice; `Handler.rolled` receives the faces."""
    ask_dice(state, pools, {"do": "pending", "item": item["do"]}, secret=secret)


def two_dice(state: WizardsState, item: Item, purpose: str) -> None:
    """'Roll TWO dice, reading only the higher die' (every table of sections 7 and 8)."""
    roll(state, item, [d6(f"{purpose} (first die)"), d6(f"{purpose} (second die)")])


def higher(faces: list) -> int:
    return max(f[0] for f in faces)


def ask(state: WizardsState, seat: int) -> None:
    """Wait for `seat` to pick one of the top item's choices."""
    state.await_ = {"seat": seat, "for": "choice"}


# --- the engine's hooks -------------------------------------------------------------------
def step_resolve(state: WizardsState, events: list) -> None:
    item = top(state)
    HANDLERS[item["do"]].run(state, item, events)


def on_rolled(state: WizardsState, then: dict, faces: list, events: list) -> None:
    item = top(state)
    assert item["do"] == then["item"], f"dice for {then['item']} reached {item['do']}"
    HANDLERS[item["do"]].rolled(state, item, faces, events)


def legal_choices(state: WizardsState, seat: int) -> list[dict]:
    item = top(state)
    return sorted(HANDLERS[item["do"]].legal(state, item, seat), key=canonical_json)


def act_choice(state: WizardsState, seat: int, action: dict, events: list) -> None:
    """A seat's answer to the top item: it must be one of the choices listed, exactly."""
    item = top(state)
    h = HANDLERS[item["do"]]
    legal = h.legal(state, item, seat)
    if action not in legal:
        same_kind = [a for a in legal if a["kind"] == action.get("kind")]
        if same_kind and set(action) != set(same_kind[0]):
            raise MalformedAction(f"{action['kind']} takes the fields {sorted(same_kind[0])}")
        raise RuleViolation(h.rule, f"{action.get('kind')} with those values is not one of the choices now")
    h.choose(state, item, seat, action, events)


@handler("goto")
class Goto(Handler):
    """The bottom of a stack: everything is resolved, the flow goes on."""

    def run(self, state: WizardsState, item: Item, events: list) -> None:
        done(state, item)
        state.step = item["step"]
