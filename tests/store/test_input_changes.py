"""`input_changes` (issue 30): every write a recount would see bumps its scope's count, and a
write it would not see (a post seen again, a snapshot, a draft) leaves every count alone."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from forummod.adapter_records import RawMessage, RawPost
from forummod.store import Store, input_scope

from tests.store.old_stores import old_store

T = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
T1, T2 = input_scope("p", "f", "t1"), input_scope("p", "f", "t2")
PMS, EVENTS, SEED = input_scope("m", "f"), input_scope("e", "g"), input_scope("g", "g")
ALL = (T1, T2, PMS, EVENTS, SEED)


def post(pid: str, html: str, page: int = 1) -> RawPost:
    return RawPost(post_id=pid, author="Ann", created_at=T + timedelta(minutes=int(pid)), html=html,
                   number=int(pid), page=page)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "s.sqlite") as s:
        yield s


def counts(store: Store) -> dict[str, int]:
    return dict(zip(ALL, store.input_changes(ALL)))


def changed(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {k for k in before if before[k] != after[k]}


def test_a_new_post_and_an_edit_count_in_their_thread_only(store):
    before = counts(store)
    store.save_posts("f", "t1", [post("1", "a"), post("2", "b")], T)
    mid = counts(store)
    assert changed(before, mid) == {T1}
    store.save_posts("f", "t1", [post("1", "a"), post("2", "b edited")], T + timedelta(hours=1))
    assert changed(mid, counts(store)) == {T1}


def test_posts_seen_again_unchanged_count_nothing(store):
    store.save_posts("f", "t1", [post("1", "a"), post("2", "b")], T, pages_fetched=[1])
    before = counts(store)
    store.save_posts("f", "t1", [post("1", "a"), post("2", "b")], T + timedelta(hours=1), pages_fetched=[1])
    store.remember("g", "tally", {"x": 1}, T)
    store.save_page("f", "u", "<html>", T)
    store.upsert_draft(game="g", kind="votecount", phase="D1", slot="", target="thread", markup="bbcode",
                       lang="en", title="t", body="b", at=T)
    store.save_extractions("g", "fp", {"k": ""})
    assert counts(store) == before


def test_a_deletion_and_its_undoing_count(store):
    store.save_posts("f", "t1", [post("1", "a"), post("2", "b")], T, pages_fetched=[1])
    before = counts(store)
    store.save_posts("f", "t1", [post("1", "a")], T + timedelta(hours=1), pages_fetched=[1])  # 2 gone
    gone = counts(store)
    assert changed(before, gone) == {T1}
    store.save_posts("f", "t1", [post("1", "a"), post("2", "b")], T + timedelta(hours=2), pages_fetched=[1])
    assert changed(gone, counts(store)) == {T1}  # back: deleted_at cleared


def test_a_date_read_again_counts(store):
    store.save_posts("f", "t1", [post("1", "a")], T)
    before = counts(store)
    assert store.redate_posts("f", "t1", {"1": T + timedelta(hours=3)}, "Europe/Rome", T) == 1
    assert changed(before, counts(store)) == {T1}


def test_pms_events_and_the_seed_count_in_their_own_scopes(store):
    before = counts(store)
    store.save_messages("f", [RawMessage(message_id="m1", sender="Bob", recipients=("Mod",), created_at=T,
                                         subject="s", body_html="kill Ann")], T)
    a = counts(store)
    assert changed(before, a) == {PMS}
    store.save_messages("f", [RawMessage(message_id="m1", sender="Bob", recipients=("Mod",), created_at=T,
                                         subject="s", body_html="kill Ann")], T)  # known: ignored
    assert counts(store) == a
    store.append_event("g", T, "decision", {"key": "lynch:D1"})
    b = counts(store)
    assert changed(a, b) == {EVENTS}
    store.set_game_seed("g", 7, T)
    assert changed(b, counts(store)) == {SEED}


def test_a_schema_8_store_counts_from_its_upgrade_on(tmp_path):
    path = tmp_path / "old.sqlite"
    db = old_store(path, 8)
    db.execute("INSERT INTO posts(site, thread, post_id, version, number, author, created_at, html, content_hash,"
               " fetched_at) VALUES ('f','t1','1',1,1,'Ann','2026-01-01T00:00:00+00:00','x','h','2026-01-01T00:00:00+00:00')")
    db.commit()
    db.close()
    with Store(path) as s:
        assert s.input_changes([T1]) == (0,)  # rows from before: no count yet (no cache made from them either)
        s.save_posts("f", "t1", [post("2", "y")], T)
        assert s.input_changes([T1]) == (1,)
        assert [p.post_id for p in s.posts("f", "t1")] == ["1", "2"]
