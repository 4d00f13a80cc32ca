"""Rules help on the match page: for each kind of action a game offers, the rulebook section it
follows, as the game's engine names it (no rules text is written here).

    GET /api/rules/{game}   {"game", "kinds": {kind: {"section", "clause"?, "reading"?}}}  (public)

Where the sections come from, per game:
  - Wizards: the engine's own table of what a seat may do at each point and the rule that says
    so (`shared/wizards/engine.py` ALLOWED: set-up 3.21, 3.7, the turn 5.1, movement 6, ...).
  - Tower: the section each step cites when it refuses an action (`Task.rule`: movement,
    battle, Home Castles), the battle's re-roll rule, and the spells' sections (spells.SECTION).
  - Incantris: the rulebook sentence (`tasks.Clause`: section and quoted text) each step cites
    when it refuses an action, or that the action's own rule row refuses with.
A kind none of these name has no entry: the page then shows the action's label alone. The page
shows the action's label (the engine's `label`) with the section; the label says what the
action does here, the section where the rulebook says it may."""
from __future__ import annotations

from functools import lru_cache

from starlette.requests import Request
from starlette.responses import JSONResponse


def _clause(clause) -> dict:
    entry = {"section": clause.section, "clause": clause.text}
    if clause.reading:
        entry["reading"] = True
    return entry


def tower() -> dict:
    from shared.tower import assembly, battle, spells, tokens, turns

    map_spell = lambda name: {"section": spells.SECTION[("map", name)]}  # noqa: E731
    return {
        "move": {"section": turns.Move.rule}, "home": {"section": tokens.HomeChoice.rule},
        "fight": {"section": battle.Battle.rule}, "accept": {"section": battle.Battle.rule},
        "reroll": {"section": battle.REROLL}, "eliminate_character": {"section": assembly.SETUP},
        "fly": {"section": spells.Flight.rule}, "reveal": map_spell("revelation"),
        "transform_other": map_spell("transformation"), "protect": map_spell("protection"),
        "move_protection": map_spell("move_protection"), "power": map_spell("power"),
        "conquer": {"section": spells.SECTION[("ramp", "conquer")]},
    }


def incantris() -> dict:
    from shared.incantris import casting, effects, play, scenarios, setup, shifting, spells, walking

    return {
        "activate": _clause(play.ACTIVATE), "step": _clause(play.ACTIVE_ONLY), "end": _clause(play.ACTIVE_ONLY),
        "exit": _clause(walking.EXIT), "cast": _clause(casting.BOARD), "hydra": _clause(casting.HYDRA_TURNS),
        "cleanse": _clause(casting.CLEANSED), "cancel": _clause(effects.CANCEL),
        "pick-up": _clause(scenarios.PICK_NEXT), "sap": _clause(scenarios.SAP_NEXT),
        "place": _clause(setup.Placing.rule), "post": _clause(setup.Posting.rule),
        "teleport": _clause(spells.TeleportChoice.rule),
        "reach": _clause(spells.PrimalReachChoice.rule), "reach-stop": _clause(spells.PrimalReachChoice.rule),
        "chain": _clause(spells.ScorchingChainChoice.rule), "chain-stop": _clause(spells.ScorchingChainChoice.rule),
        "relocate": _clause(shifting.Relocate.rule), "relocate-stay": _clause(shifting.Relocate.rule),
    }


def wizards() -> dict:
    from shared.wizards.engine import ALLOWED

    sections: dict[str, list[str]] = {}
    for allowed, section in ALLOWED.values():
        for kind in sorted(allowed):
            sections.setdefault(kind, []).append(section)  # a spell is cast before the roll (5.1) or moving (6)
    return {kind: {"section": " or ".join(found)} for kind, found in sections.items()}


SOURCES = {"tower": tower, "incantris": incantris, "wizards": wizards}


@lru_cache(maxsize=None)
def help_for(game: str) -> dict:
    """Every action kind of `game` whose section the engine names; {} for a game it has none for."""
    source = SOURCES.get(game)
    return source() if source else {}


async def rules(request: Request):
    game = request.path_params["game"]
    return JSONResponse({"game": game, "kinds": help_for(game)}, headers={"cache-control": "public, max-age=3600"})
