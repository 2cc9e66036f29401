"""A poll that reads fewer posts than the thread's pages imply is told to the GM (issue 34, item 0).

The demo game on a local phpBB (`faulty_forum`) whose first thread page links "page 2" and "Next"
back to page 1 (a theme or a proxy that writes its page links wrong): the walk stops after page 1
although the page says "Page 1 of 2". The poll itself succeeds; its `posts_unread` issue,
the pass's `posts_unread` alert (once) and a withheld auto-publication say the count is partial.
Once the forum links its pages again, the next poll reads on and the gap closes.
"""

from __future__ import annotations

from forummod.alerts.decide import gm_lines
from forummod.demo import script as S
from forummod.pipeline import game_pass
from forummod.service import poll_game
from tests.reliability.faulty_forum import FaultyForum, GameClock, demo_config, fresh_site, open_workspace, play_to

#: page 1 of the game thread (t=7) links page 2 as page 1 (twice: the walk reads page 1 again from the link)
WRONG_NEXT = (b"t=7&amp;start=10", b"t=7&amp;start=0")


def test_a_walk_that_stops_before_the_last_page_is_an_issue_an_alert_and_no_auto_publication(
        tmp_path, clock, demo_password):
    site = fresh_site(S.FIRST_POLL)
    with FaultyForum(site) as forum:
        forum.inject("mangle", times=2, match="/viewtopic.php?t=7", replace=WRONG_NEXT)
        game_clock = GameClock(S.FIRST_POLL)
        with open_workspace(demo_config(tmp_path, forum.base_url), clock, game_clock) as ws:
            report = poll_game(ws, "demo", inbox=False)
            assert report.ok and not report.read_whole
            [issue] = [i for i in report.issues if i.code == "posts_unread"]
            assert issue.severity == "error"
            assert "game thread: 2 pages shown, 10 posts read of at least 11 (10 a page); page 2 not read" in issue.message

            first = game_pass(ws, "demo", poll=False)
            [alert] = [x for x in first.alerts if x.kind == "posts_unread"]
            # the demo is an Italian Lupus game: its alerts are in Italian
            assert "ha 2 pagine, ma sono stati letti solo 10 dei suoi almeno 11 messaggi (pagine non lette: 2)" in alert.text
            assert any("ALERT posts_unread" in line for line in gm_lines(first))
            assert not [x for x in game_pass(ws, "demo", poll=False).alerts if x.kind == "posts_unread"]  # once

            play_to(site, S.NOW)  # the fault is spent: the page links its pages again
            game_clock.now = S.NOW
            again = poll_game(ws, "demo", inbox=False)
            assert again.ok and again.read_whole
            assert ws.store.snapshot("demo", "read_gap:game") == {}
            assert not [x for x in game_pass(ws, "demo", poll=False).alerts if x.kind == "posts_unread"]


def test_auto_publication_waits_while_a_thread_is_read_short(tmp_path, clock, demo_password, monkeypatch):
    import forummod.publish as publish

    calls = []
    monkeypatch.setattr(publish, "auto_publish", lambda *a, **k: calls.append(a) or [])
    site = fresh_site(S.FIRST_POLL)
    with FaultyForum(site) as forum:
        forum.inject("mangle", times=2, match="/viewtopic.php?t=7", replace=WRONG_NEXT)
        with open_workspace(demo_config(tmp_path, forum.base_url), clock, GameClock(S.FIRST_POLL)) as ws:
            short = game_pass(ws, "demo")
            assert short.poll is not None and not short.poll.read_whole and calls == []
            whole = game_pass(ws, "demo")
            assert whole.poll is not None and whole.poll.read_whole and len(calls) == 1
