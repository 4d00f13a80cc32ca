"""What a seat may see (14.3 and the face-down components).

Hidden from every seat: the order of the Task, Event and Wizard decks, the Gem Cards
in the High Wizards' boxes (3.11: face down), the solitaire tiles while face down
and the tiles removed unseen (Appendix A), the identity behind each Secret Wizard
marker. Hidden from all but their owner: the Gem Record, the Secret Wizard Record
and knowledge of the False Wizard (14.3). Everything else on a Record Sheet is
public (14.3), and so is the board.
"""
from __future__ import annotations

from shared.engine.state import tree_copy
from shared.wizards.state import WizardsState

SECRET_RECORDS = ("gems", "secret_record", "false_wizard")
# What anyone may see of the resolution stack: what is being resolved, for whom, where
# and under which rule; cards drawn, dice kept and the stage reached stay out (a stage can
# follow from a secret, such as a Gem already held; the events tell each seat what it may know).
PUBLIC_ITEM_FIELDS = ("do", "seat", "at", "rule")


def view(state: WizardsState, seat: int | None) -> dict:
    s = tree_copy(state.to_json())  # redacted below: the state itself is never changed
    t = s["tiles"]
    v = {
        "game": "wizards",
        "you": seat,
        "seats": s["seats"],
        "variant": s["config"]["variant"],
        "solitaire": s["solitaire"],
        # Appendix B: the Telepathic Partnerships (seats side by side), public from the set-up
        "partners": [[i, i + 1] for i in range(0, s["seats"], 2)] if s["config"]["variant"] == "partnership" else [],
        "days_limit": s["days_limit"],
        "phase": s["phase"],
        "step": s["step"],
        "dealer": s["dealer"],
        "calendar": s["calendar"],
        "completion": s["completion"],
        "thwart": s["thwart"],
        "thwarts": s["thwarts"],
        "out_of_play": s["out_of_play"],
        "taken": s["taken"],
        "decks": {k: len(v) for k, v in s["decks"].items()},
        # Task and Event discards lie face up; Wizard Cards going back into their deck are
        # counted only: a card drawn for a Secret Wizard must not show who he is (7.302 6)
        "discards": {**s["discards"], "wizard": len(s["discards"]["wizard"])},
        "wizard_aside": len(s["wizard_aside"]),
        "gem_boxes": {name: "face down" for name in s["gem_boxes"]},
        "wizard_markers": s["wizard_markers"],
        "secret_wizards": [{"letter": w["letter"], "at": w.get("at")} for w in s["secret_wizards"]],
        "tiles": {
            "placed": [{"tile": None if p["face_down"] else p["tile"], "at": p["at"], "rotation": p["rotation"],
                        "by": p["by"]} for p in t["placed"]],
            "hands": t["hands"],
            "face_down": t["face_down"],
            "stack": len(t["stack"]),
            "removed": len(t["removed"]),
            "aside": t["aside"],
            "placer": t["placer"],
            "selected": t.get("selected"),
        },
        "boats": s["boats"],
        "dragon": s["dragon"],
        "demons": s["demons"],
        "task_markers": s["task_markers"],
        "players": [],
        "turn": s["turn"],
        "await": s["await"],
        "pending": [{k: i[k] for k in PUBLIC_ITEM_FIELDS if k in i} for i in s["pending"]],
        "chance": None,
        "result": s["result"],
        "resigned": s["resigned"],  # the seats whose players withdrew (withdrawal.py)
    }
    if s["chance"]:
        req = s["chance"]["request"]
        v["chance"] = {"purposes": [p["purpose"] for p in req["pools"]], "secret": req["secret"]}
    for p in s["players"]:
        if p["seat"] != seat:
            for key in SECRET_RECORDS:
                p[key] = "hidden"
        v["players"].append(p)
    return v
