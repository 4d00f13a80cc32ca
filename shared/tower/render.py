"""Text for a terminal client: the Wizard's Realm ring by ring, the players, the Ramp of
Time and what happens next; and one line per event. Plain text by default, ANSI colour
for the Wizards' Pennants behind `colour=True`.

Board legend: `[castle ?]` / `[spell ?]` face-down tokens; `[Ogre's Hideout]`, `[fire
symbol]`, `[Revelation]` face-up ones; `red x3` Pennants; `(P)` a Spell of Protection;
`@Warrior/red` a Character; after `|` the touching territories, `~` across a river without
a bridge, `=` over a bridge; `cave` marks a cave."""
from __future__ import annotations

from shared.tower.actions import describe
from shared.tower.battle import winner
from shared.tower.odds import attacker_wins_against_rerolls
from shared.tower.pack import load_raw, pack

# Every public roll of this game is drawn by its own events (the first player, the set-up by chance, the
# sites, a battle's dice and re-rolls), so a terminal client need not print the platform's roll lines too.
ROLLS_SHOWN = True

ANSI = {"red": "31", "blue": "34", "green": "32", "yellow": "33"}
RINGS = (("inner", "Inner ring (touches the rocky space round the Tower)"), ("middle", "Middle ring"),
         ("outer", "Outer ring"))


def _paint(text: str, colour: str | None, on: bool) -> str:
    if not on or colour not in ANSI:
        return text
    return f"\x1b[{ANSI[colour]}m{text}\x1b[0m"


def _colour_of(wizard: str | None) -> str | None:
    return next((w.colour for w in pack().wizards if w.id == wizard), None)


def _token(square: dict) -> str:
    token = square["token"]
    if token is None:
        return ""
    if not token.get("up"):
        return "[castle ?]" if square["castle"] else "[spell ?]"
    kind, name = token["id"].split(":")
    p = pack()
    if kind == "home":
        return f"[{p.homes[name].name}]"
    if kind == "symbol":
        return f"[{name} symbol]"
    return f"[{p.map_spells[name]['name'].replace('Spell of ', '')}]"


def _decision(view: dict) -> str:
    if view["stage"] == "over":
        return "Game over: the Wizard King has reached the top of his Tower."
    if view["stage"] == "choose":
        return _setup_decision(view)
    if view["stage"] != "play":
        return "Setting up: waiting for the dice."
    task = view["tasks"][-1]
    kind = task["task"]
    if kind == "move":
        return f"Seat {task['seat']} to move" + (" (extra turn, may pass)" if task["extra"] else "")
    if kind == "flight":
        return f"Seat {task['seat']}: Spell of Transport - fly to any space (extra turn, may pass)"
    if kind == "home":
        if task["offer"] == "reclaim":
            return f"Seat {task['seat']}: take back your Home Castle from the other colour, or leave it"
        return f"Seat {task['seat']}: Add the Home Castle's Pennants or Go Again"
    if kind == "spell":
        return f"Seat {task['seat']}: use {task['spell'].replace('_', ' ')} ({task['source']} token)"
    if kind == "battle":
        players = view["players"]
        a = task["attacker"]
        d = task["defender"]
        line = f"Battle for {pack().territories[task['at']].name}: seat {a} ({players[a]['character']})"
        line += f" v seat {d} ({players[d]['character']})" if d is not None else " v ? (declare an opponent)"
        stage = task["stage"]
        if stage == "ready":
            return line + ": fight as you are or transform first (the choices give the dice and the odds)"
        if stage == "declare":
            return line + ": name the player you will do battle with"
        if task["dice"]:
            attacker = " ".join(map(str, task["dice"]["attacker"]))
            defender = " ".join(map(str, task["dice"]["defender"]))
            left = task["reroll"]["single"] if task["reroll"]["die"] is not None else None
            line += (f": seat {d} holds {defender} against {attacker};"
                     + (f" re-roll the same die ({left} left) or keep" if left is not None else " re-roll or keep"))
        return line
    return kind


# --- labels for a seat's choices (TowerEngine.label): what a battle choice means in dice and odds --------
def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _rerolls(pennants: int) -> str:
    single, multi = pack().reroll_allowance(pennants)
    if not single and not multi:
        return ""
    if multi <= 1:
        return f"; his {pennants} Pennants let him re-roll 1 die"
    return f"; his {pennants} Pennants let him re-roll 1 die up to {single} times or {multi} dice once"


def _battle_pennants(view: dict, task: dict) -> int:
    """The defender's Pennants on the Castle fought for (his re-roll power)."""
    if task["kind"] != "castle" or task["defender"] is None:
        return 0
    pen = view["board"][task["at"]]["pennants"]
    return pen["count"] if pen and pen["wizard"] == view["players"][task["defender"]]["wizard"] else 0


def _in_tower(view: dict) -> list[str]:
    out = {pl["character"] for pl in view["players"]} | set(view["removed"]["characters"])
    return [c for c in pack().character_names if c not in out]


def _odds(a: str, d: str, pennants: int) -> float:
    p = pack()
    return attacker_wins_against_rerolls(p.dice[a][d], p.dice[d][a], *p.reroll_allowance(pennants))


def _faces(dice: list[int], chosen: list[int]) -> str:
    shown = [str(dice[i]) for i in chosen]
    return " and ".join([", ".join(shown[:-1]), shown[-1]] if len(shown) > 1 else shown)


def label(view: dict, seat: int, action: dict) -> str:
    """The label of one of `seat`'s legal actions, from its view: a battle's choices say the dice
    each side rolls (Combat Strength) and the odds, the re-rolls name the faces they pick up."""
    text = describe(action)
    tasks = view.get("tasks") or []
    if not tasks or tasks[-1]["task"] != "battle":
        return text
    task, p, kind = tasks[-1], pack(), action.get("kind")
    players = view["players"]
    mine = players[task["attacker"]]["character"]
    if kind == "declare":
        theirs = players[action["seat"]]["character"]
        return f"{text} (the {theirs}): your {p.dice[mine][theirs]} dice against his {p.dice[theirs][mine]}"
    if task["defender"] is None:
        return text
    theirs = players[task["defender"]]["character"]
    pennants = _battle_pennants(view, task)
    if kind == "fight":
        return (f"Fight as the {mine}: your {p.dice[mine][theirs]} dice against the {theirs}'s"
                f" {p.dice[theirs][mine]}{_rerolls(pennants)}: you win {_pct(_odds(mine, theirs, pennants))}")
    if kind == "transform":
        inside = _in_tower(view)
        if not inside:
            return text
        odds = sum(_odds(c, theirs, pennants) for c in inside) / len(inside)
        counts = sorted({p.dice[c][theirs] for c in inside})
        step = view["king"] + 1
        king = ("the King steps onto the Tower: this is the final battle" if step > p.ramp_steps
                else f"the King climbs to step {step}" + (", where a Ramp token waits" if str(step) in view["ramp"]
                                                         else ""))
        return (f"{text}: one of {', '.join(inside)} comes out, rolling {'-'.join(map(str, counts))} dice against"
                f" the {theirs}: you win {_pct(odds)} on average; {king}")
    dice = task.get("dice")
    if dice is None:
        return text
    if kind == "accept":
        held = winner(dice["attacker"], dice["defender"]) == "defender"
        return "Keep the dice: " + ("you hold the Castle" if held else "you lose the battle")
    if kind == "reroll":
        chosen = action["dice"]
        numbers = ", ".join(str(i + 1) for i in chosen)
        again = " again" if task["reroll"] and task["reroll"]["die"] is not None else ""
        return (f"Re-roll die {numbers}{again} (showing {_faces(dice['defender'], chosen)})" if len(chosen) == 1
                else f"Re-roll dice {numbers} (showing {_faces(dice['defender'], chosen)})")
    return text


def _setup_decision(view: dict) -> str:
    """Whose set-up choice it is and what it is (assembly.py)."""
    seats, removed = len(view["players"]), view["removed"]
    k, made = 4 - seats, view["setup"]["made"]
    order = view["setup"]["order"]
    out = (f"; out so far: {', '.join(removed['characters'] + removed['wizards'])}"
           if removed["characters"] or removed["wizards"] else "")
    if made < 2 * k:
        seat = order[made % len(order)]
        what = (f"eliminate a Character ({made + 1} of {k})" if made < k
                else f"eliminate a Wizard ({made - k + 1} of {k})")
    else:
        seat = next(s for s in order if view["players"][s]["wizard"] is None)
        what = "select your Wizard"
    first = order[-1]
    return f"Set-up: seat {seat} to {what}{out}. Seat {first} will move first."


def render(view: dict, seat: int | None, colour: bool = False) -> str:
    p = pack()
    board = view["board"]
    occupant = {pl["at"]: (s, pl) for s, pl in enumerate(view["players"])}
    steps = sorted(int(s) for s in view["ramp"])
    lines = [f"Tower of the Wizard King - Ramp of Time: the King is on step {view['king']} of {p.ramp_steps}"
             f" (Ramp tokens on {', '.join(map(str, steps)) or 'none'}); turn {view['turn']['played'] + 1}",
             ""]
    scores: dict[str, int] = {}
    for sq in board.values():
        if sq["pennants"]:
            scores[sq["pennants"]["wizard"]] = scores.get(sq["pennants"]["wizard"], 0) + sq["pennants"]["count"]
    for s, pl in enumerate(view["players"]):
        wiz = next((w for w in p.wizards if w.id == pl["wizard"]), None)
        who = f"{wiz.name} ({wiz.colour})" if wiz else "?"
        at = p.territories[pl["at"]].name if pl["at"] in p.territories else "rocky space"
        mark = "  <- you" if s == seat else ""
        row = (f"Seat {s}: {who:<18} {str(pl['character']):<9} at {at:<17} Pennants left {pl['supply']:>2}"
               f"  on Castles {scores.get(pl['wizard'], 0):>2}{mark}")
        lines.append(_paint(row, wiz.colour if wiz else None, colour))
    for ring, title in RINGS:
        lines += ["", title]
        for t in sorted((t for t in p.territory_ids if p.territories[t].ring == ring),
                        key=lambda t: p.territories[t].position):
            terr, sq = p.territories[t], board[t]
            cells = [f"{terr.name:<17}", f"{terr.terrain:<9}", "cave" if terr.cave else "    ", f"{_token(sq):<22}"]
            pen = sq["pennants"]
            pen_text = f"{_colour_of(pen['wizard'])} x{pen['count']}" if pen else ""
            cells.append(_paint(f"{pen_text:<10}", _colour_of(pen["wizard"]) if pen else None, colour))
            cells.append("(P)" if sq["protected"] else "   ")
            here = occupant.get(t)
            cells.append(f"{'@' + here[1]['character'] + '/' + str(_colour_of(here[1]['wizard'])) if here else '':<16}")
            touching = [p.territories[c.to].name + ("" if c.river is None else "=" if c.bridge else "~")
                        for c in p.crossings[t]]
            lines.append("  " + " ".join(cells) + " | " + ", ".join(touching))
    lines += ["", _decision(view)]
    return "\n".join(lines)


def _wizard_name(w: str) -> str:
    wiz = next((x for x in pack().wizards if x.id == w), None)
    return f"{wiz.name}, {wiz.title} ({wiz.colour})" if wiz else w


def _where(t: str | None) -> str:
    terr = pack().territories.get(t) if t else None
    return terr.name if terr else "the rocky space"


def _king_climbed(e: dict) -> str:
    if e["on_tower"]:
        return "The Wizard King steps onto the top of the Tower!"
    found = " and finds a Ramp token" if e.get("ramp_token") else ""
    patience = " (tired of waiting)" if e["cause"] == "patience" else ""
    return f"The Wizard King climbs to step {e['step']}{found}{patience}"


def _event(e: dict) -> str:
    kind = e["type"]
    dice = lambda xs: " ".join(map(str, xs))  # noqa: E731
    text = {
        "eliminated": lambda: (f"Set-up by chance: out of the game - Characters {', '.join(e['characters']) or 'none'};"
                               f" Wizards {', '.join(e['wizards']) or 'none'}; the seats are "
                               + ", ".join(_wizard_name(w) for w in e["seats"])),
        "first_player": lambda: (f"Set-up: seat {e['seat']} goes first; the set-up choices go"
                                 f" {', '.join(f'seat {s}' for s in e['choosing'])}"),
        "character_eliminated": lambda: (f"Set-up: seat {e['seat']} eliminates the {e['character']}"
                                         " (and its Home Castle)"),
        "wizard_eliminated": lambda: f"Set-up: seat {e['seat']} eliminates the {_wizard_name(e['wizard'])}",
        "wizard_selected": lambda: (f"Set-up: seat {e['seat']}"
                                    f" {'takes the last Wizard,' if e.get('last') else 'selects'}"
                                    f" {_wizard_name(e['wizard'])}"),
        "castle_sites": lambda: (f"Set-up: castle tokens on {len(e['territories'])} territories; "
                                 f"Ramp tokens on steps {dice(e['ramp_steps'])}"),
        "tokens_placed": lambda: (f"Set-up: {e['face_down']} tokens face down, {e['ramp_tokens']} on the Ramp, "
                                  f"{e['tower']} Characters in the Tower"),
        "character_dealt": lambda: f"Seat {e['seat']} ({e['wizard']}) starts as the {e['character']}",
        "turn_started": lambda: (f"Seat {e['seat']}'s {'extra ' if e['extra'] else ''}turn"
                                 + (" (flying)" if e.get("by") == "fly" else "")),
        "moved": lambda: (f"Seat {e['seat']} ({e['character']}) moves from {_where(e['from'])} to {_where(e['to'])}"
                          f" ({len(e['path'])} space{'s' if len(e['path']) != 1 else ''})"),
        "passed": lambda: f"Seat {e['seat']} passes",
        "flew": lambda: f"Seat {e['seat']} flies from {_where(e['from'])} to {_where(e['to'])}",
        "token_revealed": lambda: f"Token in {_where(e['territory'])} turned over: {e['token']}",
        "token_removed": lambda: f"Token {e['token']} leaves {_where(e['territory'])}",
        "token_left_face_up": lambda: f"Token {e['token']} stays face up in {_where(e['territory'])} ({e['why']})",
        "spell_cast": lambda: f"Seat {e['seat']} uses {e['spell'].replace('_', ' ')}",
        "extra_turn": lambda: f"Seat {e['seat']} will take another turn ({e['why']})",
        "home_castle_already_yours": lambda: f"Seat {e['seat']} already holds this Home Castle",
        "home_castle_left": lambda: (f"Seat {e['seat']} leaves the {e['wizard']} Pennants on its Home Castle"
                                     f" in {_where(e['territory'])}"),
        "pennants_placed": lambda: (f"Seat {e['seat']} places {e['count']} Pennant(s) in {_where(e['territory'])}"
                                    f" (now {e['total']}; {e['why']})"),
        "pennants_returned": lambda: (f"{e['count']} {e['wizard']} Pennant(s) go home from {_where(e['territory'])}"
                                      f" ({e['why']})"),
        "castle_protected": lambda: f"The Castle in {_where(e['territory'])} is protected: no battle",
        "battle_started": lambda: (f"Battle for {_where(e['territory'])}: seat {e['attacker']} attacks"
                                   + (f" seat {e['defender']}" if e["defender"] is not None else "")),
        "opponent_declared": lambda: f"Seat {e['attacker']} will do battle with seat {e['defender']}",
        "transformed": lambda: (f"Seat {e['seat']} transforms: {e['from']} goes into the Tower,"
                                f" {e['pulls']} pull(s), the {e['to']} comes out"),
        "king_climbed": lambda: _king_climbed(e),
        "ramp_token_taken": lambda: f"Seat {e['seat']} takes the Ramp token from step {e['step']}",
        "ramp_token_lost": lambda: f"The Ramp token on step {e['step']} leaves the game unused",
        "ramp_token_revealed": lambda: f"Seat {e['seat']} turns over the Ramp token: {e['token']}",
        "ramp_token_discarded": lambda: f"The Ramp token {e['token']} cannot be used and leaves the game",
        "battle_dice": lambda: (f"Dice: seat {e['attacker']} rolls {dice(e['attacker_dice'])}"
                                f" v seat {e['defender']} rolls {dice(e['defender_dice'])}"),
        "battle_reroll": lambda: (f"Seat {e['defender']} re-rolls {dice(e['was'])} -> {dice(e['now'])}:"
                                  f" now {dice(e['defender_dice'])}"),
        "battle_won": lambda: (f"Seat {e['winner']} wins the battle for {_where(e['territory'])}"
                               + (" and holds it" if e["side"] == "defender" else "")),
        "player_resigned": lambda: (f"Seat {e['seat']}"
                                    + (f" ({_wizard_name(e['wizard'])})" if e.get("wizard") else "")
                                    + " resigns and is out of the game"),
        "mover_removed": lambda: f"Seat {e['seat']}'s {e['character']} leaves the map from {_where(e['from'])}",
        "battle_walkover": lambda: (f"Seat {e['loser']} resigned: seat {e['winner']} wins the battle for"
                                    f" {_where(e['territory'])} unfought"),
        "spell_lapsed": lambda: f"Seat {e['seat']}'s {e['spell'].replace('_', ' ')} lapses: {e['why']}",
        "chosen_for_resigned": lambda: f"Set-up: a choice made for seat {e['seat']}, who resigned",
        "protection_placed": lambda: f"Seat {e['seat']} protects the Castle in {_where(e['territory'])}",
        "protection_moved": lambda: (f"Seat {e['seat']} moves a Protection"
                                     f" from {_where(e['from'])} to {_where(e['to'])}"),
    }.get(kind)
    return text() if text else f"{kind}: {', '.join(f'{k}={v}' for k, v in sorted(e.items()) if k != 'type')}"


def render_events(events: list[dict]) -> list[str]:
    return [_event(e) for e in events]


# --- choosing at a terminal (services/cli/choosing.py) ------------------------------------------
# after the first drawing a terminal prints only the lines that changed, under the Ramp's line
REDRAW_CHANGES = 1


def group(action: dict) -> str | None:
    """Moves are listed by destination first, then the ways there (a destination may be reached
    by several paths: with or without a cave, over one bridge or another)."""
    if action.get("kind") == "move":
        terr = pack().territories.get(action["to"])
        return f"Move to {terr.name if terr else action['to']}"
    return None


def character_card(name: str, against: list[str] | None = None) -> str:
    """A Character's card from content/characters.json and tokens.json: moves, home terrain, rivers,
    cave bonus, fears, Home Castle and its Combat Strength (dice rolled) against each other Character."""
    p = pack()
    c = p.characters[name]
    home = p.homes.get(name)
    lines = [f"The {name}: moves {c.moves} spaces; home terrain {c.home_terrain}; "
             + ("crosses rivers anywhere" if c.crosses_rivers else "crosses rivers only at a bridge")
             + (f"; {c.cave_bonus[1]} extra spaces after leaving a {c.cave_bonus[0]} cave" if c.cave_bonus else "")]
    if c.fearless_against:
        lines.append(f"  fearless against the {', '.join(c.fearless_against)}")
    if c.afraid_of:
        lines.append(f"  afraid of the {', '.join(c.afraid_of)}")
    for loser, n in c.victory_pennants.items():
        lines.append(f"  places {n} Pennants when he beats the {loser}")
    if home:
        lines.append(f"  Home Castle: {home.name} (Add {home.pennants} Pennants or Go Again)")
    others = [o for o in (against or p.character_names) if o != name]
    lines.append("  Combat Strength (his dice v theirs): "
                 + ", ".join(f"{o} {p.dice[name][o]} v {p.dice[o][name]}" for o in others))
    return "\n".join(lines)


def _combat_rules() -> str:
    """How a battle is decided and won, in content/rules.json's words."""
    import re

    p = pack()
    battle = load_raw()["rules"]["battle"]
    times = lambda n: "once" if n == 1 else f"up to {n} times"  # noqa: E731
    rerolls = "; ".join(f"{n} Pennants: 1 die {times(s)}" + (f" or {m} dice once" if m > 1 else "")
                        for n, (s, m) in sorted(p.rerolls.items()) if s or m)
    tie = re.sub(r"\s*\(RULE-GAPS[^)]*\)", "", battle["all_dice_tie"]["why"])
    return ("How to do battle: each side rolls its Combat Strength in dice; the highest die of each side are "
            f"compared, the higher wins. {tie}\n  {battle['victory_pennants']['quote']}"
            f"\n  {battle['castle_victory']['why']}"
            + (f"\n  A defender on his own Castle may re-roll by his Pennants there: {rerolls}." if rerolls else ""))


def help_text(view: dict, seat: int, actions: list[dict]) -> str:
    """The rules for what is on offer: in a battle the combat table of the Characters in it and how
    a battle is decided; for a spell token its power as the rulebook gives it; else your Character's card."""
    p = pack()
    players = view["players"]
    tasks = view.get("tasks") or []
    task = tasks[-1] if tasks else None
    out = []
    if task and task["task"] == "spell":
        spells = p.map_spells if task["source"] == "map" else p.ramp_spells
        s = spells.get(task["spell"], {})
        out.append(f"{s.get('name', task['spell'])} ({task['source']} token): {s.get('effect', '')}")
    if task and task["task"] == "battle":
        fighters = [players[task["attacker"]]["character"]]
        if task["defender"] is not None:
            fighters.append(players[task["defender"]]["character"])
        else:
            fighters += [players[a["seat"]]["character"] for a in actions if a.get("kind") == "declare"]
        for c in dict.fromkeys(fighters):
            out.append(character_card(c, [f for f in fighters if f != c] or None))
        if any(a.get("kind") == "transform" for a in actions):
            inside = _in_tower(view)
            if inside:
                out.append("In the Tower now: " + ", ".join(inside) + "; transforming brings one of them out and "
                           "moves the Wizard King one step up the Ramp")
        out.append(_combat_rules())
    if not out or (task and task["task"] in ("move", "flight", "home")):
        mine = players[seat]["character"] if seat is not None and seat < len(players) else None
        if mine:
            out.append(character_card(mine))
    for a in actions:
        if a.get("kind") == "eliminate_character":
            out.append(character_card(a["character"]))
    if any(a.get("kind") == "home" for a in actions):
        out.append("Home Castles: landing on your Character's Home Castle, add its Pennants or go again")
    return "\n".join(out) if out else "choose by number: each choice is a legal action of the rules"
