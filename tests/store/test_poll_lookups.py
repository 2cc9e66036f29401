"""Issue 17: what a poll with nothing new asks of the store does not grow with the thread.

A forum that ignores If-None-Match sends the last page whole on every poll; the store then
asks which live posts that page held (to mark vanished ones deleted) and stores the page. The
first must go through an index on the page, not read every status row of the thread; the
second must not rewrite a page whose text did not change.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone

from forummod.adapter_records import RawPost
from forummod.store import SCHEMA_VERSION, Store

from tests.store.old_stores import old_store

T = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def _plan(db: sqlite3.Connection, sql: str, args: tuple) -> str:
    return " ".join(str(r[-1]) for r in db.execute("EXPLAIN QUERY PLAN " + sql, args))


def test_the_live_posts_of_a_refetched_page_are_found_through_the_page_index(tmp_path):
    with Store(tmp_path / "s.sqlite") as s:
        posts = [RawPost(post_id=str(i), author="Ann", created_at=T + timedelta(minutes=i), html=f"post {i}",
                         number=i, page=(i - 1) // 25 + 1) for i in range(1, 201)]
        s.save_posts("f", "t", posts, T, pages_fetched=range(1, 9))
        plan = _plan(s.db, "SELECT post_id FROM post_status WHERE site=? AND thread=? AND deleted_at IS NULL"
                           " AND page IN (?)", ("f", "t", 8))
        assert "post_status_page" in plan, plan
        gone = s.save_posts("f", "t", posts[175:199], T + timedelta(hours=1), pages_fetched=[8])
        assert gone.deleted == 1  # post 200 vanished from page 8; nothing else touched
        assert [p.post_id for p in s.posts("f", "t") if p.deleted_at is not None] == ["200"]


def test_a_schema_6_store_gains_the_page_index_and_keeps_its_rows(tmp_path):
    path = tmp_path / "v6.sqlite"
    db = old_store(path, 6)
    db.execute("INSERT INTO post_status(site, thread, post_id, page, last_seen_at) VALUES ('f','t','1',1,'x')")
    db.commit()
    db.close()
    with Store(path) as s:
        assert s.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
        names = {r[0] for r in s.db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert "post_status_page" in names
        assert s.db.execute("SELECT count(*) FROM post_status").fetchone()[0] == 1


def test_the_same_page_again_updates_its_validators_and_keeps_its_stored_text(tmp_path):
    with Store(tmp_path / "s.sqlite") as s:
        s.save_page("f", "http://x/t?p=2", "<html>page two</html>", T, etag='"a"')
        blob = s.db.execute("SELECT body FROM pages").fetchone()[0]
        s.save_page("f", "http://x/t?p=2", "<html>page two</html>", T + timedelta(minutes=5), etag='"b"')
        row = s.db.execute("SELECT body, etag, fetched_at FROM pages").fetchone()
        assert row[0] is not None and bytes(row[0]) == bytes(blob)
        assert row[1] == '"b"' and row[2].startswith("2026-03-01T12:05")
        text, ref = s.page("f", "http://x/t?p=2")
        assert text == "<html>page two</html>" and ref.etag == '"b"'
        s.save_page("f", "http://x/t?p=2", "<html>page two, edited</html>", T + timedelta(minutes=9), etag='"c"')
        assert s.page("f", "http://x/t?p=2")[0] == "<html>page two, edited</html>"


def test_the_pages_a_reread_for_edits_looks_at_hold_recent_live_posts_before_the_page_given(tmp_path):
    with Store(tmp_path / "s.sqlite") as s:
        posts = [RawPost(post_id=str(i), author="Ann", created_at=T + timedelta(hours=i), html=f"post {i}",
                         number=i, page=(i - 1) // 10 + 1) for i in range(1, 51)]  # 5 pages, an hour a post
        s.save_posts("f", "t", posts, T, pages_fetched=range(1, 6))
        s.save_posts("f", "t", [p for p in posts[20:30] if p.post_id != "25"], T, pages_fetched=[3])  # 25 deleted
        since = T + timedelta(hours=15)  # posts 15.. are recent; page 2 (11-20) straddles the line
        # each page's first live post, not its first recent one: a page showing no numbers is
        # numbered from it (post 21 stays the first of page 3 although 25 was deleted)
        assert s.pages_with_posts_since("f", "t", since, before_page=5) == [(2, 11), (3, 21), (4, 31)]
        assert s.pages_with_posts_since("f", "t", since, before_page=2) == []
        assert s.pages_with_posts_since("f", "other", since, before_page=5) == []
        s.remember("g", "recheck:t", "2026-03-01T12:00:00+00:00", T)
        s.remember("g", "recheck:u", "2026-03-02T12:00:00+00:00", T)
        s.remember("g", "tally", {"x": 1}, T)
        assert s.snapshots_under("g", "recheck:") == {"recheck:t": "2026-03-01T12:00:00+00:00",
                                                      "recheck:u": "2026-03-02T12:00:00+00:00"}
