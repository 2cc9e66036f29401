"""The store's file: how it is created, recognised, checked, backed up, and what the disk said.

A store is never mistaken for another file (issue 34, item 4). A new one is built complete
under a temporary name and linked into place, so a store file never exists empty: an empty
file where the store is (truncated by a copy, a sync tool, a full disk) is refused, as is a
file that is not SQLite, an SQLite file of another program (its header's `application_id`),
and one SQLite finds damaged (`PRAGMA quick_check`). Refused, never recreated: an empty
start forgets the GM log and what was published, and sends the role PMs a second time.

A full disk (SQLITE_FULL, ENOSPC) and a store that may not be written (SQLITE_READONLY, a
read-only mount, no permission) are named as such; a reading command opens such a store
read-only. Before a schema migration the store is copied (SQLite backup API) to
`<store>.pre-v<N>.bak`; the last `BACKUPS_KEPT` stay.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

from forummod.errors import StoreDamaged, StoreError, StoreFull, StoreReadOnly

#: The SQLite header's application id of a forummod store ("fmod"): `file(1)` and forummod
#: tell it from any other SQLite file. Stores made before it have 0 and a `meta` table.
APPLICATION_ID = 0x666D6F64

#: How often opening a store runs `PRAGMA quick_check`: it reads the whole file (about 150 ms
#: at 50,000 posts, two hundred times the open itself), so at most once a day; `publish`,
#: `doctor`, `store check` and a schema migration always check.
CHECK_EVERY = timedelta(days=1)
CHECKED_KEY = "quick_check_at"  # in the store's meta table: when the last check found it sound

BACKUPS_KEPT = 3
_HEADER = b"SQLite format 3\x00"

# SQLite's primary result codes (the low byte of an extended code)
_CORRUPT, _FULL, _CANTOPEN, _NOTADB, _READONLY, _IOERR = 11, 13, 14, 26, 8, 10


def sqlite_code(e: BaseException) -> int:
    return (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF


# ------------------------------------------------------------------ what is at the path


def file_problem(path: Path) -> StoreDamaged | None:
    """Why the existing file at `path` cannot be a store, judged from its first bytes (None: it
    looks like SQLite; the connection then tells a forummod store from another program's)."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except PermissionError:
        return None  # unreadable: the open names it (permissions), not as damage
    if not head:
        return StoreDamaged(
            f"the store {path} is an empty file (0 bytes): its content is gone (a copy or sync that "
            "truncated it, a full disk while it was replaced?). forummod does not start a new game in "
            "it. Nothing was changed." + damage_advice(path) + ".")
    if not head.startswith(_HEADER) or len(head) < 100:
        return StoreDamaged(f"{path} is not an SQLite file (damaged, or another program's file), so "
                            "not a forummod store. Nothing was changed." + damage_advice(path) + ".")
    return None


def unwritable_reason(path: Path) -> str:
    """Why this process may not write the store at `path` ("" when it may): a read-only mount,
    or the file's or folder's permissions (SQLite writes its -wal and -shm files beside it)."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return f"the store {path} is on a read-only file system"
    except OSError:
        pass
    if path.exists() and not os.access(path, os.W_OK):
        return f"the store {path} is read-only for this user (file permissions)"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the store's folder {folder} is read-only for this user (SQLite writes its -wal file there)"
    return ""


def free_space_note(path: Path) -> str:
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return ""
    return f" ({st.f_bavail * st.f_frsize // 1024} KiB free on its disk)"


def _disk_full(path: Path) -> bool:
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


# ------------------------------------------------------------------ naming what went wrong


def damage_advice(path: Path) -> str:
    """What to do with a damaged store, without the one advice that re-publishes everything."""
    kept = backups(path)
    ours = f" (forummod's copies from before schema upgrades: {', '.join(p.name for p in kept)})" if kept else ""
    return (" Do not delete it or start a new store in its place: a new store forgets "
            "the GM log and what was already published, and would send the role PMs and posts again. Restore "
            f"your latest backup of it{ours}, or copy what SQLite can still read into a new store with "
            f"'forummod store salvage' (it writes {path.name}.salvaged, says what was lost and how to put it "
            "in place; the damaged file stays as it is)")


def write_failure(path: Path, e: BaseException) -> StoreError | None:
    """A clear StoreError for a write the disk refused (full, read-only), else None.

    SQLite rolls the statement (and on a full disk the transaction) back itself; the caller
    rolls back the rest, so the store keeps exactly what the last complete write left."""
    code = sqlite_code(e)
    text = str(e).lower()
    if code == _FULL or "database or disk is full" in text or getattr(e, "errno", None) == errno.ENOSPC:
        return StoreFull(f"the store {path} could not be written: the disk is full (or the store reached its "
                         f"size limit){free_space_note(path)}. What this command was writing was not stored; the "
                         "store keeps its last complete state. Free some space and run the command again")
    if (code == _READONLY or "readonly database" in text
            or getattr(e, "errno", None) in (errno.EROFS, errno.EACCES, errno.EPERM)):
        return read_only(path, unwritable_reason(path) or f"the store {path} is read-only (opened read-only)")
    if code == _IOERR and _disk_full(path):  # e.g. the -shm file could not grow
        return write_failure(path, OSError(errno.ENOSPC, "no space left on device"))
    return None


def read_only(path: Path, why: str) -> StoreReadOnly:
    """The refusal of a write to a store that may only be read (`why`: unwritable_reason)."""
    return StoreReadOnly(f"{why}; nothing was written. Make it writable for this user, or use a command "
                         "that only reads (tally, status, drafts, history, export)")


def open_failure(path: Path, e: sqlite3.Error) -> StoreError:
    """The StoreError for a store SQLite would not open or read."""
    refused = write_failure(path, e)
    if refused is not None:
        return refused
    code = sqlite_code(e)
    if code == _CANTOPEN:
        why = unwritable_reason(path)
        if why:
            return StoreReadOnly(f"{why}, and SQLite cannot read it without writing its -shm file there "
                                 f"({e}); nothing was changed. Make the folder writable, or open a copy")
        return StoreError(f"cannot open the store {path} ({e}); nothing was changed")
    if code in (_NOTADB, _CORRUPT):
        return StoreDamaged(f"the store {path} is damaged ({readable(e)}). Nothing was changed."
                            + damage_advice(path) + ".")
    return StoreError(f"cannot use the store {path} ({readable(e)}); nothing was changed")


def readable(e: BaseException) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in str(e))[:200]


# ------------------------------------------------------------------ creating and opening


def create(path: Path, build: Callable[[sqlite3.Connection], None]) -> None:
    """A new store at `path`, complete before it appears: `build` writes its schema into a
    temporary file beside it, which is then linked into place (never over an existing file:
    another process that made it first wins, and its store is used)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_name(f".{path.name}.new-{os.getpid()}-{secrets.token_hex(3)}")
        os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as e:
        raise _cannot_create(path, e) from None
    try:
        db = sqlite3.connect(tmp, isolation_level=None)
        try:
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute("PRAGMA journal_mode=WAL")
            build(db)
        finally:
            db.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another run created it meanwhile: that one is the store
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(tmp, path)
    except (sqlite3.Error, OSError) as e:
        raise _cannot_create(path, e) from None
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(str(tmp) + suffix).unlink(missing_ok=True)


def _cannot_create(path: Path, e: BaseException) -> StoreError:
    refused = write_failure(path, e)
    if isinstance(refused, StoreFull):
        return StoreFull(f"cannot create the store {path}: the disk is full{free_space_note(path)}; nothing was "
                         "created. Free some space and run the command again")
    if isinstance(refused, StoreReadOnly):
        why = unwritable_reason(path) or str(e)
        return StoreReadOnly(f"cannot create the store {path}: {why}; nothing was created. Set workspace.store "
                             "to a writable place")
    return StoreError(f"cannot create the store {path} ({getattr(e, 'strerror', None) or e}): choose a file in a "
                      "folder you can write (workspace.store in the config)")


def connect(path: Path, readonly: bool) -> sqlite3.Connection:
    """A connection to the store; `readonly`: through a `mode=ro` URI, and where SQLite cannot
    create the -shm file a WAL store needs (a read-only folder) and no -wal file exists (so no
    writer has it open, and none can: the folder is read-only), as immutable."""
    if not readonly:
        return sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
    uri = "file:" + _quote(path)
    db = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=30, isolation_level=None, check_same_thread=False)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError as e:
        wal = Path(str(path) + "-wal")
        if sqlite_code(e) != _CANTOPEN or (wal.exists() and wal.stat().st_size):
            db.close()
            raise
    db.close()
    return sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, isolation_level=None, check_same_thread=False)


def _quote(path: Path) -> str:
    from urllib.parse import quote

    return quote(str(path.absolute()), safe="/")


def identify(db: sqlite3.Connection, path: Path) -> int:
    """The schema version of the forummod store on `db` (0: an empty database, only ever a
    `:memory:` one or a file being built); StoreDamaged for another program's SQLite file."""
    app = db.execute("PRAGMA application_id").fetchone()[0]
    # one statement, one snapshot of the tables
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if app not in (0, APPLICATION_ID):
        raise StoreDamaged(f"{path} is an SQLite database of another program (application id {app:#x}), not a "
                           "forummod store; nothing was changed. Check workspace.store in the config")
    if "meta" not in tables:
        what = "an SQLite database of another program" if tables else "an empty SQLite database"
        raise StoreDamaged(f"{path} is {what}, not a forummod store (no schema version in it); nothing was "
                           "changed. Check workspace.store in the config, or restore the store from a backup")
    row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if row is None:
        raise StoreDamaged(f"{path} has no schema version: not a forummod store, or a damaged one. Nothing was "
                           "changed." + damage_advice(path) + ".")
    return int(row[0])


def stamp(db: sqlite3.Connection) -> None:
    """Give a store from before the application id (or a new `:memory:` one) its id; on a full
    disk it is simply stamped at a later open (a `meta` table still tells it is forummod's)."""
    if db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
        return
    try:
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    except sqlite3.Error as e:
        if sqlite_code(e) not in (_FULL, _READONLY):
            raise


# ------------------------------------------------------------------ checking


def check_due(db: sqlite3.Connection, now: datetime) -> bool:
    row = db.execute("SELECT value FROM meta WHERE key=?", (CHECKED_KEY,)).fetchone()
    try:
        return row is None or now - datetime.fromisoformat(row[0]) >= CHECK_EVERY
    except (TypeError, ValueError):
        return True


def problems(db: sqlite3.Connection, *, full: bool = False) -> list[str]:
    """What SQLite finds wrong in the store (`quick_check`; `full`: `integrity_check`, which
    also compares every index with its table); [] when it is sound."""
    try:
        rows = db.execute("PRAGMA integrity_check(20)" if full else "PRAGMA quick_check(20)").fetchall()
    except sqlite3.DatabaseError as e:
        return [readable(e)]
    found = [readable(r[0]) for r in rows]
    return [] if found == ["ok"] else found


def check_file(path: Path) -> tuple[int, list[str]]:
    """(schema version, what SQLite's full integrity check finds) of the store file at `path`,
    read without writing it, whatever its schema version (a backup, a salvaged copy); the
    StoreError every command gives for a file that is no forummod store at all."""
    if not path.is_file():
        raise StoreError(f"no store file at {path}")
    problem = file_problem(path)
    if problem is not None:
        raise problem
    try:
        db = connect(path, readonly=True)
    except sqlite3.Error as e:
        raise open_failure(path, e) from None
    try:
        return identify(db, path), problems(db, full=True)
    except sqlite3.DatabaseError as e:
        raise open_failure(path, e) from None
    finally:
        db.close()


def refuse_damage(path: Path, found: list[str]) -> StoreDamaged:
    more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
    return StoreDamaged(f"the store {path} is damaged: SQLite's check found {'; '.join(found[:3])}{more}. "
                        "Nothing was changed." + damage_advice(path) + ".")


def record_check(db: sqlite3.Connection, now: datetime) -> None:
    """Remember a sound check; on a full disk or a read-only store it is simply checked again
    next time (nothing the GM needs to act on)."""
    try:
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (CHECKED_KEY, now.isoformat()))
    except sqlite3.Error as e:
        if sqlite_code(e) not in (_FULL, _READONLY):
            raise


# ------------------------------------------------------------------ backups


def backup_path(path: Path, version: int) -> Path:
    return path.with_name(f"{path.name}.pre-v{version}.bak")


def backups(path: Path) -> list[Path]:
    """The store's schema-upgrade backups, newest (highest version) first."""
    pat = re.compile(re.escape(path.name) + r"\.pre-v(\d+)\.bak$")
    try:
        found = [(int(m.group(1)), p) for p in path.parent.iterdir() if (m := pat.match(p.name))]
    except OSError:
        return []
    return [p for _, p in sorted(found, reverse=True)]


def back_up(db: sqlite3.Connection, path: Path, version: int) -> Path:
    """Copy the store (a consistent snapshot, through SQLite's backup API) to the backup of
    the schema `version` about to be written; keep the last `BACKUPS_KEPT`. Owner-only: the
    copy holds the session cookies too."""
    dest = backup_path(path, version)
    tmp = dest.with_name(dest.name + ".part")
    try:
        os.close(os.open(tmp, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600))
        out = sqlite3.connect(tmp)
        try:
            db.backup(out)
        finally:
            out.close()
        os.replace(tmp, dest)
    except (sqlite3.Error, OSError) as e:
        tmp.unlink(missing_ok=True)
        refused = write_failure(path, e)
        raise StoreError(f"the store {path} needs a schema upgrade to {version} and is copied to {dest.name} "
                         f"first; that copy failed ({refused or e}), so the store was not upgraded and is "
                         "unchanged") from None
    for old in backups(path)[BACKUPS_KEPT:]:
        old.unlink(missing_ok=True)
    return dest


def now_utc() -> datetime:
    return datetime.now(timezone.utc)
