"""A matchmaking replica that dies between creating a match and seating its players, played
step by step on a live platform (for the orphan test and the recovery benchmark)."""
from __future__ import annotations

import secrets
import time

QUEUE = "race:standard"


async def replica_that_dies_after_creating(platform, players: list, invite: str,
                                           claim_ms: int) -> tuple[list[str], str]:
    """What a replica does up to its death: lock the queue, claim a ticket of each player, create
    their match; it never seats them. Returns (the ticket ids, the orphan match's id)."""
    owner = "doomed-" + secrets.token_hex(4)
    while not await platform.tickets.lock(QUEUE, owner, 5_000):
        pass  # the live replica holds it for one cycle
    now = int(time.time() * 1000)
    ids = [(await platform.tickets.create("race", "standard", [p.player], 2, 1000, False, 600, invite,
                                          now)).ticket_id for p in players]
    proposal = secrets.token_hex(8)
    assert await platform.tickets.claim(QUEUE, ids, proposal, now + claim_ms)
    await platform.matches.create("race", "standard", [("human", p.player) for p in players], {},
                                  match_id=proposal, players=[p.player for p in players], rated=True)
    await platform.tickets.unlock(QUEUE, owner)  # (its lock would expire; the claim is what matters)
    return ids, proposal
