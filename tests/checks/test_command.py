"""`forummod check`: JSON fields, exit codes, once-only output, --all and --now."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from forummod.cli import main
from forummod.engine.types import Death

from tests.checks.helpers import ctx, day, h, post, T0

CONFIG = """
[workspace]
store = "{store}"

[sites.forum]
engine = "archive"
posts_file = "{posts}"

[games.g1]
site = "forum"
thread = "1"
ruleset = "mafia-majority"
players = [{{ name = "Aldo" }}, {{ name = "Bea" }}]
"""


@pytest.fixture
def config(tmp_path, monkeypatch):
    (tmp_path / "posts.jsonl").write_text("")
    path = tmp_path / "forummod.toml"
    path.write_text(CONFIG.format(store=tmp_path / "store.sqlite", posts=tmp_path / "posts.jsonl"))
    dead = {"Aldo": Death("D1", "lynch", at=h(2))}
    c = ctx(["Aldo", "Bea"], phases=(day(1, T0),), now=h(5), dead=dead,
            game_posts=[post("Aldo", h(3), pid="55"), post("Bea", h(1))])

    def fake_analyse(ws, gid, now=None, **kw):
        return SimpleNamespace(game_id=gid, game=ws.cfg.game(gid), ruleset=c.ruleset, run=c.run, roster=c.roster,
                               now=now or c.now, intents=(), extraction_issues=(),
                               inputs=SimpleNamespace(posts=c.posts, messages=()))

    monkeypatch.setattr("forummod.service.analyse_game", fake_analyse)
    return path


def _run(capsys, *args):
    code = main(["check", *args])
    return code, capsys.readouterr().out


def test_check_json_lists_findings_once_and_exits_1_then_0(config, capsys):
    code, out = _run(capsys, "--config", str(config), "--json")
    assert code == 1
    rows = json.loads(out)["findings"]
    assert [(r["code"], r["player"], r["new"]) for r in rows] == [("dead_post", "Aldo", True)]
    assert set(rows[0]) >= {"rule", "code", "player", "link", "at", "message", "severity", "key", "new"}
    assert rows[0]["link"] == "https://forum.example.org/p/55" and rows[0]["game"] == "g1"
    code, out = _run(capsys, "--config", str(config), "--json")
    assert (code, json.loads(out)["findings"]) == (0, [])


def test_check_all_shows_reported_findings_marked_not_new(config, capsys):
    _run(capsys, "--config", str(config))
    code, out = _run(capsys, "--config", str(config), "--all", "--json")
    assert code == 1 and [r["new"] for r in json.loads(out)["findings"]] == [False]
    code, out = _run(capsys, "--config", str(config), "--all")
    assert "dead_post" in out and "(reported)" in out


def test_check_now_records_nothing(config, capsys):
    code, out = _run(capsys, "--config", str(config), "--now", h(4).isoformat(), "--json")
    assert code == 1 and [r["new"] for r in json.loads(out)["findings"]] == [True]
    code, out = _run(capsys, "--config", str(config), "--now", h(4).isoformat())
    assert code == 1 and "dead_post" in out


def test_check_unknown_game_is_a_config_error(config, capsys):
    assert main(["check", "--config", str(config), "--game", "nope"]) == 2
