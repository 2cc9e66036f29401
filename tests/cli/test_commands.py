"""The CLI on an archived game: tally (now, --at a post, --at a time, --public), status, gm
approve, replay --approve-all, init, check; JSON fields are the documented interface."""

import json
from datetime import datetime, timedelta, timezone

import pytest

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
POSTS = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Eve[/b]"),
         ("Dan", "[quote=Bob][b]vote: Eve[/b][/quote] hmm"), ("Dan", "[b]vote: Bob[/b]"),
         ("Eve", "[b]vote: Zed[/b]"), ("Bob", "[b]unvote[/b]")]


@pytest.fixture
def game(tmp_path):
    write_posts(tmp_path, POSTS, T0)
    players = players_toml(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], {"Ann": "mafia"})
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players, tables=f"""[games.g.schedule]
start = "{T0.isoformat()}"
vote_close = "24h"
day_end = "24h"
"""), encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def run_json(capsys, *argv):
    capsys.readouterr()
    rc = main(list(argv))
    out = capsys.readouterr().out
    return rc, json.loads(out)


def test_tally_json_reports_candidates_ordered_voters_not_voting_and_issues(game, capsys):
    rc, rep = run_json(capsys, "tally", "--config", str(game), "--json", "--at", (T0 + timedelta(hours=12)).isoformat())
    assert rc == 0 and rep["phase"] == "D1"
    t = rep["tally"]
    assert [(c["name"], c["total"], [v["voter"] for v in c["voters"]]) for c in t["candidates"]] == \
        [("Eve", 1, ["Cat"]), ("Bob", 1, ["Dan"])]
    assert all(isinstance(c["total"], int) for c in t["candidates"])  # whole counts print as 1, not 1.0
    assert t["candidates"][0]["voters"][0]["post_number"] == 3
    assert t["majority"] == 4 and t["candidates"][0]["to_majority"] == 3
    assert set(t["not_voting"]) == {"Ann", "Bob", "Eve", "Fay", "Gus"}
    assert any(i["code"] == "unknown_name" and "Zed" in i["message"] for i in rep["issues"])


def test_tally_at_a_post_number_is_the_count_just_before_that_post(game, capsys):
    rc, rep = run_json(capsys, "tally", "--config", str(game), "--json", "--at", "5")
    assert rc == 0
    assert [(c["name"], [v["voter"] for v in c["voters"]]) for c in rep["tally"]["candidates"]] == \
        [("Eve", ["Bob", "Cat"])]  # Dan's vote is post 5 itself: not yet; the quote never counted


def test_status_gm_approve_and_replay(game, capsys):
    after = (T0 + timedelta(hours=25)).isoformat()
    rc, st = run_json(capsys, "status", "--config", str(game), "--json", "--now", after)
    assert rc == 0 and [p["key"] for p in st["pending"]] == ["lynch:D1"]
    assert main(["gm", "--config", str(game), "--at", after, "approve", "lynch:D1"]) == 0
    assert main(["gm", "--config", str(game), "--at", after, "approve", "lynch:D1"]) == 0  # nothing twice
    assert "already approved" in capsys.readouterr().out
    rc, st = run_json(capsys, "status", "--config", str(game), "--json", "--now", after)
    assert st["dead"] == [] and st["pending"] == []  # the plurality tie (Eve 1, Bob 1) is no lynch
    rc, rep = run_json(capsys, "replay", str(game), "--json", "--approve-all", "--memory")
    assert rc == 0 and rep["game"] == "g" and not rep["game_over"]


def test_a_wrong_command_line_and_an_unknown_proposal_exit_2(game, capsys):
    assert main(["gm", "--config", str(game), "approve", "lynch:D9"]) == 2
    assert "no proposal" in capsys.readouterr().err
    assert main(["tally", "--config", str(game), "--at", "999"]) == 2


def test_init_writes_a_starter_and_refuses_to_overwrite(tmp_path, capsys):
    path = tmp_path / "new.toml"
    assert main(["init", str(path), "--ruleset", "lupus-eresia"]) == 0
    assert 'ruleset = "lupus-eresia"' in path.read_text()
    assert main(["init", str(path)]) == 2


def test_check_exits_1_when_it_has_findings(game, capsys):
    rc = main(["check", "--config", str(game), "--json", "--now", (T0 + timedelta(hours=30)).isoformat()])
    out = json.loads(capsys.readouterr().out)
    assert rc == (1 if out["findings"] else 0)
    assert all({"rule", "code", "message", "key", "at"} <= set(f) for f in out["findings"])
