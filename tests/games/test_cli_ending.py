"""The terminal client says plainly how a match ended (services/cli/play.py)."""
from __future__ import annotations

from services.cli.play import how_it_ended

SEATS = ["you", "AI 1", "AI 2"]


def test_a_win_a_loss_a_shared_win_and_nobody():
    assert how_it_ended({"winners": [0], "scores": [1, 0, 0], "summary": "the gems reach Rüktal"}, 0, SEATS) == (
        "Match over. You won. the gems reach Rüktal. Scores: you 1, AI 1 0, AI 2 0.")
    lost = how_it_ended({"winners": [2], "scores": [3, 1, 5]}, 0, SEATS)
    assert lost.startswith("Match over. AI 2 won; you did not.")
    assert "You won, with AI 1." in how_it_ended({"winners": [0, 1], "scores": [1, 1, 0]}, 0, SEATS)
    lost = how_it_ended({"winners": [], "scores": [0, 0, 0], "summary": "the Sacred Circle has fallen"}, 0, SEATS)
    assert lost.startswith("Match over. Nobody won. the Sacred Circle has fallen.")
    assert how_it_ended({}, 0, SEATS) == "Match over. Nobody won."


def test_the_end_says_plainly_who_resigned():
    mine = how_it_ended({"winners": [1], "scores": [0, 3], "resigned": [0],
                         "summary": "Solanos, Wizard of Fire resigned; Aquilon, Wizard of Water ascends the throne"},
                        0, ["you", "AI 1"])
    assert mine.startswith("Match over. You resigned. AI 1 won; you did not.")
    theirs = how_it_ended({"winners": [0], "scores": [1, 0, 0], "resigned": [2, 1]}, 0, SEATS)
    assert theirs.startswith("Match over. AI 2 and AI 1 resigned. You won.")
