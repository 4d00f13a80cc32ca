"""The actions a seat may send: their shapes (checked before any rule, so garbage is
MalformedAction and never a KeyError), the service that owns each kind, and labels.

`board` owns the set-up choices and moving on the map (move, pass, the Transport spells'
flights); `combat`
owns battles, spells, transformations and token effects."""
from __future__ import annotations

from typing import Any

from shared.engine import MalformedAction
from shared.tower.pack import pack

STR, INT = "str", "int"
FIELDS: dict[str, dict[str, Any]] = {
    "eliminate_character": {"character": STR},
    "eliminate_wizard": {"wizard": STR},
    "select_wizard": {"wizard": STR},
    "move": {"to": STR, "path": "path"},
    "pass": {},
    "fly": {"to": STR},
    "home": {"choice": ("pennants", "again", "reclaim", "leave")},
    "reveal": {"territory": STR},
    "transform_other": {"seat": INT, "pulls": INT},
    "transform": {"pulls": INT},
    "protect": {"territory": STR},
    "move_protection": {"from": STR, "to": STR},
    "power": {"territory": STR},
    "conquer": {"territory": STR},
    "declare": {"seat": INT},
    "fight": {},
    "accept": {},
    "reroll": {"dice": "indices"},
}
BOARD_KINDS = frozenset({"move", "pass", "fly", "eliminate_character", "eliminate_wizard", "select_wizard"})
MAX_PATH = 32


def _fits(value: Any, spec: Any) -> bool:
    if spec == STR:
        return isinstance(value, str)
    if spec == INT:
        return type(value) is int
    if isinstance(spec, tuple):
        return isinstance(value, str) and value in spec
    if spec == "path":
        return (isinstance(value, list) and len(value) <= MAX_PATH and all(
            isinstance(leg, list) and len(leg) == 2 and leg[0] in ("walk", "cave") and isinstance(leg[1], str)
            for leg in value))
    if spec == "indices":
        return (isinstance(value, list) and 0 < len(value) <= 8 and all(type(i) is int for i in value)
                and len(set(value)) == len(value))
    return False


def check_shape(action: Any) -> str:
    """The action's kind, or MalformedAction saying what is wrong with its shape."""
    if not isinstance(action, dict):
        raise MalformedAction("an action is a JSON object with a 'kind'")
    kind = action.get("kind")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise MalformedAction(f"unknown action kind {kind!r}; known: {sorted(FIELDS)}")
    fields = FIELDS[kind]
    extra = set(action) - set(fields) - {"kind"}
    if extra:
        raise MalformedAction(f"{kind}: unexpected fields {sorted(extra)}")
    for name, spec in fields.items():
        if name not in action:
            raise MalformedAction(f"{kind}: missing field {name!r}")
        if not _fits(action[name], spec):
            expected = spec if isinstance(spec, str) else "choice"
            raise MalformedAction(f"{kind}: field {name!r} is not a valid {expected}")
    return kind


def domain(action: dict) -> str:
    return "board" if isinstance(action, dict) and action.get("kind") in BOARD_KINDS else "combat"


def _name(t: str) -> str:
    terr = pack().territories.get(t)
    return terr.name if terr else t


def _move_label(action: dict) -> str:
    legs = action["path"]
    caves = sum(1 for leg in legs if leg[0] == "cave")
    via = f", {caves} by cave" if caves else ""
    return f"Move to {_name(action['to'])} ({len(legs)} space{'s' if len(legs) != 1 else ''}{via})"


HOME_LABELS = {
    "pennants": "Add the Home Castle's Pennants",
    "again": "Go again",
    "reclaim": "Take back your Home Castle: the other colour's Pennants go home, yours go on",
    "leave": "Leave the other colour's Pennants on your Home Castle",
}


def _wizard(w: str) -> str:
    wiz = next((x for x in pack().wizards if x.id == w), None)
    return f"{wiz.name}, {wiz.title} ({wiz.colour})" if wiz else w


def _character_out(c: str) -> str:
    home = pack().homes.get(c)
    return f"Eliminate the {c} from the game" + (f", with its Home Castle ({home.name})" if home else "")


LABELS = {
    "eliminate_character": lambda a: _character_out(a["character"]),
    "eliminate_wizard": lambda a: f"Eliminate {_wizard(a['wizard'])}: his symbols stay on the board",
    "select_wizard": lambda a: f"Select {_wizard(a['wizard'])} as your Wizard",
    "move": _move_label,
    "pass": lambda a: "Pass (stay where you are)",
    "fly": lambda a: f"Fly to {_name(a['to'])}",
    "home": lambda a: HOME_LABELS[a["choice"]],
    "reveal": lambda a: f"Turn over the token in {_name(a['territory'])}",
    "transform_other": lambda a: f"Transform seat {a['seat']}'s Character (pull the lever {a['pulls']}x)",
    "transform": lambda a: f"Transform in the Tower (pull the lever {a['pulls']}x)",
    "protect": lambda a: f"Protect the Castle in {_name(a['territory'])}",
    "move_protection": lambda a: f"Move the Protection from {_name(a['from'])} to {_name(a['to'])}",
    "power": lambda a: f"Add Pennants to the Castle in {_name(a['territory'])}",
    "conquer": lambda a: f"Conquer the Castle in {_name(a['territory'])}",
    "declare": lambda a: f"Do battle with seat {a['seat']}",
    "fight": lambda a: "Fight as you are",
    "accept": lambda a: "Keep the dice",
    "reroll": lambda a: "Re-roll die " + ", ".join(str(i + 1) for i in a["dice"]),
}


def describe(action: dict) -> str:
    try:
        check_shape(action)
        return LABELS[action["kind"]](action)
    except (MalformedAction, KeyError, TypeError):
        return f"Unknown action {action!r}"
