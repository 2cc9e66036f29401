"""The store survives a full disk and a read-only store (issue 19, done-means 6).

A full disk is simulated with SQLite's own limit (`PRAGMA max_page_count`, the same error a
full disk gives: SQLITE_FULL); a read-only store with a `mode=ro` URI, and with file
permissions where the test does not run as root (root writes through them). Every case gives
one clear error naming the store, and nothing half-written: the store holds exactly what it
held before, passes SQLite's integrity check, and the next run without the fault completes.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.errors import StoreError
from forummod.store import Store
from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
PLAYERS = ["Ann", "Bob", "Cat"]


def day(n: int) -> list[tuple[str, str]]:
    posts = [("Mod", "[b]Day 1[/b] begins.")]
    for i in range(n - 1):
        posts.append((PLAYERS[i % 3], f"[b]VOTE: {PLAYERS[(i + 1) % 3]}[/b] " + "words " * 400))
    return posts


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    write_posts(tmp_path, day(3), T0, timedelta(minutes=5))
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(PLAYERS, {"Ann": "mafia"}))
                   + '\n[games.g.schedule]\nstart = "2026-03-02T08:00:00+00:00"\n', encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def content(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table (read-only connection), but the time of the store's last sound
    quick check (`publish` checks the store before it sends: that is no data of the game)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        rows = {t: sorted(map(tuple, db.execute(f"SELECT * FROM {t}")), key=repr) for t in tables}
        rows["meta"] = [r for r in rows["meta"] if r[0] != "quick_check_at"]
        return rows
    finally:
        db.close()


@pytest.fixture
def disk_full(monkeypatch):
    """Every Store opened from now on may grow by `pages` pages at most."""
    limit = {"pages": None}
    opened = Store.__init__

    def init(self, *a, **kw):
        opened(self, *a, **kw)
        if limit["pages"] is not None:
            used = self.db.execute("PRAGMA page_count").fetchone()[0]
            self.db.execute(f"PRAGMA max_page_count = {used + limit['pages']}")

    monkeypatch.setattr(Store, "__init__", init)
    return limit


def test_a_poll_on_a_full_disk_is_one_clear_error_and_stores_nothing(workspace, disk_full, capsys):
    store = workspace.parent / "s.sqlite"
    write_posts(workspace.parent, day(60), T0, timedelta(minutes=5))  # 57 new long posts
    before = content(store)
    disk_full["pages"] = 2
    code = main(["poll", "--config", str(workspace)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "disk is full" in err and str(store) in err and "Traceback" not in err
    assert content(store) == before  # not one post, not a poll run, not a cursor
    disk_full["pages"] = None
    assert main(["poll", "--config", str(workspace)]) == 0  # space again: the next poll gets all of them
    with Store(store, readonly=True) as s:
        assert len(s.posts("a", "game")) == 60


class FullAt:
    """A connection on which statements starting with `sql` fail with SQLITE_FULL (injected)."""

    def __init__(self, db: sqlite3.Connection, sql: str):
        self._db, self._sql = db, sql

    def execute(self, statement: str, *args):
        if statement.lstrip().upper().startswith(self._sql):
            err = sqlite3.OperationalError("database or disk is full")
            err.sqlite_errorcode = 13  # SQLITE_FULL
            raise err
        return self._db.execute(statement, *args)

    def __getattr__(self, name: str):
        return getattr(self._db, name)


def test_a_publication_that_cannot_be_recorded_is_not_sent(workspace, monkeypatch, capsys):
    assert main(["draft", "votecount", "--config", str(workspace)]) == 0
    outbox = workspace.parent / "posts.outbox.jsonl"
    store = workspace.parent / "s.sqlite"
    before = content(store)
    opened = Store.__init__

    def init(self, *a, **kw):
        opened(self, *a, **kw)
        self.db = FullAt(self.db, "INSERT OR IGNORE INTO PUBLICATIONS")

    monkeypatch.setattr(Store, "__init__", init)
    code = main(["publish", "1", "--config", str(workspace)])
    assert code == 2 and "disk is full" in capsys.readouterr().err
    assert not outbox.exists() or outbox.read_text() == ""  # not recorded first: not sent at all
    assert content(store) == before
    monkeypatch.setattr(Store, "__init__", opened)
    assert main(["publish", "1", "--config", str(workspace)]) == 0
    assert len(outbox.read_text().splitlines()) == 1


def test_a_store_opened_read_only_refuses_writes_clearly_and_keeps_its_content(workspace):
    store = workspace.parent / "s.sqlite"
    before = content(store)
    with Store(store, readonly=True) as s:  # a mode=ro URI
        with pytest.raises(StoreError, match="is read-only.*nothing was written"):
            s.save_page("a", "x", "<html></html>", T0)
        with pytest.raises(StoreError, match="is read-only"):
            s.append_event("g", T0, "note", {"text": "x"})
        assert len(s.posts("a", "game")) == 3  # reading works
    assert content(store) == before


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes through file permissions")
def test_a_store_without_write_permission_is_one_clear_error_for_a_writing_command(workspace, capsys):
    folder = workspace.parent
    store = folder / "s.sqlite"
    main(["tally", "--config", str(workspace)])  # checkpoints nothing, just makes sure all is on disk
    before = content(store)
    files = [p for p in folder.glob("s.sqlite*")]
    modes = {p: p.stat().st_mode for p in [folder, *files]}
    try:
        for p in files:
            p.chmod(stat.S_IRUSR)
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
        code = main(["poll", "--config", str(workspace)])
        err = capsys.readouterr().err
        assert code == 2 and "read-only" in err and "Traceback" not in err, err
    finally:
        for p, m in modes.items():
            p.chmod(m)
    assert content(store) == before
