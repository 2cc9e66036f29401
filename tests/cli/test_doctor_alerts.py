"""`forummod doctor` checks the alert channels without sending anything (issue 28, item 10): an
Apprise channel whose variable is unset or holds no URL Apprise knows is a problem to fix, a
forum PM channel on a forum whose profile sends PMs names its recipient."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts

ALERTS = """
[alerts.channels.phone]
kind = "apprise"
url_env = "FORUMMOD_TEST_DOCTOR_HOOK"
private = false

[alerts.channels.forum]
kind = "forum_pm"
private = true
"""


def _doctor(tmp_path, capsys) -> dict:
    write_posts(tmp_path, [("Mod", "Day 1")], datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc))
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(["Ann", "Bob"]), tables=ALERTS), encoding="utf-8")
    capsys.readouterr()
    main(["doctor", "--offline", "--json", "--config", str(cfg)])
    return {c["where"] or c["message"]: c for c in json.loads(capsys.readouterr().out)["checks"] if c["check"] == "alerts"}


def test_doctor_names_an_unset_apprise_variable(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("FORUMMOD_TEST_DOCTOR_HOOK", raising=False)
    checks = _doctor(tmp_path, capsys)
    phone = checks["alerts.channels.phone"]
    assert not phone["ok"] and "FORUMMOD_TEST_DOCTOR_HOOK is not set" in phone["message"]


def test_doctor_refuses_a_url_apprise_does_not_know_and_accepts_one_it_does(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FORUMMOD_TEST_DOCTOR_HOOK", "nosuchservice://token")
    assert "does not hold a URL Apprise knows" in _doctor(tmp_path, capsys)["alerts.channels.phone"]["message"]
    monkeypatch.setenv("FORUMMOD_TEST_DOCTOR_HOOK", "json://127.0.0.1:9/hook")
    ok = [c for c in _doctor(tmp_path, capsys).values() if c["ok"]]
    assert any("phone: FORUMMOD_TEST_DOCTOR_HOOK holds an Apprise URL (nothing sent)" == c["message"] for c in ok)
    assert any(c["message"].startswith("forum: PMs on a to Mod") for c in ok)
