"""Discuz! X3.5 read from pages saved from the real software (issue 16, items 5 and 7).

Its license keeps the source out of ../shared, so the real-forum suite cannot run it; these
pages were saved from a Discuz! X3.5 run on 127.0.0.1 with the seed of
../shared/real-forums-php.md: 36 posts, 10 a page (10/10/10/6), one "VOTE: Eve" on page 1, a
post on page 2 quoting Carol, posts 30 minutes apart, the board at its default GMT+8.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.forum.detect import detect_engine
from forummod.forum.html_engine import iter_marked, parse_thread_page, text_without_marks

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
SHANGHAI = ZoneInfo("Asia/Shanghai")
SEEDED = {"GameMaster", "Alice", "Bob", "Carol", "Dave", "Eve", "Frank"}
PAGES = {1: range(1, 11), 2: range(11, 21), 4: range(31, 37)}


def _read(profiles, corpus_dir, page: int):
    path = corpus_dir / "local-engines" / f"discuz-thread-page{page}.html"
    if not path.exists():
        pytest.skip(f"{path} not in this corpus")
    url = f"http://127.0.0.1:8084/forum.php?mod=viewthread&tid=1&page={page}"
    return path, parse_thread_page(profiles["discuz"], path.read_bytes(), url=url, tz=SHANGHAI, now=NOW)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_post_of_a_saved_discuz_page_is_read_with_number_author_and_date(profiles, corpus_dir, page):
    path, parsed = _read(profiles, corpus_dir, page)
    assert detect_engine(profiles, path.read_text(encoding="utf-8")) == "discuz"
    assert [p.number for p in parsed.posts] == list(PAGES[page])
    assert {p.author for p in parsed.posts} <= SEEDED and all(p.author_id for p in parsed.posts)
    assert not any(p.date_guessed for p in parsed.posts) and parsed.issues == ()
    gaps = {b.created_at - a.created_at for a, b in zip(parsed.posts, parsed.posts[1:])}
    assert gaps == {timedelta(minutes=30)}
    assert (parsed.page, parsed.last_page) == (page, 4)
    assert parsed.title.startswith("Werewolf Game 1: Village of Thornbury")


def test_discuz_shows_times_in_the_boards_zone(profiles, corpus_dir):
    _, parsed = _read(profiles, corpus_dir, 1)
    first = parsed.posts[0]
    assert first.author == "GameMaster"
    assert first.created_at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M:%S") == "2026-11-21 19:05:42"


def test_the_vote_and_the_quote_of_the_seed_are_where_the_seed_put_them(profiles, corpus_dir):
    _, page1 = _read(profiles, corpus_dir, 1)
    _, page2 = _read(profiles, corpus_dir, 2)
    votes = [p for p in page1.posts if "VOTE: Eve" in text_without_marks(p.html)]
    assert len(votes) == 1 and votes[0].number == 8  # the seed's 7th player post, after the GM's opening
    quoting = [p for p in page2.posts if list(iter_marked(p.html))]
    assert [list(iter_marked(p.html)) for p in quoting] == [[("quote", "Carol")]]
    quoted = next(p for p in page1.posts if p.author == "Carol")
    assert text_without_marks(quoted.html) not in text_without_marks(quoting[0].html)  # quoted text left out
