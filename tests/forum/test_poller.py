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


def test_the_cursor_keeps_the_urls_of_the_newest_pages_walked_and_a_recheck_reads_them_without_moving_it():
    """`poller.recent_page_urls` / `recheck_pages`: what the edit re-read of earlier pages uses."""
    from forummod.forum.base import ParsedPage
    from forummod.forum.http import Fetched
    from forummod.forum.poller import RECENT_PAGES, poll_pages, recent_page_urls, recheck_pages
    from forummod.adapter_records import RawPost
    from datetime import datetime, timezone

    n_pages = RECENT_PAGES + 3
    at = datetime(2024, 1, 1, tzinfo=timezone.utc)

    def url(n: int) -> str:
        return f"http://127.0.0.1:1/t?page={n}"

    def fetch(u: str, etag=None, last_modified=None) -> Fetched:
        if u.endswith("=404"):
            return Fetched(url=u, status=404, text="", headers={}, nbytes=0)
        return Fetched(url=u, status=200, text=u, headers={}, nbytes=len(u))

    def parse(text: str, u: str, first: int | None) -> ParsedPage:
        n = int(u.rsplit("=", 1)[1])
        post = RawPost(post_id=str(n), author="ann", created_at=at, html=f"<p>{n}</p>", number=n)
        return ParsedPage(posts=(post,), page=n, last_page=n_pages, next_url=url(n + 1) if n < n_pages else None)

    walk = poll_pages(thread_id="7", first_url=url(1), cursor=None, fetch=fetch, parse=parse)
    kept = recent_page_urls(walk.cursor)
    assert sorted(kept) == list(range(n_pages - RECENT_PAGES + 1, n_pages + 1)) and kept[n_pages] == url(n_pages)
    again = recheck_pages(thread_id="7", pages=[(5, url(5), 5), (6, "http://127.0.0.1:1/t?page=404", 6)],
                          fetch=fetch, parse=parse)
    assert [(p.post_id, p.page) for p in again.posts] == [("5", 5)] and again.pages_fetched == (5,)
    assert [i.code for i in again.issues] == ["recheck_failed"] and again.requests == 2


def test_a_profile_numbering_from_zero_numbers_a_new_thread_so_and_a_polled_one_keeps_its_numbering(forum, clock):
    """Issue 28, item 10: SMF prints the opening post as 0 ([pagination] first_number = 0): a new
    thread is numbered as the forum prints it; a thread polled before the profile said so goes on
    from its cursor, so one store never holds two numberings of one thread."""
    from dataclasses import replace

    state, base = forum
    old = adapter_for(base, clock)
    first = old.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), None)  # numbered from 1, as before
    zero = adapter_for(base, clock)
    zero.profile = replace(zero.profile, pagination=replace(zero.profile.pagination, first_number=0))
    fresh = zero.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), None)
    assert [p.number for p in fresh.posts[:3]] == [0, 1, 2] and fresh.posts[-1].number == 1999
    state.n_posts += 7
    later = zero.poll_thread(ThreadRef(base + "viewtopic.php?t=1"), first.cursor)
    assert [p.number for p in later.posts][-1] == 2007  # the old thread's numbering, not the profile's
