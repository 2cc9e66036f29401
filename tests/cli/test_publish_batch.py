"""A batch of role PMs says how long the forum's flood interval makes it and shows each PM as it
goes (issue 28, item 10), on stderr; `-q` keeps it quiet."""

from __future__ import annotations

from datetime import datetime, timezone

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _game(tmp_path):
    write_posts(tmp_path, [("Mod", "Day 1 begins")], T0, messages=True)
    text = archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat"], {"Ann": "mafia"}), messages=True)
    text = text.replace('engine = "archive"\n', 'engine = "archive"\nflood_interval = 40\n', 1)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(text, encoding="utf-8")
    assert main(["poll", "-q", "--config", str(cfg)]) == 0
    return cfg


def test_a_batch_of_role_pms_says_how_long_it_takes_and_shows_each_pm(tmp_path, capsys):
    cfg = _game(tmp_path)
    assert main(["draft", "role_pm", "--config", str(cfg)]) == 0
    ids = [ln.split()[1].rstrip(":") for ln in capsys.readouterr().out.splitlines() if ln.startswith("draft ")]
    assert len(ids) == 3
    assert main(["publish", *ids, "--config", str(cfg)]) == 0
    err = capsys.readouterr().err
    assert "publishing 3 drafts; the forum wants 40 s between two posts of the account: about 80 s" in err
    assert f"[1/3] draft {ids[0]} (role_pm → pm:Ann)" in err and f"[3/3] draft {ids[2]}" in err


def test_a_quiet_batch_says_nothing_on_stderr(tmp_path, capsys):
    cfg = _game(tmp_path)
    main(["draft", "role_pm", "--config", str(cfg)])
    ids = [ln.split()[1].rstrip(":") for ln in capsys.readouterr().out.splitlines() if ln.startswith("draft ")]
    assert main(["publish", "-q", *ids, "--config", str(cfg)]) == 0
    assert capsys.readouterr().err == ""
