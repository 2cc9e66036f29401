"""An edit on a page the polls have moved past is found (sites.x.recheck_*, `poll --recheck`).

A poll re-reads only the last known page and what follows, so a player who edits a vote on
an earlier page was never seen. Every `recheck_minutes` a poll also re-reads the newest
earlier pages holding posts of the last `recheck_hours`; a quiet poll in between stays one
request. Served by the benchmark's loopback forum (phpBB and XenForo markup) on 127.0.0.1.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta

import pytest

from benchmarks.game import make_game
from benchmarks.markup import ENGINES
from benchmarks.server import ForumState, RunningForum
from benchmarks.workspace import GAME_ID, SITE, config_text
from forummod.config import load_config
from forummod.service import Workspace, poll_game, thread_refs


class Clock:
    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now


def _workspace(tmp_path, engine, base_url, clock, extra: str = "", hours: float = 1_000_000.0):
    cfg = tmp_path / "forummod.toml"
    text = config_text(engine, base_url, tmp_path)
    # the synthetic game is dated 2024: by default every post of it counts as recent
    text = text.replace("timeout = 30.0\n", f"timeout = 30.0\nrecheck_hours = {hours:.6f}\n" + extra)
    cfg.write_text(text, encoding="utf-8")
    return Workspace(load_config(cfg), clock=clock)


@contextmanager
def _served(tmp_path, engine_name: str, n_pages: int, *, visible_pages: int | None = None, extra: str = "",
            hours: float = 1_000_000.0, start=None):
    """A synthetic game of `n_pages` full pages on the loopback forum (the first `visible_pages`
    shown) and a workspace on it: (workspace, forum state, game, clock)."""
    engine = ENGINES[engine_name]
    game = make_game(engine.per_page * n_pages)
    state = ForumState(engine, list(game.posts), visible=engine.per_page * (visible_pages or n_pages))
    clock = Clock(start or game.end)
    with RunningForum(state) as base_url:
        with _workspace(tmp_path, engine, base_url, clock, extra, hours) as ws:
            yield ws, state, game, clock


def _thread(ws):
    return ws.store.posts(SITE, ws.adapter(SITE).thread_id(thread_refs(ws.cfg.game(GAME_ID))[0]))


def _edit(state, game, number, text):
    p = game.posts[number - 1]
    state.edit(number, replace(p, paragraphs=(*p.paragraphs, text), edited_at=p.at + timedelta(minutes=3)))


@pytest.mark.parametrize("engine_name", ["phpbb", "xenforo"])
def test_an_edit_two_pages_back_is_found_when_the_recheck_is_due_and_not_before(tmp_path, engine_name):
    per_page = ENGINES[engine_name].per_page
    with _served(tmp_path, engine_name, 5, visible_pages=4) as (ws, state, game, clock):
        first = poll_game(ws, GAME_ID, inbox=False)
        assert first.ok and first.new_posts == per_page * 4
        state.show(len(game.posts))  # a new page appears...
        number = per_page * 2 + 3  # ...and a post on page 3 (of the 4 read) is edited
        _edit(state, game, number, "Edit: changed my mind.")
        clock.now += timedelta(minutes=5)
        soon = poll_game(ws, GAME_ID, inbox=False)
        assert soon.new_posts == per_page and soon.edited_posts == 0  # not due yet: last page + next
        clock.now += timedelta(minutes=5)
        quiet = poll_game(ws, GAME_ID, inbox=False)
        assert quiet.requests == 1 and quiet.edited_posts == 0  # a 304, nothing more
        clock.now += timedelta(minutes=61)
        due = poll_game(ws, GAME_ID, inbox=False)
        assert due.edited_posts == 1 and due.new_posts == 0
        thread = _thread(ws)
        edited = next(p for p in thread if p.number == number)
        assert len(edited.versions) == 2 and "changed my mind" in edited.versions[-1].html
        assert [p.number for p in thread] == list(range(1, len(thread) + 1))  # the new version kept its number
        assert all(len(p.versions) == 1 for p in thread if p.number != number and p.number <= len(game.posts)
                   and game.posts[p.number - 1].edited_at is None)
        clock.now += timedelta(minutes=5)
        assert poll_game(ws, GAME_ID, inbox=False).requests == 1  # the recheck waits another hour


def test_poll_recheck_reads_the_earlier_pages_now_and_keeps_the_cursor(tmp_path):
    per_page = ENGINES["phpbb"].per_page
    with _served(tmp_path, "phpbb", 4, extra="recheck_max_pages = 2\n") as (ws, state, game, clock):
        poll_game(ws, GAME_ID, inbox=False)
        _edit(state, game, per_page + 1, "Edit: vote moved.")  # page 2 of 4
        _edit(state, game, 2, "Edit: page one.")  # page 1: older than the newest 2 earlier pages
        state.reset_counters()
        clock.now += timedelta(minutes=1)
        rep = poll_game(ws, GAME_ID, inbox=False, recheck=True)
        assert rep.edited_posts == 1  # page 2 (pages 2 and 3 re-read), not page 1
        assert len(state.requests) == 1 + 2
        state.reset_counters()
        after = poll_game(ws, GAME_ID, inbox=False)
        assert after.requests == 1 and after.new_posts == after.edited_posts == 0  # the cursor did not move


def test_recheck_minutes_zero_never_rereads(tmp_path):
    with _served(tmp_path, "phpbb", 3, extra="recheck_minutes = 0\n") as (ws, state, game, clock):
        poll_game(ws, GAME_ID, inbox=False)
        _edit(state, game, 3, "Edit.")
        clock.now += timedelta(days=2)
        assert poll_game(ws, GAME_ID, inbox=False).edited_posts == 0
        assert poll_game(ws, GAME_ID, inbox=False, recheck=True).edited_posts == 1  # asked for: done


def test_a_pass_after_a_phase_began_rereads_the_earlier_pages_once_before_drafting(tmp_path):
    """`pipeline.game_pass`: the end-of-phase count must include an edit made on an earlier page
    before the deadline, even between two timed re-reads (here the timer is a week)."""
    from forummod.pipeline import game_pass
    from forummod.service import RECHECK_KEY, analyse_game
    from forummod.store import iso

    per_page = ENGINES["phpbb"].per_page
    end = make_game(per_page * 4).end
    with _served(tmp_path, "phpbb", 4, extra="recheck_minutes = 10080\n", start=end + timedelta(minutes=1)) \
            as (ws, state, game, clock):
        first = game_pass(ws, GAME_ID, publish=False, log_line=False)
        assert first.error is None
        tid = ws.adapter(SITE).thread_id(thread_refs(ws.cfg.game(GAME_ID))[0])
        began = analyse_game(ws, GAME_ID, now=clock.now).run.state.phase.start
        assert began is not None and began <= clock.now
        quiet = game_pass(ws, GAME_ID, publish=False, log_line=False)
        assert quiet.poll.requests == 1  # the first poll read every page after the phase began
        ws.store.remember(GAME_ID, RECHECK_KEY + tid, iso(began - timedelta(hours=1)), clock.now)
        _edit(state, game, per_page + 2, "Edit: final answer.")  # page 2
        again = game_pass(ws, GAME_ID, publish=False, log_line=False)
        assert again.error is None and again.poll.edited_posts == 1 and again.poll.requests > 2
        after = game_pass(ws, GAME_ID, publish=False, log_line=False)
        assert after.poll.requests == 1 and after.poll.edited_posts == 0  # once a phase


@pytest.mark.parametrize("engine_name", ["phpbb", "xenforo"])
def test_a_reread_page_whose_older_posts_fall_outside_the_window_keeps_every_posts_number(tmp_path, engine_name):
    """The window of `recheck_hours` can start inside a page: the page's posts are still numbered
    from its first post, not from its first recent one."""
    per_page = ENGINES[engine_name].per_page
    game = make_game(per_page * 4)
    number = per_page * 2 + 5  # page 3, fifth post
    start = game.end + timedelta(minutes=1)
    hours = (start - game.posts[number - 2].at).total_seconds() / 3600  # posts from number-1 on are recent
    with _served(tmp_path, engine_name, 4, hours=hours, start=start) as (ws, state, game, clock):
        poll_game(ws, GAME_ID, inbox=False)
        _edit(state, game, number, "Edit: late thought.")
        clock.now += timedelta(minutes=1)
        assert poll_game(ws, GAME_ID, inbox=False, recheck=True).edited_posts == 1
        thread = _thread(ws)
        assert [p.number for p in thread] == list(range(1, len(thread) + 1))
        assert len(next(p for p in thread if p.number == number).versions) == 2
