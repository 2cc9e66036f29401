"""A seat without a role is a finding once roles are in play (issue 28, item 10); a game without
any role (the GM counts votes only) is left alone. Through `forummod check` on an archive game."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def _findings(tmp_path, capsys, extra) -> list[dict]:
    write_posts(tmp_path, [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Ann[/b]")], T0)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(PLAYERS, None, extra)), encoding="utf-8")
    assert main(["poll", "-q", "--config", str(cfg)]) == 0
    capsys.readouterr()
    main(["check", "--json", "--config", str(cfg)])
    return [f for f in json.loads(capsys.readouterr().out)["findings"] if f["code"] == "no_role"]


def test_a_seat_without_a_role_is_a_finding_once_roles_are_in_play(tmp_path, capsys):
    found = _findings(tmp_path, capsys, {"Ann": 'role = "mafia"', "Bob": 'role = "cop"'})
    assert sorted(f["player"] for f in found) == ["Cat", "Dan"]
    assert "Cat has no role: their role PM, night actions and the reveal at their death need one" in \
        next(f["message"] for f in found if f["player"] == "Cat")
    assert "forummod gm set-role Cat ROLE" in found[0]["message"] or "forummod gm set-role Dan ROLE" in found[0]["message"]


def test_a_game_without_roles_counts_votes_without_a_role_finding(tmp_path, capsys):
    assert _findings(tmp_path, capsys, None) == []
