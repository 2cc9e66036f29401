"""Issue 15 item 7: a broken user template never stops the daemon. `tick` reports the template,
its line and Jinja's message as a GM finding and goes on polling and counting; `draft` prints
the same message without a traceback and exits 1."""

import json
from datetime import datetime, timezone

import pytest

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
POSTS = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Eve[/b]")]


def _game(tmp_path, template: str):
    write_posts(tmp_path, POSTS, T0)
    tdir = tmp_path / "mytemplates" / "votecount"
    tdir.mkdir(parents=True)
    (tdir / "bbcode.j2").write_text(template, encoding="utf-8")
    players = players_toml(["Ann", "Bob", "Cat", "Dan", "Eve"], {"Ann": "mafia"})
    cfg = tmp_path / "forummod.toml"
    text = archive_config(tmp_path, players, tables=f"""[games.g.schedule]
start = "{T0.isoformat()}"
vote_close = "24h"
day_end = "24h"
""").replace("[workspace]\n", f'[workspace]\ntemplates_dir = "{tmp_path / "mytemplates"}"\n', 1)
    cfg.write_text(text, encoding="utf-8")
    return cfg, tdir / "bbcode.j2"


SYNTAX = "Vote count\n{% for c in post.tally.candidates %}\n{{ c.name }\n"  # line 3: unclosed {{
UNDEFINED = "Vote count\n\n{{ post.no_such_field }}\n"  # line 3: an undefined field


@pytest.mark.parametrize("template, words", [(SYNTAX, "unexpected"), (UNDEFINED, "no_such_field")])
def test_draft_prints_template_file_line_and_message_without_traceback_exit_1(tmp_path, capsys, template, words):
    cfg, path = _game(tmp_path, template)
    assert main(["poll", "--config", str(cfg)]) == 0
    capsys.readouterr()
    assert main(["draft", "votecount", "--config", str(cfg)]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and "line 3" in err and words in err
    assert "Traceback" not in err


@pytest.mark.parametrize("template, words", [(SYNTAX, "unexpected"), (UNDEFINED, "no_such_field")])
def test_tick_reports_a_broken_template_as_a_finding_and_keeps_counting(tmp_path, capsys, template, words):
    cfg, path = _game(tmp_path, template)
    capsys.readouterr()
    assert main(["tick", "--config", str(cfg), "--json"]) in (0, 1)
    rep = json.loads(capsys.readouterr().out)["passes"][0]
    assert rep["error"] is None and rep["poll"]["new_posts"] == 2  # polled and counted
    assert len(rep["template_errors"]) == 1 and str(path) in rep["template_errors"][0]
    assert "line 3" in rep["template_errors"][0] and words in rep["template_errors"][0]
    assert rep["drafts_changed"] >= 1  # the other kinds (bundled templates) were still drafted
    assert rep["new_findings"] >= 1  # recorded as a GM finding (reported once)
    # the next pass still polls (nothing new) and does not report the same finding again
    assert main(["tick", "--config", str(cfg), "--json"]) in (0, 1)
    again = json.loads(capsys.readouterr().out)["passes"][0]
    assert again["error"] is None and again["new_findings"] == 0
    # fixing the template lets the vote count be drafted
    path.write_text("Vote count\n", encoding="utf-8")
    assert main(["tick", "--config", str(cfg), "--json"]) in (0, 1)
    fixed = json.loads(capsys.readouterr().out)["passes"][0]
    assert fixed["template_errors"] == []
