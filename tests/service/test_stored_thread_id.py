"""The store id of a game thread: a config that no longer matches what the poll remembered asks
the adapter again (the remembered id saving a fresh process the adapter is tested with a real
phpBB walk in tests/forum/test_poller_batches.py)."""

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from forummod.config import parse_config
from forummod.service import Workspace, load_inputs, poll_game, stored_thread_id, thread_refs

from tests.archive_game import archive_config, players_toml, write_posts

T = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _cfg(tmp_path):
    write_posts(tmp_path, [("Mod", "Day 1"), ("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Eve[/b]")],
                T, timedelta(minutes=1))
    return parse_config(archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat", "Dan", "Eve"])))


def test_a_changed_thread_url_asks_the_adapter_for_the_id(tmp_path):
    cfg = _cfg(tmp_path)
    with Workspace(cfg) as ws:
        poll_game(ws, "g")
    moved = replace(cfg, games={"g": replace(cfg.games["g"], thread="elsewhere")})
    with Workspace(moved, adopt=True) as ws:  # the same game id at another thread: adopted (issue 18)
        [ref] = [r for r in thread_refs(moved.games["g"]) if r.role == "game"]
        assert stored_thread_id(ws, "g", ref) == "elsewhere"  # the archive engine's id is the thread name
        assert load_inputs(ws, "g").posts["game"] == ()
