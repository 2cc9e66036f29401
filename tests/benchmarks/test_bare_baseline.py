"""The parse benchmark's baseline does the selections forummod does (issue 17: "bare lxml
with the same selections"): every field a parsed page carries, with the selector forummod
reads it with on that page, and the values agree with forummod's where both read one."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from benchmarks.bare import PAGE_FIELDS, POST_FIELDS, BareLxml, PageRow, baseline_selectors, post_rows
from benchmarks.corpus import NOW as CORPUS_NOW
from benchmarks.corpus import corpus_dir, corpus_pages
from benchmarks.game import make_game
from benchmarks.markup import ENGINES
from forummod.forum.html_engine import parse_thread_page
from forummod.forum.registry import profiles

UTC = ZoneInfo("UTC")


def _rows(profile, page):
    sels = baseline_selectors(profile, page)
    rows: list = []
    BareLxml(sels)(page, rows)
    keys = [k for k in POST_FIELDS if k in sels]
    posts = [dict(zip(keys, r)) for r in post_rows(rows)]
    (page_row,) = [r for r in rows if isinstance(r, PageRow)]
    return sels, posts, page_row


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_on_synthetic_pages_the_baseline_reads_every_field_forummod_gives(engine):
    eng, prof = ENGINES[engine], profiles()[engine]
    game = make_game(90)
    for n in (1, 2, eng.pages(90)):
        html = eng.page(game.posts, n)
        sels, posts, page_row = _rows(prof, html)
        parsed = parse_thread_page(prof, html, url=f"http://127.0.0.1:1/{eng.page_path(n)}", tz=UTC,
                                   now=datetime(2024, 6, 1, tzinfo=timezone.utc))
        assert {"container", "id", "author", "author_id", "date", "body", "title", "links"} <= set(sels)
        assert [p["id"] for p in posts] == [p.post_id for p in parsed.posts]
        assert [p["author"] for p in posts] == [p.author for p in parsed.posts]
        assert [p["author_id"] for p in posts] == [p.author_id for p in parsed.posts]
        assert all(p["date"] for p in posts)
        assert [p.get("edited", False) for p in posts] == [q.edited or q.edited_at is not None for q in parsed.posts]
        assert all(p["body"].startswith("<") and len(p["body"]) >= len(q.html) // 2 for p, q in zip(posts, parsed.posts))
        assert page_row.title == parsed.title
        assert page_row.links or eng.pages(90) == 1


def test_on_a_page_each_field_keeps_the_selectors_its_posts_need_in_the_profiles_order():
    """phpBB's GM is `a.username-coloured`, the players `a.username`: both, first first."""
    eng, prof = ENGINES["phpbb"], profiles()["phpbb"]
    sels = baseline_selectors(prof, eng.page(make_game(40).posts, 1))
    assert [s.css for s in sels["author"]] == ["p.author a.username", "p.author a.username-coloured"]
    assert len(sels["container"]) == 1


def test_without_a_page_the_baseline_takes_each_fields_first_selector():
    prof = profiles()["phpbb"]
    sels = baseline_selectors(prof)
    assert all(len(sel) == 1 for sel in sels.values())
    (container,), (pid,), (date,) = sels["container"], sels["id"], sels["date"]
    assert container.css == "div.post:not(.comparison)"
    assert pid.attr == "id" and pid.regex == r"^p(\d+)$"
    assert date.css == "p.author time" and date.attr == "datetime"
    assert set(PAGE_FIELDS) & set(sels) == {"title", "links", "current", "last", "next"}


@pytest.mark.skipif(corpus_dir() is None, reason="../shared/corpus is absent")
def test_on_the_real_corpus_pages_the_baseline_agrees_with_forummod_where_both_read_a_field():
    """On the pages the parse set times (same post count), ids, authors and author ids agree
    on every post and the titles on every page."""
    profs = profiles()
    timed = ids = authors = author_ids = posts_seen = 0
    for engine, rel, data, url in corpus_pages(corpus_dir()):
        _, posts, page_row = _rows(profs[engine], data)
        parsed = parse_thread_page(profs[engine], data, url=url, tz=UTC, now=CORPUS_NOW)
        if len(posts) != len(parsed.posts):
            continue
        timed += 1
        for p, q in zip(posts, parsed.posts):
            posts_seen += 1
            ids += p["id"] == q.post_id
            authors += p["author"] == q.author
            author_ids += p.get("author_id") == q.author_id
        assert page_row.title == parsed.title, rel
    assert timed >= 20 and posts_seen >= 300
    assert ids == posts_seen
    assert authors == posts_seen and author_ids == posts_seen
