"""The SQLite store keeps raw input: versions on edit, deletions noticed, append-only log."""

import os
import sqlite3
import stat
from datetime import datetime, timedelta, timezone

import pytest

from forummod.adapter_records import Cursor, PageRef, RawMessage, RawPost
from forummod.errors import StoreError
from forummod.store import SCHEMA_VERSION, Store

from tests.store.old_stores import old_store

T = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def post(pid, html, number=None, page=1, author="Ann"):
    return RawPost(post_id=pid, author=author, created_at=T + timedelta(minutes=int(pid)), html=html,
                   number=number or int(pid), page=page)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "s.sqlite") as s:
        yield s


def test_store_file_is_owner_only(tmp_path):
    p = tmp_path / "s.sqlite"
    Store(p).close()
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600


def test_an_edit_adds_a_version_and_keeps_the_original(store):
    store.save_posts("f", "t1", [post("1", "<b>vote: Bob</b>")], T)
    stats = store.save_posts("f", "t1", [post("1", "<b>vote: Cat</b>")], T + timedelta(hours=1))
    assert stats.edited == 1 and stats.new == 0
    [p] = store.posts("f", "t1")
    assert [v.html for v in p.versions] == ["<b>vote: Bob</b>", "<b>vote: Cat</b>"]
    assert p.original_html == "<b>vote: Bob</b>" and p.html == "<b>vote: Cat</b>" and p.is_edited


def test_unchanged_posts_are_not_stored_twice(store):
    store.save_posts("f", "t1", [post("1", "x"), post("2", "y")], T)
    stats = store.save_posts("f", "t1", [post("1", "x"), post("2", "y")], T + timedelta(minutes=5))
    assert stats.new == 0 and stats.edited == 0
    assert store.post_count("f", "t1") == 2


def test_a_post_missing_from_a_refetched_page_is_marked_deleted(store):
    store.save_posts("f", "t1", [post("1", "a"), post("2", "b")], T, pages_fetched=[1])
    stats = store.save_posts("f", "t1", [post("1", "a")], T + timedelta(hours=1), pages_fetched=[1])
    assert stats.deleted == 1
    by_id = {p.post_id: p for p in store.posts("f", "t1")}
    assert by_id["2"].deleted_at is not None and by_id["1"].deleted_at is None


def test_a_refetched_page_is_compared_with_the_latest_version_of_its_own_posts(store):
    """More posts on a page than one lookup query takes, and posts on other pages left alone."""
    first = [post(str(i), f"body {i}", page=1 + i // 700) for i in range(1, 1400)]
    store.save_posts("f", "t1", first, T, pages_fetched=[1, 2])
    store.save_posts("f", "t1", [post("5", "body 5, edited", page=1)], T + timedelta(minutes=1))
    page_one = [post(str(i), "body 5, edited again" if i == 5 else f"body {i}", page=1) for i in range(1, 700)]
    stats = store.save_posts("f", "t1", page_one + [post("1400", "new", page=1)], T + timedelta(hours=1),
                             pages_fetched=[1])
    assert (stats.new, stats.edited, stats.deleted) == (1, 1, 0)
    by_id = {p.post_id: p for p in store.posts("f", "t1")}
    assert [v.html for v in by_id["5"].versions] == ["body 5", "body 5, edited", "body 5, edited again"]
    assert by_id["1399"].deleted_at is None and len(by_id) == 1400


def test_posts_come_back_in_thread_order(store):
    store.save_posts("f", "t1", [post("10", "c", number=3), post("2", "a", number=1), post("7", "b", number=2)], T)
    assert [p.post_id for p in store.posts("f", "t1")] == ["2", "7", "10"]


def test_a_failed_transaction_leaves_the_previous_state(store):
    store.save_posts("f", "t1", [post("1", "a")], T)
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.save_posts("f", "t1", [post("2", "b")], T)
            store.set_cursor("f", Cursor("thread:t1", last_page=9), T)
            raise RuntimeError("crash mid-poll")
    assert store.post_count("f", "t1") == 1
    assert store.cursor("f", "thread:t1") is None


def test_cursor_round_trip(store):
    c = Cursor("thread:t1", last_page=4, pages_total=4, last_post_id="99",
               page_ref=PageRef("http://x/p4", etag='"abc"', last_modified="Mon", content_hash="h"))
    store.set_cursor("f", c, T)
    assert store.cursor("f", "thread:t1") == c


def test_messages_are_saved_once(store):
    m = RawMessage(message_id="m1", sender="Ann", created_at=T, body_html="indago Bob", recipients=("GM",))
    assert store.save_messages("f", [m], T) == 1
    assert store.save_messages("f", [m], T) == 0
    [got] = store.messages("f")
    assert got.recipients == ("GM",) and got.body_html == "indago Bob"


def test_event_log_is_append_only(store):
    eid = store.append_event("g1", T, "decision", {"key": "lynch:D1", "verdict": "approve"})
    with pytest.raises(sqlite3.DatabaseError):
        store.db.execute("UPDATE events SET kind='x' WHERE id=?", (eid,))
    with pytest.raises(sqlite3.DatabaseError):
        store.db.execute("DELETE FROM events WHERE id=?", (eid,))
    assert store.events("g1")[0].payload == {"key": "lynch:D1", "verdict": "approve"}


def test_open_vote_count_draft_is_updated_not_duplicated(store):
    a, changed = store.upsert_draft(game="g", kind="votecount", phase="D1", slot="", target="thread",
                                    markup="bbcode", lang="it", title="", body="v1", at=T)
    b, changed2 = store.upsert_draft(game="g", kind="votecount", phase="D1", slot="", target="thread",
                                     markup="bbcode", lang="it", title="", body="v2", at=T)
    assert a == b and changed and changed2
    assert [d.body for d in store.drafts("g")] == ["v2"]
    assert [h["body"] for h in store.draft_history(a)] == ["v1", "v2"]


def test_a_draft_the_gm_edited_is_not_overwritten_by_a_recount(store):
    did, _ = store.upsert_draft(game="g", kind="votecount", phase="D1", slot="", target="thread",
                                markup="bbcode", lang="it", title="", body="v1", at=T)
    store.edit_draft(did, "my words", T)
    _, changed = store.upsert_draft(game="g", kind="votecount", phase="D1", slot="", target="thread",
                                    markup="bbcode", lang="it", title="", body="v2", at=T)
    assert not changed and store.draft(did).body == "my words"


def test_finding_reported_once_unless_it_changes(store):
    assert store.record_finding("g", "k1", {"msg": "a"}, T)
    assert not store.record_finding("g", "k1", {"msg": "a"}, T + timedelta(minutes=1))
    assert store.record_finding("g", "k1", {"msg": "b"}, T + timedelta(minutes=2))


def test_newer_schema_is_refused_with_a_clear_message(tmp_path):
    p = tmp_path / "s.sqlite"
    Store(p).close()
    db = sqlite3.connect(p)
    db.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer forummod"):
        Store(p)


def test_a_corrupted_file_is_refused_with_a_clear_message(tmp_path):
    p = tmp_path / "s.sqlite"
    p.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="is not an SQLite file.*Do not delete it"):
        Store(p)


def test_recorded_seed_is_kept(store):
    assert store.set_game_seed("g", 42, T) == 42
    assert store.set_game_seed("g", 7, T) == 42


def test_remember_says_when_a_derived_value_changed(store):
    assert store.remember("g", "tally", {"Bob": 2}, T)
    assert not store.remember("g", "tally", {"Bob": 2}, T)
    assert store.remember("g", "tally", {"Bob": 3}, T)
    assert store.snapshot("g", "tally") == {"Bob": 3}


def test_an_edit_mark_without_a_time_is_kept(store):
    """Some forums (Spirit) show that a post was edited but not when: the store keeps the mark."""
    p = RawPost(post_id="9", author="Ugo", created_at=T, html="<b>Voto: Fede</b>", number=9, page=1, edited=True)
    store.save_posts("f", "t1", [p], T)
    [got] = store.posts("f", "t1")
    assert got.is_edited and got.versions[-1].edited and got.edited_at is None


def test_a_version_one_store_is_migrated_in_place(tmp_path):
    """Schema migrations run forward on an older store and keep its rows."""
    path = tmp_path / "old.sqlite"
    db = old_store(path, 1)
    db.execute("INSERT INTO posts(site, thread, post_id, version, number, author, created_at, html, content_hash,"
               " fetched_at) VALUES ('f','t','1',1,1,'Ann','2026-01-01T00:00:00+00:00','x','h','2026-01-01T00:00:00+00:00')")
    db.commit()
    db.close()
    with Store(path) as s:
        assert s.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
        [p] = s.posts("f", "t")
        assert p.author == "Ann" and not p.is_edited
        assert s.saved_extractions("g", "fp") == {}


def test_a_version_two_store_gains_the_guessed_date_flag_and_keeps_its_posts(tmp_path):
    """Issue 16: schema 3 adds `posts.date_guessed`; posts stored before it read as dated ones,
    and a guessed-date post saved after the upgrade keeps its flag."""
    path = tmp_path / "v2.sqlite"
    db = old_store(path, 2)
    db.execute("INSERT INTO posts(site, thread, post_id, version, number, author, created_at, html, content_hash,"
               " fetched_at, edited) VALUES ('f','t','1',1,1,'Ann','2026-01-01T00:00:00+00:00','x','h',"
               "'2026-01-01T00:00:00+00:00', 1)")
    db.commit()
    db.close()
    with Store(path) as s:
        assert s.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
        guessed = RawPost(post_id="2", author="Bob", created_at=T, html="vote Ann", number=2, date_guessed=True)
        s.save_posts("f", "t", [guessed], T)
        old, new = s.posts("f", "t")
        assert old.author == "Ann" and old.is_edited and not old.date_guessed
        assert new.date_guessed and new.created_at == T


def test_each_version_of_a_post_keeps_its_own_guessed_date_flag(store):
    """Issue 16: the date was unreadable when the post was first read and readable after an edit:
    the first version keeps the flag (its `created_at` is the guess), the edit does not have it."""
    first = RawPost(post_id="5", author="Ugo", created_at=T, html="vote Ann", number=5, date_guessed=True)
    store.save_posts("f", "t1", [first], T)
    edit = RawPost(post_id="5", author="Ugo", created_at=T, html="vote Bob", number=5, edited=True)
    store.save_posts("f", "t1", [edit], T)
    [got] = store.posts("f", "t1")
    assert [v.date_guessed for v in got.versions] == [True, False]
    assert got.date_guessed  # created_at comes from the first version: still a guess


def test_a_version_five_store_marks_its_open_drafts_without_a_render_record_as_unrecorded_renders(tmp_path):
    """Issue 15: migration 6 gives each open draft of an older store a render record without a
    hash (compared by its own text from then on); a published draft and a recorded one keep
    theirs; a draft stored later without a record (a GM correction) gets none."""
    path = tmp_path / "v5.sqlite"
    db = old_store(path, 5)
    for i, status in ((1, "draft"), (2, "published"), (3, "draft")):
        db.execute("INSERT INTO drafts(id, game, kind, phase, slot, target, markup, lang, title, body, body_hash,"
                   " status, created_at, updated_at) VALUES (?, 'g', 'votecount', 'D1', ?, 'thread', 'bbcode', 'en',"
                   " 't', 'b', 'h', ?, '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')",
                   (i, f"s{i}", status))
    db.execute("INSERT INTO draft_renders VALUES (3, 'abc', 'D1', 4, NULL, '2026-01-01T00:00:00+00:00')")
    db.commit()
    db.close()
    with Store(path) as s:
        assert s.draft_render(1)["render_hash"] == "" and s.draft_render(1)["phase"] == "D1"
        assert s.draft_render(2) is None and s.draft_render(3)["render_hash"] == "abc"
        did, _ = s.upsert_draft(game="g", kind="day_end", phase="D1", slot="correction", target="thread",
                                markup="bbcode", lang="en", title="c", body="x", at=T)
        assert s.draft_render(did) is None


def test_stored_records_equal_records_built_the_usual_way(store):
    """The store sets every field of its Post/PostVersion records at once (model.stored_record)."""
    from dataclasses import fields

    from forummod.model import Post, PostVersion

    store.save_posts("site", "t1", [post("1", "<p>one</p>"), post("2", "<p>two</p>")], T)
    store.save_posts("site", "t1", [post("1", "<p>one, edited</p>")], T + timedelta(hours=1))
    for p in store.posts("site", "t1"):
        again = Post(**{f.name: getattr(p, f.name) for f in fields(Post)})
        assert p == again and hash(p) == hash(again) and repr(p) == repr(again)
        assert set(vars(p)) == {f.name for f in fields(Post)}
        for v in p.versions:
            assert set(vars(v)) == {f.name for f in fields(PostVersion)}
            assert v == PostVersion(**{f.name: getattr(v, f.name) for f in fields(PostVersion)})
    assert [len(p.versions) for p in store.posts("site", "t1")] == [2, 1]


def test_thread_order_by_number_then_time_then_id(store):
    """Posts come in thread order: by number, then time, then id (numeric ids by value), with
    unnumbered posts last; when every post has its own number the number alone orders them
    (the store's shortcut), which is the same order."""
    def raw(pid, number, minutes):
        return RawPost(post_id=pid, author="Ann", created_at=T + timedelta(minutes=minutes), html=f"<p>{pid}</p>",
                       number=number, page=1)

    store.save_posts("f", "unique", [raw("10", 3, 5), raw("9", 1, 9), raw("100", 2, 1)], T)
    assert [p.post_id for p in store.posts("f", "unique")] == ["9", "100", "10"]
    mixed = [raw("10", 2, 5), raw("9", 2, 5), raw("8", 2, 4), raw("x", None, 0), raw("7", None, 0),
             raw("100", 1, 9), raw("11", None, 3)]
    store.save_posts("f", "mixed", mixed, T)
    assert [p.post_id for p in store.posts("f", "mixed")] == ["100", "8", "9", "10", "7", "x", "11"]
    expect = sorted(store.posts("f", "mixed"), key=lambda p: (
        p.number if p.number is not None else 1 << 62, p.created_at,
        (int(p.post_id), p.post_id) if p.post_id.isdigit() else (1 << 62, p.post_id)))
    assert store.posts("f", "mixed") == expect
