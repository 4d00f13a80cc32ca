"""bench.strength's record (`--record`): a stopped run loses no match and a resumed one plays
none twice, and its figures are those of every recorded match of the row."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.strength import Record, hard_settings, levels_for, main, parser

ROOT = Path(__file__).resolve().parents[2]

ROW = ["--game", "tower", "--seats", "2", "--pairs", "normal-easy", "--seed", "7"]


def played(out: str) -> list[int]:
    """The seeds of the matches a run printed as played."""
    return [int(seed) for seed in re.findall(r"^  normal v easy \d+/\d+ \(seed (\d+)\)", out, re.M)]


def test_a_resumed_row_plays_only_the_matches_its_record_lacks(tmp_path, capsys):
    record, whole = tmp_path / "row.jsonl", tmp_path / "whole.json"
    main(ROW + ["--matches", "2", "--record", str(record)])
    assert played(capsys.readouterr().out) == [7, 8]
    main(ROW + ["--matches", "3", "--record", str(record), "--out", str(tmp_path / "resumed.json")])
    out = capsys.readouterr().out
    assert "2 of 3 matches already in" in out and played(out) == [9]
    assert len(record.read_text().splitlines()) == 3
    main(ROW + ["--matches", "3", "--out", str(whole)])  # the same row in one go, without a record
    resumed, straight = (json.loads((tmp_path / n).read_text()) for n in ("resumed.json", "whole.json"))
    assert resumed["rows"][0]["wins"] == straight["rows"][0]["wins"] and resumed["rows"][0]["matches"] == 3
    assert resumed["think"]["normal"]["decisions"] == straight["think"]["normal"]["decisions"]


def test_a_record_counts_a_match_only_at_the_settings_it_was_played_with(tmp_path, capsys):
    record = tmp_path / "row.jsonl"
    main(ROW + ["--matches", "1", "--record", str(record)])
    main(["--game", "tower", "--seats", "2", "--pairs", "normal-easy", "--seed", "8", "--matches", "1",
          "--record", str(record)])
    assert "already in" not in capsys.readouterr().out and len(record.read_text().splitlines()) == 2


def test_the_table_reads_a_record_as_it_stands_and_leaves_a_finished_row_to_its_json(tmp_path, capsys):
    from bench.strength_table import load

    record, finished = tmp_path / "row.jsonl", tmp_path / "row.json"
    main(ROW + ["--matches", "2", "--record", str(record)])
    (row,) = load([record])
    assert row["game"] == "tower" and row["seats"] == 2
    assert [(r["first"], r["second"], r["matches"]) for r in row["rows"]] == [("normal", "easy", 2)]
    assert row["think"]["normal"]["decisions"] > 0
    main(ROW + ["--matches", "3", "--record", str(record), "--out", str(finished)])
    (row,) = load([finished, record])
    assert row["rows"][0]["matches"] == 3 and row["jobs"] == 1


def test_a_match_counts_only_at_the_policy_revision_it_was_played_with(tmp_path, monkeypatch, capsys):
    """A game's policy REVISION is part of a record's key (none where the policy has none): matches played before
    the policy came to play otherwise are not counted after, and the table names the revision, a row apart."""
    import shared.tower.policy as tower_policy
    from bench.strength_table import load, rows

    record = tmp_path / "row.jsonl"
    main(ROW + ["--matches", "1", "--record", str(record)])
    monkeypatch.setattr(tower_policy, "REVISION", 2, raising=False)
    main(ROW + ["--matches", "1", "--record", str(record)])
    assert "already in" not in capsys.readouterr().out and len(record.read_text().splitlines()) == 2
    main(ROW + ["--matches", "1", "--record", str(record), "--out", str(tmp_path / "row.json")])
    assert "1 of 1 matches already in" in capsys.readouterr().out
    table = [line for line in rows(load([record])) if "normal v easy" in line]
    assert [line.split(" | ")[0] for line in table] == ["| tower", "| tower, policy 2"]
    assert json.loads((tmp_path / "row.json").read_text())["policy"] == 2


def test_a_hard_match_counts_only_at_the_search_settings_it_was_played_with(tmp_path, monkeypatch):
    """The served budget is part of a hard pair's key, and so is the search's HARD_REVISION where a game has one:
    a record made before either changed is not counted after."""
    import shared.tower.levels as tower_levels
    from shared.engine.search import Budget

    settings = parser().parse_args(["--game", "tower"])
    record = tmp_path / "row.jsonl"

    def recorded(pair: tuple[str, str]) -> int:
        return len(Record(record, {"game": "tower"}, hard=hard_settings("tower", settings)).played(*pair))

    Record(record, {"game": "tower"}, hard=hard_settings("tower", settings)).add("hard", "normal", {"i": 0})
    Record(record, {"game": "tower"}, hard=hard_settings("tower", settings)).add("normal", "easy", {"i": 0})
    assert recorded(("hard", "normal")) == 1 and recorded(("normal", "easy")) == 1
    monkeypatch.setattr(tower_levels, "HARD_BUDGET", Budget(iterations=96, ms=900.0))
    assert recorded(("hard", "normal")) == 0 and recorded(("normal", "easy")) == 1
    tuned = parser().parse_args(["--game", "tower", "--iterations", "96"])
    assert hard_settings("tower", tuned) == hard_settings("tower", settings)
    assert "revision" not in hard_settings("tower", settings)  # (no HARD_REVISION: the keys of its records stand)
    monkeypatch.setattr(tower_levels, "HARD_REVISION", 2, raising=False)  # the search chooses otherwise
    assert recorded(("hard", "normal")) == 0 and hard_settings("tower", settings)["revision"] == 2
    Record(record, {"game": "tower"}, hard=hard_settings("tower", settings)).add("hard", "normal", {"i": 0})
    assert recorded(("hard", "normal")) == 1
    wizards = parser().parse_args(["--game", "wizards", "--iterations", "2"])  # a HARD_REVISION: keyed, not passed
    assert hard_settings("wizards", wizards)["revision"] >= 2 and levels_for("wizards", wizards)["hard"]
    # the shortlist's ranking is keyed where a game has more than one (Wizards), and refused where it has not
    nearest = parser().parse_args(["--game", "wizards", "--rank", "nearest"])
    assert hard_settings("wizards", wizards)["rank"] == "rated"
    assert hard_settings("wizards", nearest)["rank"] == "nearest"
    import shared.wizards.levels as wizards_levels

    handed: dict = {}
    monkeypatch.setattr(wizards_levels, "hard", lambda budget, **settings: handed.update(settings) or "searched")
    assert levels_for("wizards", nearest)["hard"] == "searched" and handed["rank"] == "nearest"
    assert handed["win"] == "delivered"
    with pytest.raises(SystemExit, match="--rank: the tower search has no such setting"):
        hard_settings("tower", parser().parse_args(["--game", "tower", "--rank", "nearest"]))
    # so is how the value counts a win, keyed between the ranking and the revision as the records hold it
    record = hard_settings("wizards", parser().parse_args(["--game", "wizards", "--win", "record"]))
    assert hard_settings("wizards", wizards)["win"] == "delivered" and record["win"] == "record"
    assert list(record)[-4:] == ["rank", "win", "confirm", "revision"]
    with pytest.raises(SystemExit, match="--win: the incantris search has no such setting"):
        hard_settings("incantris", parser().parse_args(["--game", "incantris", "--win", "record"]))
    # and the fresh samples a challenger's gain must hold on (revision 8), 0 for none
    unconfirmed = parser().parse_args(["--game", "wizards", "--confirm", "0"])
    assert hard_settings("wizards", wizards)["confirm"] == wizards_levels.HARD_CONFIRM > 0
    assert hard_settings("wizards", unconfirmed)["confirm"] == 0
    assert levels_for("wizards", unconfirmed)["hard"] == "searched" and handed["confirm"] == 0
    with pytest.raises(SystemExit, match="--confirm: the tower search has no such setting"):
        hard_settings("tower", parser().parse_args(["--game", "tower", "--confirm", "4"]))
    monkeypatch.undo()  # the real search refuses a value it does not have, before any match is played or keyed
    with pytest.raises(SystemExit, match="win must be one of delivered, record, not 'gems'"):
        levels_for("wizards", parser().parse_args(["--game", "wizards", "--win", "gems"]))


def test_the_strength_bench_imports_no_game_s_levels_for_its_options():
    """A Tower or Incantris row loads no Wizards search: the choices of --rank and --win are checked by the game."""
    loaded = ("import sys, bench.strength; print(sorted(m for m in sys.modules"
              " if m.startswith(('shared.tower.', 'shared.incantris.', 'shared.wizards.levels'))))")
    done = subprocess.run([sys.executable, "-c", loaded], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_hard_row_is_tabled_with_how_its_root_searched_and_a_change_of_root_is_a_new_row(tmp_path, monkeypatch):
    """The root's way of sharing the budget (UCT or halving) is a search setting like the budget: a record keeps
    each root's matches apart, and the table names the root beside the hard level."""
    import shared.tower.levels as tower_levels
    from bench.strength_table import load, rows

    settings = parser().parse_args(["--game", "tower"])
    record = tmp_path / "row.jsonl"
    key = {"game": "tower", "variant": "standard", "seats": 2, "days": None, "seed": 1}
    match = {"mine": 0, "winners": [0], "scores": [20, 10], "think": {"hard": [0.3], "normal": [0.0001]}}
    monkeypatch.setattr(tower_levels, "HARD_ROOT", "uct")
    Record(record, key, hard=hard_settings("tower", settings)).add("hard", "normal", {"i": 0, **match})
    monkeypatch.setattr(tower_levels, "HARD_ROOT", "halving")
    halving = Record(record, key, hard=hard_settings("tower", settings))
    assert halving.played("hard", "normal") == {}
    halving.add("hard", "normal", {"i": 0, **match, "winners": [1]})
    table = "\n".join(rows(load([record])))
    assert "| hard (uct) v normal | 100.0% |" in table and "| hard (halving) v normal | 0.0% |" in table


def test_a_root_a_game_has_no_search_for_is_refused_before_any_match(tmp_path, capsys):
    """`--root lines` is Incantris's plans for the turn: Tower has none, and the bench says so instead of
    playing a row under a search it did not ask for."""
    with pytest.raises(SystemExit, match="root is uct or halving, not 'lines'"):
        main(["--game", "tower", "--seats", "2", "--pairs", "hard-normal", "--root", "lines", "--matches", "1",
              "--record", str(tmp_path / "row.jsonl")])
    assert not (tmp_path / "row.jsonl").exists()
    with pytest.raises(SystemExit, match="no root 'halving'"):
        main(["--game", "incantris", "--seats", "2", "--pairs", "hard-normal", "--root", "halving", "--matches", "1"])


def test_a_variant_served_its_own_search_is_measured_and_recorded_with_it(monkeypatch):
    """The solo game's hard level is served its own settings (shared/incantris/levels.py HARD_VARIANTS, keyed by
    scenario): the bench plays and keys that row with them, every other variant with the game's HARD_* settings.
    A setting the command line tunes still wins, and another root starts from the game's settings, so the solo
    game's plans row is replayed as it was played."""
    import shared.incantris.levels as incantris_levels

    def settings(*extra: str) -> dict:
        return hard_settings("incantris", parser().parse_args(["--game", "incantris", *extra]))

    solo_args = ("--variant", "solo", "--seats", "1")
    solo, royale = settings(*solo_args), settings()
    assert (solo["root"], solo["iterations"], solo["ms"], solo["horizon"], solo["bias"]) == ("uct", 16, 700.0, 16, 1.0)
    assert royale["root"] == incantris_levels.HARD_ROOT == "lines" and royale["iterations"] == 32
    assert settings(*solo_args, "--root", "lines") == royale
    assert settings(*solo_args, "--root", "uct") == solo and settings(*solo_args, "--bias", "3")["bias"] == 3
    monkeypatch.setitem(incantris_levels.HARD_VARIANTS, "battle-royale", {"iterations": 8})
    assert settings()["iterations"] == 8 == settings("--variant", "battle-royale")["iterations"]


def test_rows_of_one_root_under_different_settings_are_tabled_apart(tmp_path):
    """A setting tried beside the served one (more iterations, say) is a row of its own, named by what differs;
    a root alone at its table keeps its plain name."""
    from bench.strength_table import load, rows

    record = tmp_path / "row.jsonl"
    key = {"game": "wizards", "variant": "standard", "seats": 2, "days": 0, "seed": 1}
    match = {"mine": 0, "winners": [], "scores": [0, 0], "think": {"hard": [0.3]}, "margin": 1.0}
    served = {"iterations": 12, "ms": 600.0, "bias": 2.0, "root": "halving"}
    Record(record, key, hard=served).add("hard", "normal", {"i": 0, **match})
    Record(record, key, hard={**served, "iterations": 24}).add("hard", "normal", {"i": 0, **match, "margin": -1.0})
    Record(record, {**key, "seats": 4}, hard=served).add("hard", "normal", {"i": 0, **match})
    table = "\n".join(rows(load([record])))
    assert "| 2 | hard (halving, iterations 12) v normal | 0.0% |" in table
    assert "| 2 | hard (halving, iterations 24) v normal | 0.0% |" in table
    assert "| 4 | hard (halving) v normal |" in table


def test_the_share_ahead_on_progress_is_tabled_with_its_own_interval():
    """Where whole games rarely have a winner (Wizards), the share of matches a level ended ahead
    is what its goal is judged by, so it carries a 95% interval of its own: a level tie counts half."""
    from bench.strength import Ends, row_figures, wilson
    from bench.strength_table import rows

    margins = [1.5, -0.5, 0.0, 2.0, -1.0, 0.25, 0.0, 3.0]  # ahead in 4, level in 2, behind in 2
    ends = Ends()
    for m in margins:
        ends.add(m)
    r = row_figures("hard", "normal", 0, len(margins), ends)
    assert r["ahead"] == 5 / 8 and r["ahead_wilson95"] == list(wilson(5, 8))
    low, high = r["ahead_wilson95"]
    assert low < 5 / 8 < high
    figures = {"game": "wizards", "variant": "standard", "days": 0, "seats": 2, "rows": [r], "think": {}}
    (line,) = rows([figures])[2:]
    assert f"| 62.5% ({low:.1%} - {high:.1%}; margin {sum(margins) / 8:+.2f}) |" in line
    del r["ahead_wilson95"]  # a JSON written before the share had its interval
    assert rows([figures])[2].endswith("| 62.5% (margin +0.66) |")


def test_the_table_names_a_missing_file_and_offers_help(tmp_path, capsys):
    """A file mistyped is named in a usage error (exit 2), not a traceback; --help is help, not a path."""
    from bench.strength_table import main as table

    with pytest.raises(SystemExit) as ended:
        table([str(tmp_path / "nope.jsonl")])
    assert ended.value.code == 2 and "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as ended:
        table(["--help"])
    assert ended.value.code == 0 and "--doc" in capsys.readouterr().out


def test_a_won_game_is_ahead_and_a_game_another_won_is_behind_whatever_the_progress(tmp_path):
    """The share ahead judges a whole game by its winner where it has one: a rival holding six Gems stands level
    with a winner who delivered his (shared/wizards/levels.py `standing`), and records made before the search's
    revision 4 counted a winner's delivered Gems as lost. Without a winner, the progress margin, a tie half."""
    from bench.strength import ended_ahead
    from bench.strength_table import load, rows

    assert [ended_ahead(m) for m in (0.5, 0.0, -0.5)] == [1.0, 0.5, 0.0]
    assert [ended_ahead(m, 1, [1]) for m in (0.5, 0.0, -2.5)] == [1.0, 1.0, 1.0]
    assert [ended_ahead(m, 1, [0]) for m in (1.5, 0.0, -0.5)] == [0.0, 0.0, 0.0]
    assert ended_ahead(-0.5, 3, [2, 3]) == 1.0 and ended_ahead(0.5, 1, [2, 3]) == 0.0  # a partnership's win
    key = {"game": "wizards", "variant": "standard", "seats": 4, "days": 0, "seed": 1000, "first": "hard",
           "second": "normal"}
    games = [([3], 0.0), ([2], -2.5), ([1], 0.5), ([], 0.0), ([], 1.0)]  # hard always in seat 3
    record = tmp_path / "row.jsonl"
    record.write_text("".join(json.dumps({"key": key, "i": i, "mine": 3, "winners": won, "scores": [],
                                          "margin": margin, "think": {}}) + "\n"
                              for i, (won, margin) in enumerate(games)))
    (figures,) = load([record])
    (row,) = figures["rows"]
    assert row["ahead"] == (1 + 0 + 0 + 0.5 + 1) / 5 and row["margin_mean"] == -1.0 / 5
    assert "| 50.0% (" in rows([figures])[2]


def test_two_rows_of_a_record_are_compared_on_the_matches_both_played(tmp_path, capsys):
    """bench.strength_paired: the matches both rows played (by index), each judged by ended_ahead (a game won
    ahead whatever its margin), the second row's better, worse and level, an exact sign test; a selection that
    is not one row is named with what tells its rows apart, and a missing record is a usage error."""
    from bench.strength_paired import main as paired
    from bench.strength_paired import sign_test

    record = tmp_path / "row.jsonl"
    key = {"game": "wizards", "variant": "standard", "seats": 4, "days": 0, "seed": 1000}
    old, new = {"keep": 4, "revision": 3}, {"keep": 4, "revision": 4, "rank": "nearest"}
    for i, margin, winners in [(0, -1.0, []), (1, 0.5, []), (2, -0.5, []), (3, 0.0, [])]:
        Record(record, key, hard=old).add("hard", "normal", {"i": i, "margin": margin, "mine": i % 4,
                                                             "winners": winners})
    for i, margin, winners in [(0, -2.0, [0]), (1, -0.5, []), (2, -0.1, []), (4, 3.0, [])]:
        Record(record, key, hard=new).add("hard", "normal", {"i": i, "margin": margin, "mine": i % 4,
                                                             "winners": winners})
    paired([str(record), "revision=3", "revision=4,rank=nearest"])
    out = capsys.readouterr().out
    assert "wizards, 4 seats, hard v normal: 3 matches both played" in out  # (3 and 4 played by one row only)
    assert "revision=3 33.3%, revision=4,rank=nearest 33.3%" in out  # match 0 won at a margin of -2
    assert "better on 1, worse on 1, level on 1; two-sided sign test p = 1.00" in out
    assert sign_test(9, 3) == pytest.approx(0.146, abs=1e-3) and sign_test(0, 0) == 1.0
    with pytest.raises(SystemExit, match="keep=4: 2 rows, told apart by rank, revision"):
        paired([str(record), "keep=4", "revision=3"])
    with pytest.raises(SystemExit) as ended:
        paired([str(tmp_path / "nope.jsonl"), "revision=3", "revision=4"])
    assert ended.value.code == 2 and "no record at" in capsys.readouterr().err
    again = tmp_path / "again.jsonl"  # revision 3 played again elsewhere: match 1 ended otherwise
    for i, margin in [(0, -1.0), (1, -0.5), (2, -0.5)]:
        Record(again, key, hard=old).add("hard", "normal", {"i": i, "margin": margin, "mine": 0, "winners": []})
    paired([str(record), "revision=3", "revision=3", "--second-record", str(again)])
    assert "better on 0, worse on 1, level on 2" in capsys.readouterr().out
    two = tmp_path / "two.jsonl"  # another table's matches share the indices, not the deals
    Record(two, {**key, "seats": 2}, hard=old).add("hard", "normal", {"i": 0, "margin": 1.0, "mine": 0, "winners": []})
    with pytest.raises(SystemExit, match=r"not played on the same deals: they differ in seats \(4 and 2\)"):
        paired([str(record), "revision=3", "revision=3", "--second-record", str(two)])
    with pytest.raises(SystemExit, match="revison=3: no row of .* has these settings"):
        paired([str(record), "revison=3", "revision=3"])


def test_the_hard_seats_own_play_is_a_level_keyed_by_the_search_revision(tmp_path, monkeypatch, capsys):
    """`own` (Wizards: levels.own, the hard seat's play without its search) is a level where the game's levels have
    one: recorded with the search's revision, since what the own play is goes with it, and timed like the others;
    a game without one refuses it before any match."""
    import shared.wizards.levels as wizards_levels
    from bench.strength_table import load, rows, think_rows

    with pytest.raises(SystemExit, match="'own-normal' is not two of random, easy, normal, hard joined"):
        main(["--game", "tower", "--pairs", "own-normal", "--matches", "1"])
    record = tmp_path / "own.jsonl"
    row = ["--game", "wizards", "--seats", "2", "--days", "2", "--pairs", "own-normal", "--matches", "1",
           "--record", str(record)]
    main(row)
    (entry,) = [json.loads(line) for line in record.read_text().splitlines()]
    assert entry["key"]["first"] == "own" and entry["key"]["own"] == {"revision": wizards_levels.HARD_REVISION}
    assert "hard" not in entry["key"] and entry["think"]["own"]
    (figures,) = load([record])
    assert "| own (revision %d) v normal |" % wizards_levels.HARD_REVISION in rows([figures])[2]
    assert any("| own (revision" in line for line in think_rows([figures]))
    monkeypatch.setattr(wizards_levels, "HARD_REVISION", wizards_levels.HARD_REVISION + 1)
    capsys.readouterr()
    main(row)  # another revision: the match recorded before it is not counted, and is played again
    assert "already in" not in capsys.readouterr().out and len(record.read_text().splitlines()) == 2


def test_a_level_is_compared_with_the_own_play_on_the_same_deals(tmp_path, capsys):
    """bench.strength_paired: a hard row and the own play's row from another record, on the same deals (the
    first-named levels differ, the deal does not)."""
    from bench.strength_paired import main as paired

    key = {"game": "wizards", "variant": "standard", "seats": 2, "days": 0, "seed": 1000}
    hard, own = tmp_path / "hard.jsonl", tmp_path / "own.jsonl"
    for i, (h, o) in enumerate([(1.0, -1.0), (0.5, 0.5), (-1.0, 0.0)]):
        Record(hard, key, hard={"revision": 5}).add("hard", "normal", {"i": i, "margin": h, "mine": i % 2,
                                                                       "winners": []})
        Record(own, key, hard={"revision": 5}).add("own", "normal", {"i": i, "margin": o, "mine": i % 2,
                                                                     "winners": []})
    paired([str(own), "first=own", "revision=5", "--second-record", str(hard)])
    out = capsys.readouterr().out
    assert "wizards, 2 seats, own and hard v normal: 3 matches both played" in out
    assert "first=own 50.0%, revision=5 66.7%" in out and "better on 1, worse on 1, level on 1" in out


def test_the_own_plays_rows_of_two_revisions_are_told_apart_by_the_revision(tmp_path, capsys):
    """bench.strength_paired: the own play's key carries the search's revision (own: {"revision": N}), named as a
    hard row's is (`revision=5`), so two revisions of the own play on the same deals are compared."""
    from bench.strength_paired import main as paired

    key = {"game": "wizards", "variant": "standard", "seats": 2, "days": 0, "seed": 1000}
    own = tmp_path / "own.jsonl"
    for revision, margins in ((5, (-1.0, 0.5, 0.0)), (6, (1.0, 0.5, -1.0))):
        for i, m in enumerate(margins):
            Record(own, key, hard={"revision": revision}).add("own", "normal", {"i": i, "margin": m, "mine": i % 2,
                                                                               "winners": []})
    with pytest.raises(SystemExit, match="2 rows, told apart by revision"):
        paired([str(own), "first=own", "revision=6"])
    paired([str(own), "revision=5", "revision=6"])
    out = capsys.readouterr().out
    assert "revision=5 50.0%, revision=6 66.7%" in out and "better on 1, worse on 1, level on 1" in out


def test_a_share_of_a_win_is_split_among_tied_winners():
    from bench.strength import win_share
    assert win_share(1, [1]) == 1.0 and win_share(1, [0, 1]) == 0.5 and win_share(2, [0, 1]) == 0.0
    assert win_share(0, []) == 0.0
