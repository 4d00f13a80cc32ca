"""The AI seat in the partnership game (Appendix B): partners put their Gems together.

The even seat of a pair keeps the Gems, the odd one gives his over when they meet (item `partners`:
`partner_gem` while both are gathering Gems). So an odd seat holding Gems goes to meet his partner
once the partner, too, is gathering (Rank FOUR with no Mandatory Task left: public on his Record
Sheet, 14.3); and a keeper with a pool worth guarding leaves the random Gem Summoning to his partner
(`keeps_pool`). Its own Gem Record is all it reads that others cannot see.
"""
from __future__ import annotations


def partner(view: dict, seat: int) -> int | None:
    for pair in view.get("partners") or []:
        if seat in pair:
            return next(s for s in pair if s != seat)
    return None


def keeper(view: dict, seat: int) -> bool:
    """The seat of a pair that keeps the Gems (the even one), or any seat in no partnership."""
    return partner(view, seat) is None or seat % 2 == 0


def publicly_gathering(p: dict) -> bool:
    return p["rank"] >= 4 and not any(t["mandatory"] for t in p["tasks"])


def meeting_goal(view: dict, seat: int) -> list:
    """Where the giver of a pair goes with his Gems: his partner's space, once both may exchange them."""
    other = partner(view, seat)
    gems = view["players"][seat]["gems"]
    if other is None or keeper(view, seat) or not (isinstance(gems, dict) and gems):
        return []
    mate = view["players"][other]
    if not publicly_gathering(mate) or mate.get("at") is None:
        return []
    return [tuple(mate["at"])]


POOL = 3  # Gems a keeper holds before he leaves the random Gem Summoning to his partner


def keeps_pool(view: dict, seat: int) -> bool:
    """A keeper holding POOL Gems or more, whose partner gathers too: the partner summons at random (with little to
    lose to the False Wizard, 7.3263) and brings them, while the keeper risks his pool only on a High Wizard he can
    name (11.2321)."""
    other = partner(view, seat)
    gems = view["players"][seat]["gems"]
    return (other is not None and keeper(view, seat) and isinstance(gems, dict) and len(gems) >= POOL
            and publicly_gathering(view["players"][other]))
