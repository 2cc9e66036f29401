"""Incremental polling against a real HTTP server on 127.0.0.1 serving a 200-page phpBB thread."""

from __future__ import annotations

import threading

import pytest

from forummod.config import SiteConfig
from forummod.forum.base import ThreadRef
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter

from forum_synth import PER_PAGE, ForumState, make_server


@pytest.fixture
def forum(clock):
    state = ForumState(n_posts=200 * PER_PAGE)
    server = make_server(state)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def adapter_for(base: str, clock):
    site = SiteConfig(engine="phpbb", base_url=base, timezone="UTC", request_interval=0.0, retries=1)
    http = HttpClient.from_site("synth", site, clock=clock, wall_clock=clock, sleep=clock.sleep)
    return make_adapter("synth", site, http=http)


def test_first_poll_reads_every_page_and_reports_progress(forum, clock):
    state, base = forum
    ad = adapter_for(base, clock)
    seen = []
    poll = ad.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), None, progress=lambda d, t: seen.append((d, t)))
    assert len(poll.posts) == 2000 and poll.requests == 200
    assert [p.number for p in poll.posts] == list(range(1, 2001))
    assert poll.posts[-1].page == 200 and poll.cursor.last_page == 200
    assert seen[0] == (1, 200) and seen[-1] == (200, 200)
    assert poll.posts[4].html.count('data-fm="quote"') == 1


def test_poll_with_one_new_page_costs_at_most_two_requests(forum, clock):
    state, base = forum
    ad = adapter_for(base, clock)
    first = ad.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), None)
    state.requests.clear()
    state.n_posts += 7  # a new page 201 with 7 posts
    poll = ad.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), first.cursor)
    assert poll.requests <= 2 and len(state.requests) <= 2
    assert poll.pages_fetched == (200, 201)
    assert [p.number for p in poll.posts] == list(range(1991, 2008))  # page 200 re-read, page 201 new
    assert all(p.page in (200, 201) for p in poll.posts)
    assert poll.cursor.last_page == 201


def test_poll_without_news_costs_one_conditional_request(forum, clock):
    state, base = forum
    ad = adapter_for(base, clock)
    first = ad.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), None)
    state.requests.clear()
    poll = ad.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), first.cursor)
    assert poll.not_modified and poll.requests == 1 and poll.posts == ()
    assert len(state.requests) == 1


def test_poll_without_etag_support_rereads_the_last_page_only(forum, clock):
    state, base = forum
    state.etags = False
    ad = adapter_for(base, clock)
    first = ad.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), None)
    state.requests.clear()
    poll = ad.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), first.cursor)
    assert poll.requests == 1 and not poll.not_modified
    assert [p.post_id for p in poll.posts] == [str(1000 + i) for i in range(1991, 2001)]  # lets the store see edits
