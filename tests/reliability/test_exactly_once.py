"""Exactly once when the forum applies a POST after forummod stopped waiting (issue 19, failure 2).

The demo phpBB forum (`faulty_forum`) applies a reply 1x, 2x and 5x the client's timeout after
receiving it, or applies it and answers 500, or drops the request without applying it. The GM
runs `publish` again at once and later, and polls in between. Whatever happens, the thread
holds at most one copy of the post; the store says `uncertain` until a marker search finds the
post, then `published` (`sent`) with its link, or until the schedule's last search rules it
out, and only then does a new `publish` send it.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from forummod.demo import script as S
from forummod.errors import PublishError, SentNotRecorded, StoreFull
from forummod.publish import SEARCH_SCHEDULE, publish
from forummod.service import poll_game
from tests.reliability.faulty_forum import FaultyForum, GameClock, demo_config, fresh_site, open_workspace

TIMEOUT = 0.5  # the client's read timeout (real seconds: the late forum really sleeps)


class Forum:
    def __init__(self, folder: Path, clock: Any):
        self.site = fresh_site(S.FIRST_POLL)
        self.site.clock = clock  # the forum's posting rules on the client's fake clock
        self.forum = FaultyForum(self.site).__enter__()
        self.game_clock = GameClock(S.FIRST_POLL)
        cfg = demo_config(folder, self.forum.base_url, timeout=TIMEOUT, retries=2)
        self.ws = open_workspace(cfg, clock, self.game_clock)
        assert poll_game(self.ws, "demo").ok
        self.draft, _ = self.ws.store.upsert_draft(
            game="demo", kind="votecount", phase="D1", slot="", target="thread", markup="bbcode", lang="it",
            title="", body="[b]Conta dei voti[/b]\nFede: 3", at=S.FIRST_POLL)

    def copies(self) -> int:
        """Posts in the game thread carrying this draft's marker."""
        pub = self.ws.store.publication(self.draft)
        if pub is None:
            return 0
        return sum(pub.marker in p.bbcode for p in self.site.threads[7].posts)

    def later(self, delta: timedelta) -> None:
        pub = self.ws.store.publication(self.draft)
        self.game_clock.now = pub.started_at + delta

    def close(self) -> None:
        self.ws.close()
        self.forum.__exit__(None, None, None)


@pytest.fixture
def forum(tmp_path, clock, demo_password):
    f = Forum(tmp_path / "ws", clock)
    yield f
    f.close()


def assert_published_once(f: Forum) -> None:
    pub = f.ws.store.publication(f.draft)
    assert f.copies() == 1
    assert pub.state == "sent" and f.ws.store.draft(f.draft).status == "published"
    assert pub.url and pub.remote_id and f"p={pub.remote_id}" in pub.url.replace("#p", "p=")


@pytest.mark.parametrize("factor", [1, 2, 5])
def test_a_reply_applied_after_the_timeout_is_never_posted_twice(forum, factor):
    late = forum.forum.inject("late", method="POST", match="posting.php", times=1, delay=factor * TIMEOUT + 0.1)
    with pytest.raises(PublishError, match="uncertain"):
        publish(forum.ws, forum.draft)
    assert forum.ws.store.publication(forum.draft).state == "uncertain"
    assert forum.ws.store.draft(forum.draft).status == "draft"

    # the GM runs publish again at once: the forum may not show the post yet; nothing is sent
    try:
        again = publish(forum.ws, forum.draft)
    except PublishError as e:
        assert "--resend" in str(e) and forum.ws.store.publication(forum.draft).state == "uncertain"
    else:
        assert again.status == "recovered"  # the forum had applied it by then: recorded, not sent
    assert forum.copies() <= 1
    assert late.applied.wait(10 * TIMEOUT)  # the forum commits the post meanwhile

    forum.later(SEARCH_SCHEDULE[0])  # the next poll, 30 s on, finds it
    assert poll_game(forum.ws, "demo").ok
    assert_published_once(forum)
    assert publish(forum.ws, forum.draft).status == "already_sent"
    assert forum.copies() == 1
    assert len(forum.forum.requests("posting.php", method="POST")) == 1  # one reply POST, ever


def test_a_reply_applied_then_answered_with_500_is_found_and_recorded_at_once(forum):
    crash = forum.forum.inject("applied500", method="POST", match="posting.php", times=1)
    r = publish(forum.ws, forum.draft)
    assert crash.applied.is_set()
    assert r.status == "sent" and r.url  # the answer said nothing; the marker search found it
    assert_published_once(forum)
    assert publish(forum.ws, forum.draft).status == "already_sent" and forum.copies() == 1


def test_an_uncertain_reply_stays_uncertain_until_the_last_search_rules_it_out_then_posts_once(forum):
    forum.forum.inject("drop", method="POST", match="posting.php", times=1)  # never applied
    with pytest.raises(PublishError, match="uncertain"):
        publish(forum.ws, forum.draft)
    for step in SEARCH_SCHEDULE[:-1]:  # +30 s, +2 min: not found is not "not there"
        forum.later(step)
        with pytest.raises(PublishError, match="Nothing was sent again") as refused:
            publish(forum.ws, forum.draft)
        assert forum.ws.store.publication(forum.draft).state == "uncertain" and forum.copies() == 0
    msg = str(refused.value)
    pub = forum.ws.store.publication(forum.draft)
    assert pub.marker in msg and f"forummod publish {forum.draft} --resend" in msg and "+10 min" in msg

    forum.later(SEARCH_SCHEDULE[-1])  # +10 min: the search finds nothing: ruled out, sent once
    r = publish(forum.ws, forum.draft)
    assert r.status == "sent"
    assert_published_once(forum)


def test_resend_sends_an_uncertain_reply_again_only_when_the_forum_does_not_show_it(forum):
    late = forum.forum.inject("late", method="POST", match="posting.php", times=1, delay=2 * TIMEOUT)
    with pytest.raises(PublishError, match="uncertain"):
        publish(forum.ws, forum.draft)
    assert late.applied.wait(10 * TIMEOUT)
    r = publish(forum.ws, forum.draft, resend=True)  # the search runs first, even with --resend
    assert r.status == "recovered"
    assert_published_once(forum)


def test_a_poll_searches_only_when_a_point_of_the_schedule_is_due(forum):
    forum.forum.inject("drop", method="POST", match="posting.php", times=1)
    with pytest.raises(PublishError):
        publish(forum.ws, forum.draft)
    before = len(forum.forum.hits)
    forum.later(SEARCH_SCHEDULE[0] - timedelta(seconds=1))
    assert poll_game(forum.ws, "demo").ok
    plain_poll = len(forum.forum.hits) - before
    forum.later(SEARCH_SCHEDULE[0])
    assert poll_game(forum.ws, "demo").ok
    searched = len(forum.forum.hits) - before - plain_poll
    assert searched > plain_poll  # the due search read the thread's last pages
    again = len(forum.forum.hits)
    assert poll_game(forum.ws, "demo").ok
    assert len(forum.forum.hits) - again == plain_poll  # done for this point: no search again
    assert forum.ws.store.publication(forum.draft).state == "uncertain" and forum.copies() == 0


def test_a_reply_the_store_could_not_record_is_reported_as_posted_and_found_by_the_next_poll(forum, monkeypatch):
    """Issue 34: the forum took the reply, then the disk filled before the store recorded it.
    The GM is told it was posted (its link, exit 3), and the next poll, 30 s on, finds it by
    its marker and records it: one copy on the forum, ever."""
    store = forum.ws.store
    finish = store.finish_publication

    def disk_full_once(draft_id, at, **kw):
        monkeypatch.setattr(store, "finish_publication", finish)
        raise StoreFull(f"the store {store.path} could not be written: the disk is full")

    monkeypatch.setattr(store, "finish_publication", disk_full_once)
    with pytest.raises(SentNotRecorded) as e:
        publish(forum.ws, forum.draft)
    pub = store.publication(forum.draft)
    assert e.value.exit_code == 3 and e.value.url and f"at {e.value.url}, but not recorded" in str(e.value)
    assert "disk is full" in str(e.value) and "Do not post it again" in str(e.value) and pub.marker in str(e.value)
    assert pub.state == "sending" and store.draft(forum.draft).status == "draft" and forum.copies() == 1

    forum.later(SEARCH_SCHEDULE[0] - timedelta(seconds=1))
    assert poll_game(forum.ws, "demo").ok  # not due yet: the record waits
    assert store.publication(forum.draft).state == "sending"
    forum.later(SEARCH_SCHEDULE[0])
    assert poll_game(forum.ws, "demo").ok
    assert_published_once(forum)
    assert store.publication(forum.draft).remote_id == e.value.remote_id  # the post the GM was told of
    assert publish(forum.ws, forum.draft).status == "already_sent" and forum.copies() == 1
    assert len(forum.forum.requests("posting.php", method="POST")) == 1
