"""A page's date shapes (forum/date_memo.py): the first posts' dates teach the page's format,
the next ones are read by it, and the answer is always the full parser's (issue 17)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

import forummod.forum.dates as dates
import forummod.forum.html_engine as html_engine
from forummod.forum.date_memo import DateShapes
from forummod.forum.dates import DateNotUnderstood, parse_forum_date
from forummod.forum.html_engine import parse_thread_page
from forummod.forum.registry import profiles

NOW = datetime(2020, 9, 1, 12, 0, tzinfo=timezone.utc)
UTC = ZoneInfo("UTC")
ROME = ZoneInfo("Europe/Rome")

FORMATS = [  # (format, the numeric order of the forums that print it)
    ("by » %a %b %d, %Y %I:%M %p", "DMY"),  # phpBB 3.x prosilver
    ("%d %b %Y, %H:%M", "DMY"),
    ("%d.%m.%Y, %H:%M", "MDY"),  # dotted: day first even where the order says month first
    ("%m-%d-%Y, %I:%M %p", "MDY"),  # vBulletin (US)
    ("%d/%m/%Y, %Hh%M", "DMY"),  # vBulletin (fr)
    ("%B %d, %Y, %I:%M:%S %p", "MDY"),  # SMF
    ("%d. %B %Y um %H:%M Uhr", "DMY"),  # XenForo 1 (de)
    ("%b %d, %Y at %I:%M %p", "MDY"),  # XenForo 1
    ("%d.%m.%y %H:%M", "DMY"),
    ("%m/%d/%y %I:%M%p", "MDY"),
    ("%A, %d %B %Y %H:%M", "DMY"),
    ("%d-%m-%Y %H.%M", "DMY"),
    ("%d %B %Y", "DMY"),
]
# texts that a learnt shape must leave to the full parser
ODD = ["Today, 10:32", "Yesterday at 3:04 PM", "3 hours ago", "Mar 9 Jan 2018 12:00", "noon Jan 3, 2019",
       "hier 10:00", "Dec 31, 2019 25:61 pm", "Feb 30, 2019 10:00", "Mar 21, 2012 1:33 pm", "31/12/19 10:00"]


def _full(text: str, tz, order: str) -> datetime | None:
    try:
        return parse_forum_date(text, tz=tz, now=NOW, order=order, allow_dateparser=False)
    except DateNotUnderstood:
        return None


def _through_memo(memo: DateShapes, text: str, tz, order: str) -> datetime | None:
    """What `html_engine.read_date` does with a text value: the shape first, else parse and learn."""
    got = memo.read(text)
    if got is None:
        got = _full(text, tz, order)
        if got is not None:
            memo.learn(text, got)
    return got


@pytest.mark.parametrize("fmt,order", FORMATS)
@pytest.mark.parametrize("tz", [UTC, ROME, ZoneInfo("America/New_York")])
def test_dates_read_by_a_learnt_shape_equal_the_full_parsers(fmt, order, tz):
    rng = random.Random(f"{fmt}{tz}{order}")
    memo = DateShapes(tz, NOW)
    start = datetime(2019, 1, 1, 0, 0) + timedelta(minutes=rng.randint(0, 500_000))
    texts = [(start + timedelta(minutes=rng.randint(0, 90_000) * i)).strftime(fmt) for i in range(40)]
    texts[7:7] = ODD
    for text in texts:
        assert _through_memo(memo, text, tz, order) == _full(text, tz, order), text
    assert memo.hits >= 20  # most dates of a page of one format are read by its shape


def test_an_ambiguous_date_teaches_nothing_until_a_later_one_settles_it():
    memo = DateShapes(UTC, NOW)
    memo.learn("05/05/2019 05:05", _full("05/05/2019 05:05", UTC, "DMY"))
    assert memo.shapes == []  # day or month, hour or minute: no single reading
    memo.learn("13/05/2019 21:05", _full("13/05/2019 21:05", UTC, "DMY"))
    assert memo.read("14/06/2019 22:10") == datetime(2019, 6, 14, 22, 10, tzinfo=timezone.utc)


def test_a_relative_day_is_never_read_by_a_shape():
    memo = DateShapes(UTC, NOW)
    memo.learn("Dec 31, 2019, 10:32", _full("Dec 31, 2019, 10:32", UTC, "DMY"))
    assert memo.read("Jan 02, 2020, 11:15") is not None
    assert memo.read("Today, 10:32") is None
    assert memo.read("Jan 02, 2020, 11:15 ago") is None


def _page(dates_text: list[str]) -> str:
    posts = "".join(
        f'<div id="p{100 + i}" class="post"><div class="postbody"><p class="author">by <strong>'
        f'<a class="username" href="./memberlist.php?mode=viewprofile&amp;u={i}">user{i}</a></strong> » {d}</p>'
        f'<div class="content">post {i}</div></div></div>' for i, d in enumerate(dates_text))
    return f'<html><body id="phpbb"><h2 class="topic-title"><a href="#">T</a></h2>{posts}</body></html>'


class _Counting:
    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *a, **k):
        self.calls += 1
        return self.fn(*a, **k)


def test_a_page_with_a_known_date_format_makes_no_dateparser_call_after_its_first_post(monkeypatch):
    """One date read teaches the page's format: the other posts are read by its shape (no
    full parse), and a date that nothing else understands is not handed to dateparser."""
    full = _Counting(dates.parse_forum_date)
    slow = _Counting(dates._dateparser)
    monkeypatch.setattr(html_engine, "parse_forum_date", full)
    monkeypatch.setattr(dates, "_dateparser", slow)
    texts = [f"Sat Nov {d:02d}, 2019 1{d % 10}:{d + 10:02d} pm" for d in range(1, 21)]
    texts[10] = "the 3rd day of the new moon"  # unreadable: dateparser would be the only hope
    page = parse_thread_page(profiles()["phpbb"], _page(texts), url="https://f.invalid/viewtopic.php?t=1",
                             tz=UTC, now=NOW)
    assert slow.calls == 0
    assert full.calls <= 3  # the first post, the unreadable one, and at most one more shape
    assert page.posts[0].created_at == datetime(2019, 11, 1, 23, 11, tzinfo=timezone.utc)
    assert page.posts[19].created_at == datetime(2019, 11, 20, 22, 30, tzinfo=timezone.utc)
    assert page.posts[10].date_guessed and not page.posts[11].date_guessed


def test_the_memo_never_carries_a_format_from_one_sites_page_to_another():
    """The same text is 5 June on a day-first forum and 6 May on a month-first one: each page
    is read with its own site's order, whatever page was parsed before it."""
    phpbb = profiles()["phpbb"]
    dmy = replace(phpbb, date_order="DMY", date_pinned=True)
    mdy = replace(phpbb, date_order="MDY", date_pinned=True)
    texts = [f"05/06/2019, {h}:{h + 20}" for h in range(13, 23)]
    url = "https://f.invalid/viewtopic.php?t=1"
    first = parse_thread_page(dmy, _page(texts), url=url, tz=UTC, now=NOW)
    second = parse_thread_page(mdy, _page(texts), url=url, tz=ROME, now=NOW)
    assert {p.created_at.date() for p in first.posts} == {datetime(2019, 6, 5).date()}
    assert {p.created_at.date() for p in second.posts} == {datetime(2019, 5, 6).date()}
    assert second.posts[0].created_at == datetime(2019, 5, 6, 11, 33, tzinfo=timezone.utc)  # 13:33 in Rome


def test_ago_search_is_the_ago_regex_search():
    """The cheap tail test before `_AGO_RX` never changes what it finds."""
    from forummod.forum.dates import _AGO_RX, ago_search

    for s in ["3 hours ago", "3 HOURS AGO", "2 giorni fa", "5 минут назад", "3 uur geleden", "3小时前",
              "tue dec 31, 2019 2:22 pm", "an hour agone", "fa", "", "1 day", "un ora fa"]:
        a, b = ago_search(s), _AGO_RX.search(s)
        assert (a and a.span(), a and a.groups()) == (b and b.span(), b and b.groups())


def test_a_shape_built_from_remembered_parts_equals_one_built_afresh():
    from forummod.forum import date_memo

    texts = [datetime(2020, 3, d, d % 24, 2 * d).strftime(fmt) for fmt, _ in FORMATS for d in (1, 12, 28)]
    def learnt(cold: bool) -> list[tuple]:
        out = []
        for text in texts:
            if cold:
                date_memo._shape_parts.cache_clear()
            memo = DateShapes(UTC, NOW)
            got = _full(text, UTC, "DMY")
            if got is not None:
                memo.learn(text, got)
            out.append([(s.tokens, s.rx.pattern, s.plan, s.wild, s.at, s.word_groups) for s in memo.shapes])
        return out
    fresh = learnt(cold=True)
    assert any(fresh)
    assert learnt(cold=False) == fresh and date_memo._shape_parts.cache_info().hits > 0
    assert date_memo._TOKEN_RX.findall("by » sun 1:05") == [
        tuple(g or "" for g in m.groups()) for m in date_memo._TOKEN_RX.finditer("by » sun 1:05")]
