"""Engines without a real capture (MyBB, ForumFree, Discuz!) parse pages we wrote from their
documented templates: ids, numbers, authors, relative dates in their language, marks."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from forummod.forum.detect import detect_engine
from forummod.forum.html_engine import iter_marked, parse_thread_page, text_without_marks

from conftest import FIXTURES

NOW = datetime(2024, 3, 2, 9, 0, tzinfo=timezone.utc)


def parse(profiles, engine, name, url, tz="Europe/Rome"):
    html = (FIXTURES / name).read_text(encoding="utf-8")
    assert detect_engine(profiles, html) == engine
    return parse_thread_page(profiles[engine], html, url=url, tz=ZoneInfo(tz), now=NOW)


def test_mybb_thread(profiles):
    page = parse(profiles, "mybb", "mybb-thread.html", "https://f.test/showthread.php?tid=55", tz="UTC")
    a, b = page.posts
    assert (a.post_id, a.number, a.author, a.author_id) == ("101", 1, "Rossi", "7")
    assert a.created_at == datetime(2024, 3, 2, 10, 32, tzinfo=timezone.utc)  # "Today, 10:32 AM"
    assert list(iter_marked(a.html)) == [("quote", "Verdi")]
    assert text_without_marks(a.html) == "Voto Bianchi"
    assert b.created_at == datetime(2024, 3, 1, 23, 15, tzinfo=timezone.utc) and b.edited
    assert {k for k, _ in iter_marked(b.html)} == {"spoiler", "code"}
    assert page.last_page == 2 and page.next_url == "https://f.test/showthread.php?tid=55&page=2"


def test_forumfree_thread(profiles):
    page = parse(profiles, "forumfree", "forumfree-thread.html", "https://lupus.forumfree.it/?t=76543210")
    a, b = page.posts
    assert (a.post_id, a.number, a.author, a.author_id) == ("600001", 1, "Lupetto", "501")
    assert a.created_at == datetime(2024, 3, 2, 13, 5, tzinfo=timezone.utc)  # "Oggi, 14:05" in Rome
    assert ("quote", "Mago") in list(iter_marked(a.html)) and ("signature", None) in list(iter_marked(a.html))
    assert text_without_marks(a.html) == "Voto Mago"
    assert b.created_at == datetime(2024, 3, 1, 22, 59, tzinfo=timezone.utc)  # "Ieri, 23:59"
    assert page.next_url == "https://lupus.forumfree.it/?t=76543210&st=15" and page.thread_id == "76543210"


def test_discuz_thread(profiles):
    page = parse(profiles, "discuz", "discuz-thread.html", "https://bbs.test/thread-9001-1-1.html", tz="Asia/Shanghai")
    a, b = page.posts
    assert (a.post_id, a.number, a.author, a.author_id) == ("70001", 1, "张三", "11")
    assert a.created_at == datetime(2024, 3, 1, 12, 15, tzinfo=timezone.utc)  # title "2024-3-1 20:15" (+08:00)
    assert list(iter_marked(a.html))[0] == ("quote", "李四")
    assert b.created_at == datetime(2024, 3, 1, 14, 10, tzinfo=timezone.utc)  # "昨天 22:10"
    assert b.edited_at == datetime(2024, 3, 2, 0, 0, tzinfo=timezone.utc)
    assert page.last_page == 2 and page.next_url == "https://bbs.test/thread-9001-2-1.html"
