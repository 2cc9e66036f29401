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
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.errors import StoreError
from forummod.store import Store
from tests.archive_game import archive_config, players_toml, write_posts
from tests.reliability import confined

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


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes through file permissions")
def test_a_store_without_write_permission_is_read_by_the_reading_commands(workspace, capsys):
    """Another user's store, or one made read-only on purpose: the reading commands read it."""
    folder = workspace.parent
    store = folder / "s.sqlite"
    assert main(["draft", "votecount", "--config", str(workspace)]) == 0
    before = content(store)
    files = [p for p in folder.glob("s.sqlite*")]
    modes = {p: p.stat().st_mode for p in [folder, *files]}
    try:
        for p in files:
            p.chmod(stat.S_IRUSR)
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
        capsys.readouterr()
        for command in ("tally", "status", "drafts", "history"):
            assert main([command, "--config", str(workspace)]) == 0, capsys.readouterr().err
            err = capsys.readouterr().err
            assert "read-only for this user" in err and "it is read, nothing is written to it" in err, err
    finally:
        for p, m in modes.items():
            p.chmod(m)
    assert content(store) == before


# ---------------------------------------------------------------------- the kernel refuses (issue 34, item 5)
# A real read-only mount and a real full disk, in a child process's own namespaces
# (tests/reliability/confined.py): no root needed; skipped where the kernel forbids it.

needs_namespaces = pytest.mark.skipif(not confined.available(),
                                      reason="no unprivileged user/mount namespaces (unshare -rm) here")
READING = ("tally", "status", "drafts", "history")


def store_files(folder: Path, name: str = "s.sqlite") -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob(name + "*")) if not p.name.endswith(".lock")}


@needs_namespaces
def test_on_a_read_only_mount_reading_commands_read_and_writing_ones_say_read_only(workspace):
    """Issue 34: on a read-only mount every command, reads too, called the store unusable and
    advised moving it away. Now tally, status, drafts, history, export and publish --dry-run read
    it (a note says it is read-only); poll, publish and draft are refused naming the read-only
    file system."""
    folder = workspace.parent
    assert main(["draft", "votecount", "--config", str(workspace)]) == 0
    out = folder.with_name(folder.name + "-export")
    out.mkdir()
    before = store_files(folder)
    cfg = str(workspace)
    steps = [["cli", c, [c, "--config", cfg]] for c in READING]
    steps += [["cli", "export", ["export", "--config", cfg, "--out", str(out), "--no-png"]],
              ["cli", "dry run", ["publish", "1", "--dry-run", "--config", cfg]],
              ["cli", "poll", ["poll", "--config", cfg]],
              ["cli", "publish", ["publish", "1", "--config", cfg]],
              ["cli", "draft", ["draft", "votecount", "--config", cfg]],
              ["sh", "touch", f"touch {folder / 'x'}"]]
    got = confined.run(confined.read_only(folder), steps)

    assert got["touch"][0] != 0 and "Read-only file system" in got["touch"][2]  # the mount is real
    for c in (*READING, "export", "dry run"):
        code, stdout, stderr = got[c]
        assert code == 0, (c, stderr)
        assert "is on a read-only file system: it is read, nothing is written to it" in stderr, (c, stderr)
    assert "Bob" in got["tally"][1] and "votecount" in got["drafts"][1] and "DRY RUN" in got["dry run"][1]
    assert any(out.iterdir())
    for c in ("poll", "publish", "draft"):
        code, stdout, stderr = got[c]
        assert code == 2 and "is on a read-only file system; nothing was written" in stderr, (c, stderr)
        assert "move it" not in stderr and "not a usable" not in stderr and "Traceback" not in stderr
    assert not (folder / "posts.outbox.jsonl").exists()
    assert store_files(folder) == before


def disk_config(workspace: Path, disk: Path) -> Path:
    """The workspace's game with its store on `disk` (its posts file, and so the archive
    forum's outbox, stay beside the config)."""
    cfg = workspace.with_name("disk.toml")
    cfg.write_text(workspace.read_text(encoding="utf-8").replace(
        f'store = "{workspace.parent / "s.sqlite"}"', f'store = "{disk / "s.sqlite"}"'), encoding="utf-8")
    return cfg


def disk_for(store: Path, spare_kib: int) -> int:
    """KiB of a tmpfs that holds the store and `spare_kib` more."""
    return -(-store.stat().st_size // 4096) * 4 + spare_kib


@needs_namespaces
def test_on_a_really_full_disk_a_poll_stores_nothing_reading_works_and_the_next_poll_gets_everything(workspace):
    folder = workspace.parent
    disk = folder / "disk"
    disk.mkdir()
    cfg = str(disk_config(workspace, disk))
    write_posts(folder, day(60), T0, timedelta(minutes=5))  # 57 new long posts: more than the disk takes
    steps = [["sh", "copy", f"cp {folder / 's.sqlite'} {disk}/"],
             ["cli", "poll", ["poll", "--config", cfg]],
             ["sh", "content", f"{sys.executable} -c 'import json, sys; from tests.reliability.test_store_limits "
                               f"import content; print(json.dumps(content(sys.argv[1]), default=repr))' "
                               f"{disk / 's.sqlite'}"],
             ["cli", "tally", ["tally", "--config", cfg]],
             ["cli", "status", ["status", "--config", cfg]],
             ["sh", "grow", f"mount -o remount,size=8m {disk}"],
             ["cli", "poll again", ["poll", "--config", cfg]],
             ["cli", "tally again", ["tally", "--config", cfg, "--json"]]]
    got = confined.run(confined.small_disk(disk, disk_for(folder / "s.sqlite", 96)), steps)

    code, _, err = got["poll"]
    assert code == 2 and "disk is full" in err and "KiB free on its disk" in err and "Traceback" not in err, err
    assert "Nothing of this run was stored" not in err  # what was written before stays: it names this write
    import json

    before = json.loads(json.dumps(content(folder / "s.sqlite"), default=repr))
    assert json.loads(got["content"][1]) == before  # integrity ok, not one row more
    assert got["tally"][0] == 0 and "Bob" in got["tally"][1], got["tally"][2]
    assert got["status"][0] == 0, got["status"][2]
    assert got["grow"][0] == 0 and got["poll again"][0] == 0, got["poll again"][2]
    assert "57 new posts" in got["poll again"][1]


SEND_FILLS_THE_DISK = """
from forummod.forum import archive
_reply = archive.ArchiveAdapter.reply
def reply(self, thread, body, marker=None):
    res = _reply(self, thread, body, marker)  # the post is on the forum ...
    with open({filler!r}, "wb") as f:  # ... and meanwhile something else fills the store's disk
        try:
            while True:
                f.write(b"x" * 65536)
                f.flush()
        except OSError:
            pass
    return res
archive.ArchiveAdapter.reply = reply
"""


@needs_namespaces
def test_a_post_sent_as_the_disk_fills_is_reported_as_posted_and_recorded_by_the_next_publish(workspace):
    """Issue 34: a post that reached the forum was reported "nothing of this run was stored".
    Now: "posted to the forum at URL, but not recorded", exit 3; the next run finds it by its
    marker and records it, never posting it twice."""
    folder = workspace.parent
    assert main(["draft", "votecount", "--config", str(workspace)]) == 0
    disk = folder / "disk"
    disk.mkdir()
    cfg = str(disk_config(workspace, disk))
    filler = disk / "filler"
    steps = [["sh", "copy", f"cp {folder / 's.sqlite'} {disk}/"],
             ["cli", "publish", ["publish", "1", "--config", cfg]],
             ["sh", "free", f"rm {filler}"],
             ["cli", "publish again", ["publish", "1", "--config", cfg]],
             ["cli", "drafts", ["drafts", "--config", cfg, "--json"]]]
    got = confined.run(confined.small_disk(disk, disk_for(folder / "s.sqlite", 256)), steps,
                       patch=SEND_FILLS_THE_DISK.format(filler=str(filler)))

    outbox = [ln for ln in (folder / "posts.outbox.jsonl").read_text().splitlines() if ln.strip()]
    assert len(outbox) == 1  # posted once, and only once
    code, _, err = got["publish"]
    assert code == 3, err
    assert "draft 1 (votecount) was posted to the forum at archive:game#out-" in err and "but not recorded" in err
    assert "disk is full" in err and "Do not post it again" in err and "Nothing of this run was stored" not in err
    code, out, err = got["publish again"]
    assert code == 0 and "draft 1 was found on the forum" in out and "not sent again" in out, err
    import json

    [row] = json.loads(got["drafts"][1])["drafts"]
    assert row["status"] == "published" and row["publication"]["url"].startswith("archive:game#out-")
