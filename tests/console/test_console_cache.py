"""The console keeps each game's view and drafts section from the last page load (issue 30): a
load with nothing new recounts nothing and runs no check, yet its page is byte for byte the page
a fresh server makes at that instant; new posts, a GM decision, the GM's edit of a draft, or the
clock reaching the view's next change make it again. A live game on a local phpBB-like forum
(real HTTP polls, the clock under the test's control) and the archive game of the console tests."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

import forummod.check_store as check_store
import forummod.service as service
from forummod.config import load_config
from forummod.console.server import ConsoleServer
from forummod.console.view import console_view
from forummod.drafting import refresh_drafts
from forummod.service import Workspace, analyse_game, poll_game

from benchmarks.game import make_game
from benchmarks.markup import ENGINES
from benchmarks.server import ForumState, RunningForum
from benchmarks.workspace import GAME_ID, analysis_now, config_text

TOKEN = "t" * 32


@pytest.fixture
def counted(monkeypatch):
    """How many recounts and check runs happen."""
    calls = {"recounts": 0, "checks": 0}
    recount, checks = service._analyse_game, check_store.run_checks_saving

    def counting_recount(*a, **kw):
        calls["recounts"] += 1
        return recount(*a, **kw)

    def counting_checks(*a, **kw):
        calls["checks"] += 1
        return checks(*a, **kw)

    monkeypatch.setattr(service, "_analyse_game", counting_recount)
    monkeypatch.setattr(check_store, "run_checks_saving", counting_checks)
    return calls


@pytest.fixture
def live(tmp_path: Path):
    """(workspace, clock cell, forum state): 120 posts of a synthetic game, 100 shown and polled."""
    game = make_game(120)
    state = ForumState(ENGINES["phpbb"], list(game.posts), visible=100)
    clock = [game.posts[99].at + timedelta(minutes=1)]
    with RunningForum(state) as base:
        cfg = tmp_path / "forummod.toml"
        cfg.write_text(config_text(ENGINES["phpbb"], base, tmp_path), encoding="utf-8")
        ws = Workspace(load_config(cfg), clock=lambda: clock[0])
        assert poll_game(ws, GAME_ID, inbox=False).new_posts == 100
        refresh_drafts(ws, GAME_ID)
        try:
            yield ws, clock, state
        finally:
            ws.close()


def page(ws, at=None) -> str:
    """The page a server that keeps nothing makes (the workspace's analyses set aside too)."""
    ws.analyses.clear()
    return ConsoleServer(ws, token=TOKEN).console_page(GAME_ID)


def test_a_load_with_nothing_new_recounts_nothing_and_is_the_fresh_page(live, counted):
    ws, clock, _ = live
    server = ConsoleServer(ws, token=TOKEN)
    server.console_page(GAME_ID)
    made = dict(counted)
    until = server._views[GAME_ID][1].until
    clock[0] += (until - clock[0]) / 2 if until is not None else timedelta(hours=7)
    kept = server.console_page(GAME_ID)
    assert counted == made  # no recount, no check
    assert kept == page(ws)  # what a fresh server shows at this instant (the time left included)
    assert clock[0].isoformat() in kept


def test_the_clock_reaching_the_views_next_change_makes_it_again(live, counted):
    ws, clock, _ = live
    server = ConsoleServer(ws, token=TOKEN)
    server.console_page(GAME_ID)
    until = server._views[GAME_ID][1].until
    assert until is not None and until > clock[0]
    clock[0] = until - timedelta(microseconds=1)
    made = dict(counted)
    before = server.console_page(GAME_ID)
    assert counted == made and before == page(ws)
    clock[0] = until
    made = dict(counted)
    after = server.console_page(GAME_ID)
    assert counted["checks"] == made["checks"] + 1 and after == page(ws)  # checked again (a prod hour, a block...)


def test_new_posts_recount(live, counted):
    ws, clock, state = live
    server = ConsoleServer(ws, token=TOKEN)
    server.console_page(GAME_ID)
    state.show(120)
    clock[0] = state.posts[119].at + timedelta(minutes=1)
    assert poll_game(ws, GAME_ID, inbox=False).new_posts == 20
    made = dict(counted)
    shown = server.console_page(GAME_ID)
    assert counted["recounts"] == made["recounts"] + 1 and shown == page(ws)


def test_the_gms_edit_of_a_draft_recounts(live, counted):
    ws, clock, _ = live
    server = ConsoleServer(ws, token=TOKEN)
    server.console_page(GAME_ID)
    d = ws.store.drafts(GAME_ID, status="draft")[0]
    ws.store.edit_draft(d.id, d.body + "\nEdited by the GM.", clock[0])
    made = dict(counted)
    shown = server.console_page(GAME_ID)
    assert counted["checks"] == made["checks"] + 1 and "Edited by the GM." in shown and shown == page(ws)


def test_the_kept_view_at_a_later_instant_is_the_view_made_then(live):
    ws, clock, _ = live
    view = console_view(ws, GAME_ID)
    assert view.until is not None
    for t in (clock[0] + timedelta(seconds=1), view.until - timedelta(microseconds=1)):
        assert view.right_at(t)
        ws.analyses.clear()
        assert view.at(t) == console_view(ws, GAME_ID, now=t).game
    assert not view.right_at(view.until)


def test_an_archive_game_keeps_its_view_until_a_gm_decision(tmp_path, counted):
    from tests.console.conftest import make_game as archive_game
    from tests.render.game import at

    g = archive_game(tmp_path)
    ws = g.workspace()
    try:
        refresh_drafts(ws, "g", analyse_game(ws, "g", now=at(6)))
        server = ConsoleServer(ws, token=TOKEN)
        first = server.console_page("g")
        made = dict(counted)
        assert server.console_page("g") == first and counted == made
        server.gm_record("note", {"game": "g", "text": "Day 1 runs long", "confirm": "1"})
        assert "Day 1 runs long" in server.console_page("g") and counted["recounts"] == made["recounts"] + 1
    finally:
        ws.close()
