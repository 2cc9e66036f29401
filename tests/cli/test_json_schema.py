"""Every command's `--json` output validates against docs/schema/forummod.schema.json (the one
documented schema, docs/json.md), run for real on an archived game through the CLI."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from forummod.cli import COMMANDS, main  # noqa: E402

from tests.archive_game import archive_config, players_toml, write_posts  # noqa: E402

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "schema" / "forummod.schema.json"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
POSTS = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Eve[/b]"),
         ("Dan", "[b]vote: Bob[/b]"), ("Eve", "[b]vote: Zed[/b]"), ("Fay", "[b]vote: Eve[/b]")]
AFTER_DAY = (T0 + timedelta(hours=25)).isoformat()
NOT_JSON = {"init", "demo", "preview", "console", "run", "profile"}  # they write files or serve; no report to print


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture
def game(tmp_path):
    write_posts(tmp_path, POSTS, T0)
    players = players_toml(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], {"Ann": "mafia", "Cat": "cop"})
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players, tables=f"""[games.g.schedule]
start = "{T0.isoformat()}"
vote_close = "24h"
day_end = "24h"
"""), encoding="utf-8")
    assert main(["poll", "--config", str(cfg), "-q"]) == 0
    return cfg


def run_json(capsys, *argv) -> tuple[int, dict]:
    capsys.readouterr()
    rc = main(list(argv))
    return rc, json.loads(capsys.readouterr().out)


def assert_valid(validator, out: dict, command: str) -> None:
    errors = sorted(validator.iter_errors(out), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])
    assert out["schema_version"] == 1 and out["command"] == command


def test_every_reporting_command_prints_one_object_that_matches_the_schema(game, capsys, validator, tmp_path):
    c = ["--config", str(game)]
    seen = set()

    def check(command, *argv, rc=(0,)):
        code, out = run_json(capsys, *argv)
        assert code in rc, (argv, code)
        assert_valid(validator, out, command)
        seen.add(command)
        return out

    check("poll", "poll", *c, "--json")
    tally = check("tally", "tally", *c, "--json", "--now", (T0 + timedelta(hours=12)).isoformat())
    assert tally["tally"]["candidates"][0]["total"] == 3 and isinstance(tally["tally"]["candidates"][0]["total"], int)
    check("tally", "tally", *c, "--json", "--at", "4")
    check("status", "status", *c, "--json", "--now", AFTER_DAY)
    check("check", "check", *c, "--json", "--now", AFTER_DAY, rc=(0, 1))
    made = check("draft", "draft", "all", *c, "--json")
    check("draft", "draft", "votecount", "--gm", *c, "--json")
    listed = check("drafts", "drafts", *c, "--json")
    assert listed["drafts"], "the archived game has drafts to list"
    ids = [d["id"] for d in listed["drafts"]]
    check("drafts", "drafts", "--show", str(ids[0]), *c, "--json")
    check("publish", "publish", str(ids[0]), "--dry-run", *c, "--json")
    check("discard", "discard", str(ids[-1]), *c, "--json")
    check("gm", "gm", "approve", "lynch:D1", *c, "--json", "--at", AFTER_DAY)
    check("gm", "gm", "approve", "lynch:D1", *c, "--json", "--at", AFTER_DAY)  # already decided: no event
    check("gm", "gm", "note", "checked the count", *c, "--json")
    check("tick", "tick", *c, "--json", "--no-publish")
    check("replay", "replay", str(game), "--json", "--approve-all", "--memory")
    check("store", "store", "where", *c, "--json")
    assert check("store", "store", "check", *c, "--json")["ok"] is True
    salvaged = check("store", "store", "salvage", "--to", str(tmp_path / "copy.sqlite"), *c, "--json")
    assert salvaged["ok"] and {t["table"] for t in salvaged["tables"]} >= {"posts", "events", "drafts"}
    status = check("status", "status", *c, "--json", "--now", AFTER_DAY)
    assert status["posts_per_phase"]["players"][1] == {"player": "Bob", "alive": True, "per_phase": {"D1": 1, "N1": 0},
                                                       "total": 1}
    hist = check("history", "history", *c, "--json", "--svg", str(tmp_path / "charts"))
    assert [x["to"] for x in hist["days"][0]["changes"]][:2] == ["Eve", "Eve"] and hist["files"]
    check("history", "history", *c, "--json", "--public", "--day", "D1")
    check("export", "export", *c, "--json", "--out", str(tmp_path / "archive"), "--no-png")
    check("doctor", "doctor", *c, "--json", rc=(0, 1))
    assert made["drafts"] is not None

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "forum"))
    from forum_synth import page_html

    page = tmp_path / "page.html"
    page.write_text(page_html(12, 1), encoding="utf-8")
    check("parse", "parse", str(page), "--json")

    json_commands = set(COMMANDS) - NOT_JSON
    assert json_commands <= seen | {"status"}, f"no schema test for {json_commands - seen}"


def test_json_output_is_not_reset_by_the_sub_action(game, capsys, validator):
    """`gm approve --json` and `gm --json approve` both print JSON; --config before the command works."""
    _, a = run_json(capsys, "--config", str(game), "gm", "--json", "note", "one")
    _, b = run_json(capsys, "--config", str(game), "gm", "note", "two", "--json")
    assert a["message"] == "note: one" and b["message"] == "note: two"
    assert_valid(validator, a, "gm")
