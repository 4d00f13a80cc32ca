"""Choosing one of a seat's legal actions at the terminal, and drawing the position.

A choice may take several prompts before anything is sent: a group of like actions first
(in Incantris a spell, then its target; in Tower a destination, then the way there), then one
of them; typed text narrows a list to the labels that contain it. `back` (or `undo`) returns to
the prompt before, `help` (or `?`) prints the rules for what is being chosen, `map` draws the
whole position again, `q` leaves the match, `resign` gives it up (asked again before it is sent).
Nothing reaches the platform until a choice is made.

A game's renderer (shared/<game>/render.py) may add, all optional:
    group(action) -> str | None
        the heading under which an action is listed first (actions of one heading are one
        entry of the first prompt when there are two or more of them)
    more_choices(view, seat, actions, ask) -> [(label, [action, ...], group)]
        choices made of several actions sent one after another (a whole path in Incantris);
        `ask(query)` answers a Board.Query from the engine, so the rules stay in the engine
    help_text(view, seat, actions) -> str
        the rules for the actions on offer, from the game's own content
    REDRAW_CHANGES = n
        after the first drawing, print only the lines that changed (and the first n lines,
        a heading such as a column ruler) when few have
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

SHOWN = 40
BACK = ("back", "undo", "b", "u")
HELP = ("help", "?", "h")
RESIGN = object()  # what choose() answers when the player types "resign"


@dataclass
class Choice:
    label: str
    steps: list[dict]  # the actions to send, in order
    service: str = "board"  # the first action's service (later steps are each checked as legal again)
    group: str | None = None


@dataclass
class Group:
    label: str
    members: list = field(default_factory=list)


def choices(render, view: dict, seat: int, listed, ask) -> list[Choice]:
    """The listed legal actions, each a Choice, then the renderer's choices made of several actions."""
    group = getattr(render, "group", None)
    out = []
    for a in listed:
        action = json.loads(a.action_json)
        out.append(Choice(a.label, [action], a.service, group(action) if group else None))
    more = getattr(render, "more_choices", None)
    if more:
        plain = [json.loads(a.action_json) for a in listed]
        service = {a.action_json: a.service for a in listed}
        try:
            extra = more(view, seat, plain, ask)
        except Exception as exc:  # a question the platform would not answer: the single actions remain
            why = exc.details() if hasattr(exc, "details") else exc
            print(f"(only single steps offered: {why})")
            extra = []
        for label, steps, heading in extra:
            first = next((a for a in listed if json.loads(a.action_json) == steps[0]), None)
            if first is None:
                continue  # its first step is not legal now: not offered
            out.append(Choice(label, steps, service.get(first.action_json, "board"), heading))
    return out


def entries(options: list[Choice]) -> list:
    """The first prompt: a group of two or more choices is one entry, in the place of its first member."""
    heads: dict[str, Group] = {}
    out: list = []
    for c in options:
        if c.group is None:
            out.append(c)
            continue
        if c.group not in heads:
            heads[c.group] = Group(c.group)
            out.append(heads[c.group])
        heads[c.group].members.append(c)
    return [e.members[0] if isinstance(e, Group) and len(e.members) == 1 else e for e in out]


def _actions_of(level: list) -> list[dict]:
    out = []
    for e in level:
        for c in (e.members if isinstance(e, Group) else [e]):
            out.append(c.steps[0])
    return out


def _label(e) -> str:
    if isinstance(e, Group):
        return f"{e.label} ... ({len(e.members)} choices)"
    return e.label


class Screen:
    """Draws a seat's position: all of it the first time (and when asked), then, for a renderer
    that says so, only what changed."""

    def __init__(self, render):
        self.render = render
        self.last: list[str] | None = None
        self.view: dict | None = None
        self.seat: int | None = None

    def text(self, view: dict, seat: int) -> str:
        return self.render.render(view, seat) if self.render else json.dumps(view)

    def draw(self, view: dict, seat: int, whole: bool = False) -> None:
        self.view, self.seat = view, seat
        lines = self.text(view, seat).split("\n")
        head = getattr(self.render, "REDRAW_CHANGES", None)
        old, self.last = self.last, lines
        if whole or head is None or old is None or len(old) != len(lines):
            print("\n".join(lines))
            return
        changed = [new for was, new in zip(old, lines) if was != new]
        if len(changed) > len(lines) // 2:
            print("\n".join(lines))
            return
        if not changed:
            print("(nothing changed; `map` draws it all)")
            return
        print("changed (`map` draws it all):")
        print("\n".join(lines[:head] + [line for line in changed if line not in lines[:head]]))

    def redraw(self) -> None:
        if self.view is not None:
            print(self.text(self.view, self.seat))


@dataclass
class Prompt:
    render: object
    view: dict
    seat: int
    screen: Screen | None = None

    def help(self, level: list) -> str:
        hook = getattr(self.render, "help_text", None)
        if hook is None:
            return "no rules help for this game; choose by number"
        try:
            return hook(self.view, self.seat, _actions_of(level))
        except Exception as exc:  # help never ends a match: the choices stand as they are
            return f"no rules help here ({type(exc).__name__}: {exc}); choose by number"


def choose(options: list[Choice], prompt: Prompt, read=input):
    """Show the choices (grouped, and narrowed by typed text) and read one: a Choice, RESIGN, or
    None to leave."""
    if not options:
        return None
    stack = [entries(options)]
    while True:
        level = stack[-1]
        for i, e in enumerate(level[:SHOWN]):
            print(f"  [{i}] {_label(e)}")
        if len(level) > SHOWN:
            print(f"  ... {len(level) - SHOWN} more: type part of a label to narrow the list")
        hint = "back, " if len(stack) > 1 else ""
        try:
            raw = read(f"your choice (0-{min(len(level), SHOWN) - 1}, {hint}help, q to quit, "
                       f"resign to give up): ").strip()
        except EOFError:
            return None
        if raw == "q":
            return None
        if raw.lower() == "resign":
            return RESIGN
        if raw.lower() in HELP:
            print(prompt.help(level))
            continue
        if raw.lower() == "map":
            if prompt.screen:
                prompt.screen.redraw()
            continue
        if raw.lower() in BACK:
            if len(stack) == 1:
                print("nothing to undo: nothing is chosen yet")
            else:
                stack.pop()
            continue
        if raw.isdigit() and int(raw) < min(len(level), SHOWN):
            e = level[int(raw)]
            if isinstance(e, Group):
                stack.append(e.members)
                continue
            return e
        if not raw:
            continue
        narrowed = [c for e in level for c in (e.members if isinstance(e, Group) else [e])
                    if raw.lower() in c.label.lower() or raw.lower() in _label(e).lower()]
        if narrowed:
            stack.append(narrowed)
        else:
            print("nothing matches; pick one of the numbers shown")
