"""A thread's pages come from its own page list (issue 34, item 0), on every HTML engine.

A MyBB poll lost every post after page 1 once the game's board had a second page of threads:
the board's page list sits in a hidden breadcrumb menu before the thread's, and the profile took
its "Next". Here each engine's thread pages carry, before the thread's own list, the board's list
(or another thread's) in the engine's own markup, saying "page 5 of 7": the page number, the
number of pages and the next page must still be the thread's. The pages are paged_threads.py's.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.forum.html_engine import parse_html, parse_thread_page, read_pagination

from paged_threads import BASE, ENGINES

NOW = datetime(2024, 3, 10, tzinfo=timezone.utc)
#: the crawler view of Discourse links the previous and next page only: the count of pages it
#: gives is the next page's number
NEIGHBOURS_ONLY = {"discourse"}


def _parse(profiles, engine, html, url):
    return parse_thread_page(profiles[engine.name], html, url=url, tz=ZoneInfo("UTC"), now=NOW)


@pytest.mark.parametrize("decoy", ["board", "other"])
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_page_list_of_the_board_or_another_thread_before_the_threads_own_is_ignored(profiles, name, decoy):
    engine = ENGINES[name]
    for n in (1, 2, 4):
        page = _parse(profiles, engine, engine.page(n, 4, decoy=decoy), engine.thread_url(n))
        assert page.page == n, (n, page.page)
        assert page.next_url == (engine.thread_url(n + 1) if n < 4 else None), (n, page.next_url)
        assert page.last_page == (min(n + 1, 4) if name in NEIGHBOURS_ONLY else 4), (n, page.last_page)
        assert len(page.posts) == engine.per_page


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_one_page_thread_on_a_board_of_many_pages_has_one_page(profiles, name):
    engine = ENGINES[name]
    page = _parse(profiles, engine, engine.page(1, 1, decoy="board"), engine.thread_url(1))
    assert (page.page, page.last_page, page.next_url) == (1, 1, None)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_without_a_second_page_list_the_pages_read_as_before(profiles, name):
    engine = ENGINES[name]
    page = _parse(profiles, engine, engine.page(2, 4, decoy=""), engine.thread_url(2))
    assert (page.page, page.next_url) == (2, engine.thread_url(3))


def test_mybb_hidden_breadcrumb_menu_of_the_board_gives_neither_the_next_page_nor_the_current_one(profiles):
    engine = ENGINES["mybb"]
    html = engine.page(2, 3, decoy="board")
    assert 'id="breadcrumb_multipage_popup"' in html and html.index("forumdisplay.php") < html.index("tid=7&amp;page=3")
    info = read_pagination(profiles["mybb"], parse_html(html), engine.thread_url(2))
    assert info.current == 2 and info.last == 3
    assert info.next_url == f"{BASE}showthread.php?tid=7&page=3"
    assert set(info.links) == {1, 3} and all("tid=7" in u for u in info.links.values())


def test_a_page_reached_by_a_post_link_follows_the_thread_its_title_names(profiles):
    """phpBB `viewtopic.php?p=N` names a post, not the topic; without a canonical link the
    topic title's link says which thread the page lists are of."""
    engine = replace(ENGINES["phpbb"], head="")
    html = engine.page(2, 4, decoy="other")
    page = _parse(profiles, engine, html, f"{BASE}viewtopic.php?p=1015")
    assert page.next_url == engine.thread_url(3) and page.last_page == 4


def test_where_the_profile_reads_no_thread_id_the_page_list_nearest_the_posts_decides(profiles):
    """A MyBB with an SEO plugin ("Thread-Game?page=2", "Forum-Mafia?page=2"): no thread id the
    profile can read, so the list beside the posts is the thread's and the breadcrumb's is not."""
    engine = replace(ENGINES["mybb"], thread_url=lambda n: f"{BASE}Thread-Game" + (f"?page={n}" if n > 1 else ""),
                     board_url=lambda n: f"{BASE}Forum-Mafia" + (f"?page={n}" if n > 1 else ""))
    for n in (1, 2, 3):
        page = _parse(profiles, engine, engine.page(n, 3, decoy="board"), engine.thread_url(n))
        assert (page.page, page.last_page, page.next_url) == (n, 3, engine.thread_url(n + 1) if n < 3 else None)
