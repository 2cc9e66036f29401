"""A recount in a fresh process finds the game thread's posts by the id the poll remembered,
without building the forum adapter; a config that no longer matches asks the adapter again."""

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from forummod.config import parse_config
from forummod.service import Workspace, analyse_game, load_inputs, poll_game, stored_thread_id, thread_refs

from tests.archive_game import archive_config, players_toml, write_posts

T = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _cfg(tmp_path):
    write_posts(tmp_path, [("Mod", "Day 1"), ("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Eve[/b]")],
                T, timedelta(minutes=1))
    return parse_config(archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat", "Dan", "Eve"])))


def test_a_recount_after_a_poll_builds_no_forum_adapter(tmp_path, monkeypatch):
    cfg = _cfg(tmp_path)
    with Workspace(cfg) as ws:
        poll_game(ws, "g")
        polled = analyse_game(ws, "g")
    monkeypatch.setattr(Workspace, "adapter", lambda self, site: pytest.fail("the adapter was built"))
    with Workspace(cfg) as ws:
        again = analyse_game(ws, "g")
    assert len(again.inputs.posts["game"]) == 3
    assert again.run.current_tally == polled.run.current_tally


def test_a_changed_thread_url_asks_the_adapter_for_the_id(tmp_path):
    cfg = _cfg(tmp_path)
    with Workspace(cfg) as ws:
        poll_game(ws, "g")
    moved = replace(cfg, games={"g": replace(cfg.games["g"], thread="elsewhere")})
    with Workspace(moved) as ws:
        [ref] = [r for r in thread_refs(moved.games["g"]) if r.role == "game"]
        assert stored_thread_id(ws, "g", ref) == "elsewhere"  # the archive engine's id is the thread name
        assert load_inputs(ws, "g").posts["game"] == ()
