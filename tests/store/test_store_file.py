"""The store is never mistaken (issue 34, item 4): it knows it is forummod's, is never seen
empty, is checked for damage, and is copied before a schema migration.

Real files in a temporary folder, real SQLite; the damage is written into the file's bytes.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.adapter_records import RawPost
from forummod.errors import StoreDamaged, StoreError
from forummod.store import SCHEMA_VERSION, Store
from forummod.store_file import APPLICATION_ID, BACKUPS_KEPT, CHECKED_KEY, backup_path, check_file

from tests.store.old_stores import old_store

T = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def header_app_id(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[68:72], "big")


def game_store(path: Path, posts: int = 300) -> Path:
    """A store holding a thread of `posts` posts of some length (so it spans many pages)."""
    with Store(path) as s:
        s.save_posts("f", "t", [RawPost(post_id=str(i), author="Ann", created_at=T + timedelta(minutes=i),
                                        html=f"<p>{'words ' * 150}{i}</p>", number=i, page=1 + i // 25)
                                for i in range(1, posts + 1)], T)
        s.append_event("g", T, "note", {"text": "the GM's log"})
    return path


def checked_days_ago(path: Path, days: float) -> None:
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value=? WHERE key=?",
               ((datetime.now(timezone.utc) - timedelta(days=days)).isoformat(), CHECKED_KEY))
    db.commit()
    db.close()


def garbage_inside(path: Path, size: int = 4096) -> None:
    """`size` bytes of garbage written into the middle of the file (a bad disk, a stray write)."""
    with open(path, "r+b") as f:
        f.seek(os.path.getsize(path) // 2)
        f.write(bytes((i * 7919) % 251 for i in range(size)))


def last_check(path: Path) -> str:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT value FROM meta WHERE key=?", (CHECKED_KEY,)).fetchone()[0]
    finally:
        db.close()


# ---------------------------------------------------------------------- what the file is


def test_a_new_store_carries_forummods_application_id_and_leaves_no_building_file(tmp_path):
    p = tmp_path / "s.sqlite"
    Store(p).close()
    assert header_app_id(p) == APPLICATION_ID
    assert sorted(f.name for f in tmp_path.iterdir()) == ["s.sqlite"]  # the temporary file is gone
    assert stat.S_IMODE(p.stat().st_mode) == 0o600


def test_an_empty_file_where_the_store_is_is_refused_never_made_a_new_store(tmp_path):
    p = tmp_path / "s.sqlite"
    game_store(p, 3)
    p.write_bytes(b"")  # truncated by a copy or a sync tool
    with pytest.raises(StoreDamaged, match=r"is an empty file \(0 bytes\).*Do not delete it"):
        Store(p)
    assert p.stat().st_size == 0 and sorted(f.name for f in tmp_path.iterdir()) == ["s.sqlite"]


def test_stores_opened_at_once_by_many_runs_are_one_store(tmp_path):
    """A new store appears complete (built under another name, then linked): a run that opens it
    while another creates it never finds it empty, and never refuses it as such."""
    p = tmp_path / "s.sqlite"
    errors, versions = [], []

    def open_it():
        try:
            with Store(p) as s:
                versions.append(s.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0])
        except Exception as e:  # noqa: BLE001 — collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=open_it) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and versions == [str(SCHEMA_VERSION)] * 8
    assert [f.name for f in tmp_path.iterdir() if not f.name.startswith("s.sqlite")] == []


def test_a_store_from_before_the_application_id_is_known_by_its_meta_table_and_stamped(tmp_path):
    p = tmp_path / "s.sqlite"
    db = old_store(p, SCHEMA_VERSION)  # as forummod wrote it before the id: 0 in the header
    db.commit()
    db.close()
    assert header_app_id(p) == 0
    with Store(p) as s:
        assert s.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_a_store_opened_read_only_is_not_stamped(tmp_path):
    p = tmp_path / "s.sqlite"
    db = old_store(p, SCHEMA_VERSION)
    db.commit()
    db.close()
    before = p.read_bytes()
    with Store(p, readonly=True) as s:
        assert s.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    assert p.read_bytes() == before


# ---------------------------------------------------------------------- SQLite's check at open


def test_garbage_inside_the_store_is_found_by_the_check_when_it_is_due(tmp_path):
    """4 KB of garbage in the middle: a command that reads other pages would not notice it; the
    quick check at open does, and the store is refused with the way to recover it."""
    p = game_store(tmp_path / "s.sqlite")
    checked_days_ago(p, 2)
    garbage_inside(p)
    before = p.read_bytes()
    Store(p, check="never").close()  # the open alone reads the schema, which is intact
    with pytest.raises(StoreDamaged) as e:
        Store(p)
    assert "SQLite's check found" in str(e.value) and "Do not delete it" in str(e.value)
    assert "move it away" not in str(e.value) and "forummod store salvage" in str(e.value)
    assert p.read_bytes() == before


def test_the_check_runs_at_most_once_a_day_unless_asked_always(tmp_path):
    p = game_store(tmp_path / "s.sqlite", 30)
    first = last_check(p)  # a new store is sound by construction: its check is recorded
    Store(p).close()
    assert last_check(p) == first  # not due: not run, nothing recorded
    checked_days_ago(p, 1.01)
    old = last_check(p)
    Store(p).close()
    assert last_check(p) > old  # due: run and recorded
    garbage_inside(p)
    with pytest.raises(StoreDamaged):
        Store(p, check="always")  # publish, doctor: whatever the last check said


def test_without_a_due_check_damage_shows_when_a_query_meets_it(tmp_path):
    """Not due, so not checked: damage is then found by the query that meets it (and the CLI
    gives it the same advice); the check is what finds it before anything is written."""
    p = game_store(tmp_path / "s.sqlite")
    garbage_inside(p, 64 * 1024)
    with pytest.raises(sqlite3.DatabaseError):
        with Store(p) as s:
            s.posts("f", "t")


def test_store_check_reads_the_whole_file_of_any_schema_without_writing_it(tmp_path):
    p = game_store(tmp_path / "s.sqlite")
    assert check_file(p) == (SCHEMA_VERSION, [])
    old = tmp_path / "old.sqlite"
    db = old_store(old, 3)
    db.commit()
    db.close()
    assert check_file(old) == (3, [])  # a backup from before an upgrade is checked, not upgraded
    garbage_inside(p)
    before = p.read_bytes()
    version, found = check_file(p)
    assert version == SCHEMA_VERSION and found
    assert p.read_bytes() == before
    (tmp_path / "empty.sqlite").write_bytes(b"")
    with pytest.raises(StoreDamaged, match="empty file"):
        check_file(tmp_path / "empty.sqlite")


# ---------------------------------------------------------------------- backup before a migration


def test_a_schema_migration_is_preceded_by_a_backup_of_the_old_store(tmp_path):
    p = tmp_path / "s.sqlite"
    db = old_store(p, SCHEMA_VERSION - 1)
    db.execute("INSERT INTO events(game, at, kind, payload, recorded_at, actor) VALUES "
               "('g', '2026-01-01T00:00:00+00:00', 'note', '{}', '2026-01-01T00:00:00+00:00', 'gm')")
    db.commit()
    db.close()
    with Store(p) as s:
        assert len(s.events("g")) == 1
    bak = backup_path(p, SCHEMA_VERSION)
    assert bak.name == f"s.sqlite.pre-v{SCHEMA_VERSION}.bak" and stat.S_IMODE(bak.stat().st_mode) == 0o600
    assert check_file(bak) == (SCHEMA_VERSION - 1, [])  # the store as it was, whole
    b = sqlite3.connect(bak)
    assert b.execute("SELECT count(*) FROM events").fetchone()[0] == 1
    b.close()
    Store(p).close()  # no migration, no new backup
    assert sorted(f.name for f in tmp_path.iterdir() if f.name.endswith(".bak")) == [bak.name]


def test_only_the_last_backups_are_kept(tmp_path):
    p = tmp_path / "s.sqlite"
    for v in range(1, SCHEMA_VERSION):
        backup_path(p, v).write_bytes(b"an older backup")
    db = old_store(p, SCHEMA_VERSION - 1)
    db.commit()
    db.close()
    Store(p).close()
    kept = sorted(int(f.name.split("pre-v")[1].split(".")[0]) for f in tmp_path.iterdir() if f.name.endswith(".bak"))
    assert kept == list(range(SCHEMA_VERSION - BACKUPS_KEPT + 1, SCHEMA_VERSION + 1))


def test_a_migration_whose_backup_cannot_be_made_is_not_run(tmp_path):
    p = tmp_path / "s.sqlite"
    db = old_store(p, SCHEMA_VERSION - 1)
    db.commit()
    db.close()
    backup_path(p, SCHEMA_VERSION).mkdir()  # something in the way of the copy
    with pytest.raises(StoreError, match="was not upgraded and is unchanged"):
        Store(p)
    assert check_file(p) == (SCHEMA_VERSION - 1, [])
