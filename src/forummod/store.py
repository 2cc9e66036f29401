"""The embedded store: SQLite (stdlib `sqlite3`, WAL), schema versioned with migrations.

Raw input is kept and everything else is derived from it: fetched pages (compressed), every
version of every post (an edit adds a version, never overwrites), private messages, the
game's append-only event log (GM decisions, overrides, recorded seeds), drafts with their
history, publications (for exactly-once publishing), poll runs, reported findings and the
forum session cookies. Writes of one poll happen in one transaction, so a crash mid-poll
leaves the previous state. The file is created owner-only (0600): it holds session cookies.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import sqlite3
import stat
import zlib
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timezone
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from forummod import store_file
from forummod.errors import StoreError
from forummod.model import Message, Post, PostVersion, stored_record
from forummod.records import frozen

if TYPE_CHECKING:  # built only by the poller's methods, which import them (a recount never does)
    from forummod.adapter_records import Cursor, PageRef, RawMessage, RawPost

SCHEMA_VERSION = 9

_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE pages (
        site TEXT NOT NULL, url TEXT NOT NULL, fetched_at TEXT NOT NULL, status INTEGER,
        etag TEXT, last_modified TEXT, content_hash TEXT, body BLOB,
        PRIMARY KEY (site, url));
    CREATE TABLE posts (
        site TEXT NOT NULL, thread TEXT NOT NULL, post_id TEXT NOT NULL, version INTEGER NOT NULL,
        number INTEGER, author TEXT NOT NULL, author_id TEXT, created_at TEXT NOT NULL,
        edited_at TEXT, html TEXT NOT NULL, content_hash TEXT NOT NULL, fetched_at TEXT NOT NULL,
        page INTEGER, url TEXT,
        PRIMARY KEY (site, thread, post_id, version));
    CREATE INDEX posts_by_thread ON posts (site, thread, number);
    CREATE TABLE post_status (
        site TEXT NOT NULL, thread TEXT NOT NULL, post_id TEXT NOT NULL,
        page INTEGER, last_seen_at TEXT NOT NULL, deleted_at TEXT,
        PRIMARY KEY (site, thread, post_id));
    CREATE TABLE messages (
        site TEXT NOT NULL, message_id TEXT NOT NULL, conversation_id TEXT, sender TEXT NOT NULL,
        sender_id TEXT, recipients TEXT NOT NULL, created_at TEXT NOT NULL, subject TEXT NOT NULL,
        body_html TEXT NOT NULL, content_hash TEXT NOT NULL, fetched_at TEXT NOT NULL, url TEXT,
        PRIMARY KEY (site, message_id));
    CREATE TABLE cursors (
        site TEXT NOT NULL, stream TEXT NOT NULL, data TEXT NOT NULL, updated_at TEXT NOT NULL,
        PRIMARY KEY (site, stream));
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, at TEXT NOT NULL,
        kind TEXT NOT NULL, payload TEXT NOT NULL, recorded_at TEXT NOT NULL, actor TEXT NOT NULL);
    CREATE INDEX events_by_game ON events (game, id);
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
    CREATE TABLE drafts (
        id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, kind TEXT NOT NULL,
        phase TEXT NOT NULL, slot TEXT NOT NULL, target TEXT NOT NULL, markup TEXT NOT NULL,
        lang TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, body_hash TEXT NOT NULL,
        status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        edited_by_gm INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX drafts_by_game ON drafts (game, status);
    CREATE TABLE draft_history (
        draft_id INTEGER NOT NULL, rev INTEGER NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL,
        at TEXT NOT NULL, note TEXT NOT NULL, PRIMARY KEY (draft_id, rev));
    CREATE TABLE publications (
        id INTEGER PRIMARY KEY AUTOINCREMENT, draft_id INTEGER NOT NULL UNIQUE, game TEXT NOT NULL,
        marker TEXT NOT NULL UNIQUE, state TEXT NOT NULL, started_at TEXT NOT NULL,
        finished_at TEXT, remote_id TEXT, url TEXT, error TEXT);
    CREATE TABLE poll_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, started_at TEXT NOT NULL,
        finished_at TEXT, status TEXT NOT NULL, new_posts INTEGER NOT NULL DEFAULT 0,
        edited_posts INTEGER NOT NULL DEFAULT 0, deleted_posts INTEGER NOT NULL DEFAULT 0,
        new_messages INTEGER NOT NULL DEFAULT 0, requests INTEGER NOT NULL DEFAULT 0,
        bytes INTEGER NOT NULL DEFAULT 0, error TEXT);
    CREATE TABLE findings (
        game TEXT NOT NULL, fkey TEXT NOT NULL, fhash TEXT NOT NULL, first_at TEXT NOT NULL,
        last_at TEXT NOT NULL, reported_at TEXT, payload TEXT NOT NULL,
        PRIMARY KEY (game, fkey));
    CREATE TABLE cookies (site TEXT PRIMARY KEY, data TEXT NOT NULL, updated_at TEXT NOT NULL);
    CREATE TABLE game_meta (game TEXT PRIMARY KEY, seed INTEGER NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE snapshots (
        game TEXT NOT NULL, key TEXT NOT NULL, hash TEXT NOT NULL, payload TEXT NOT NULL,
        updated_at TEXT NOT NULL, PRIMARY KEY (game, key));
    """,
    2: """
    ALTER TABLE posts ADD COLUMN edited INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE extractions (
        game TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (game, key));
    """,
    # the page showed no readable date: created_at is a bound, never a deadline (issue 16)
    3: """
    ALTER TABLE posts ADD COLUMN date_guessed INTEGER NOT NULL DEFAULT 0;
    """,
    # each alert once per channel (issue 15): what was sent, or failed and is retried
    4: """
    CREATE TABLE alert_deliveries (
        game TEXT NOT NULL, akey TEXT NOT NULL, channel TEXT NOT NULL, kind TEXT NOT NULL,
        phase TEXT NOT NULL, text TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        first_at TEXT NOT NULL, updated_at TEXT NOT NULL, error TEXT,
        PRIMARY KEY (game, akey, channel));
    """,
    # what each draft's text was rendered from, to tell a stale draft (issue 15)
    5: """
    CREATE TABLE draft_renders (
        draft_id INTEGER PRIMARY KEY, render_hash TEXT NOT NULL, phase TEXT NOT NULL,
        last_post INTEGER, last_event INTEGER, at TEXT NOT NULL);
    """,
    # an open draft from before renders were recorded: a record with no hash, so it is compared
    # by its own text with a render now (issue 15) and never taken as fresh unseen
    6: """
    INSERT INTO draft_renders(draft_id, render_hash, phase, last_post, last_event, at)
        SELECT id, '', phase, NULL, NULL, updated_at FROM drafts
        WHERE status = 'draft' AND id NOT IN (SELECT draft_id FROM draft_renders);
    """,
    # issue 17: a poll asks which live posts a re-fetched page held (to mark the vanished ones
    # deleted); without this index that query read every status row of the thread (10 ms of a
    # 35 ms poll with nothing new at 50,000 posts, growing with the thread)
    7: """
    CREATE INDEX IF NOT EXISTS post_status_page ON post_status(site, thread, page);
    """,
    # issue 28: a post's date read again from its saved page after `sites.x.timezone` changed;
    # the posts rows keep the date as first read (history), this one is what the game uses
    8: """
    CREATE TABLE IF NOT EXISTS post_dates (
        site TEXT NOT NULL, thread TEXT NOT NULL, post_id TEXT NOT NULL, created_at TEXT NOT NULL,
        zone TEXT NOT NULL, derived_at TEXT NOT NULL,
        PRIMARY KEY (site, thread, post_id));
    """,
}


#: What each `input_changes` scope counts: (table, row, its scope's kind and columns, the
#: statements that change an input). A thread's posts change with a new version, a deletion
#: mark set or cleared and a re-read date; `post_status` rows change at every poll (the time a
#: post was last seen), which no recount reads, so only `deleted_at` counts there.
_COUNTED: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("posts", "p", "site, thread", ("INSERT", "UPDATE", "DELETE")),
    ("post_status", "p", "site, thread", ("INSERT WHEN new.deleted_at IS NOT NULL",
                                          "UPDATE OF deleted_at WHEN old.deleted_at IS NOT new.deleted_at",
                                          "DELETE WHEN old.deleted_at IS NOT NULL")),
    ("post_dates", "p", "site, thread", ("INSERT", "UPDATE", "DELETE")),
    ("messages", "m", "site", ("INSERT", "UPDATE", "DELETE")),
    ("events", "e", "game", ("INSERT", "DELETE")),  # UPDATE: refused by the append-only trigger
    ("game_meta", "g", "game", ("INSERT", "UPDATE", "DELETE")),
)


def _input_change_triggers() -> str:
    """Migration 9 (issue 30): a count of the changes to each game input (a thread's posts,
    their deletions and re-read dates; a site's PMs; a game's event log and seed), kept by
    triggers, so "did anything a recount reads change?" is one indexed read whoever wrote it (a
    cron poll, the GM, another process)."""
    out = ["CREATE TABLE IF NOT EXISTS input_changes (scope TEXT PRIMARY KEY, n INTEGER NOT NULL);"]
    for table, kind, columns, statements in _COUNTED:
        for stmt in statements:
            event, _, when = stmt.partition(" WHEN ")
            verb = event.split()[0]
            row = "old" if verb == "DELETE" else "new"
            scope = " || char(31) || ".join([f"'{kind}'", *(f"{row}.{c.strip()}" for c in columns.split(","))])
            out.append(f"CREATE TRIGGER IF NOT EXISTS {table}_changed_{verb.lower()} AFTER {event} ON {table}"
                       f"{' WHEN ' + when if when else ''} BEGIN\n"
                       f"    INSERT INTO input_changes(scope, n) VALUES ({scope}, 1)"
                       " ON CONFLICT(scope) DO UPDATE SET n = n + 1;\nEND;")
    return "\n".join(out)


_MIGRATIONS[9] = _input_change_triggers()


def _redated(posts: list[Post], dates: Mapping[str, str]) -> list[Post]:
    """`posts` with the dates re-read after a zone change (`post_dates`), in thread order again."""
    out = [replace(p, created_at=datetime.fromisoformat(dates[p.post_id])) if p.post_id in dates else p
           for p in posts]
    if any(p.number is None for p in out):
        out.sort(key=lambda p: (p.number if p.number is not None else 1 << 62, p.created_at))
    return out


#: Separates the parts of an `input_changes` scope (the triggers' char(31)): no id holds it.
SCOPE_SEP = "\x1f"


def input_scope(kind: str, *parts: str) -> str:
    """The `input_changes` scope of a thread's posts ("p", site, thread), a site's PMs ("m",
    site), a game's event log ("e", game) or seed ("g", game)."""
    return SCOPE_SEP.join((kind, *parts))


def iso(dt: datetime | None) -> str | None:
    return None if dt is None else dt.astimezone(timezone.utc).isoformat()


def from_iso(s: str | None) -> datetime | None:
    return None if s is None else datetime.fromisoformat(s)


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@frozen
class ThreadSaveStats:
    """What saving one poll's posts changed, for the poll report."""

    new: int = 0
    edited: int = 0
    deleted: int = 0
    seen: int = 0


@frozen
class StoredEvent:
    """One row of the GM log (a command or ruling), payload decoded."""

    id: int
    game: str
    at: datetime
    kind: str
    payload: dict[str, Any]
    recorded_at: datetime
    actor: str


@frozen
class DraftRow:
    """One stored draft (post or PM) as the GM may edit and publish it."""

    id: int
    game: str
    kind: str
    phase: str
    slot: str
    target: str
    markup: str
    lang: str
    title: str
    body: str
    status: str
    created_at: datetime
    updated_at: datetime
    edited_by_gm: bool


@frozen
class PublicationRow:
    """One attempt to publish a draft, so a crash never sends it twice."""

    id: int
    draft_id: int
    game: str
    marker: str
    state: str  # sending, uncertain, sent, failed
    started_at: datetime
    finished_at: datetime | None
    remote_id: str | None
    url: str | None
    error: str | None


class Store:
    """One SQLite file per workspace. Use as a context manager or call `close()`.

    `readonly`: open it for reading only (`mode=ro`). `read_if_unwritable`: open it for
    writing when this process may write it, else read-only (`writable` False, `unwritable`
    says why) instead of refusing: what a reading command wants. `check`: run SQLite's quick
    check now ("always"), when the last one is older than `store_file.CHECK_EVERY` ("due"), or
    not ("never")."""

    def __init__(self, path: Path | str, *, create: bool = True, readonly: bool = False,
                 read_if_unwritable: bool = False, check: str = "due", settle: bool = True):
        self.path = Path(path)
        self.unwritable = ""  # why a store opened with `read_if_unwritable` is read-only
        self._sound_at: datetime | None = None  # when the quick check at open found it sound
        memory = str(path) == ":memory:"
        if not memory:
            if not self.path.exists():
                if not create or readonly:
                    raise StoreError(f"store not found: {self.path} (run 'forummod poll' to create it)")
                store_file.create(self.path, build_schema)
            elif self.path.is_dir():
                raise StoreError(f"store path {self.path} is a folder, not a file")
            problem = store_file.file_problem(self.path)
            if problem is not None:
                raise problem
            if not readonly:
                why = store_file.unwritable_reason(self.path)
                if why and not read_if_unwritable:
                    raise store_file.read_only(self.path, why)
                if why:
                    readonly, self.unwritable = True, why
        self.writable = not readonly
        try:
            self.db = store_file.connect(self.path, readonly) if not memory else sqlite3.connect(
                ":memory:", isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise store_file.open_failure(self.path, e) from None
        try:
            self.db.row_factory = sqlite3.Row
            version = self._schema_version()  # a store we must refuse is refused before any write
            if not readonly:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            if not memory:
                self._check(version, check)
            self._migrate(version, readonly)
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise store_file.open_failure(self.path, e) from None
        except BaseException:
            self.db.close()  # leaves no -wal/-shm behind and the file as it was
            raise
        self._tx_depth = 0
        self._secure_files()
        if settle:
            self.settle()

    # ------------------------------------------------------------------ lifecycle
    def settle(self) -> None:
        """The small writes of opening: the application id of a store from before it, and the
        time of a sound quick check. `Workspace` makes them once it holds the workspace lock (a
        run that finds the lock busy writes nothing); on a full disk they wait for a later open."""
        if not self.writable:
            return
        store_file.stamp(self.db)
        if self._sound_at is not None:
            store_file.record_check(self.db, self._sound_at)
            self._sound_at = None

    def _secure_files(self) -> None:
        if str(self.path) == ":memory:" or not self.writable:
            return
        for suffix in ("", "-wal", "-shm"):
            p = Path(str(self.path) + suffix)
            if p.exists():
                try:
                    os.chmod(p, stat.S_IRUSR | stat.S_IWUSR)
                except OSError:
                    pass

    def _schema_version(self) -> int:
        """The store's schema version (0: a new, empty `:memory:` one); StoreError for a newer
        store, StoreDamaged for a file that is not a forummod store."""
        if str(self.path) == ":memory:":
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "meta" not in tables:
                return 0
        version = store_file.identify(self.db, self.path)
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer forummod (store schema {version}, "
                             f"this version knows {SCHEMA_VERSION}); upgrade forummod")
        return version

    def _check(self, version: int, when: str) -> None:
        """SQLite's quick check of the whole file (see `store_file.CHECK_EVERY`); before a
        schema migration always. A sound result is remembered when the store can be written."""
        now = store_file.now_utc()
        if not (when == "always" or version < SCHEMA_VERSION
                or (when == "due" and store_file.check_due(self.db, now))):
            return
        found = store_file.problems(self.db)
        if found:
            raise store_file.refuse_damage(self.path, found)
        self._sound_at = now

    def _migrate(self, version: int, readonly: bool) -> None:
        if version == SCHEMA_VERSION:
            return
        if readonly:
            why = f" ({self.unwritable})" if self.unwritable else ""
            raise StoreError(f"{self.path} needs a schema upgrade (schema {version} to {SCHEMA_VERSION}), which "
                             f"cannot be written here{why}; run a command that writes (e.g. poll) where it can")
        if version and str(self.path) != ":memory:":
            store_file.back_up(self.db, self.path, SCHEMA_VERSION)
        try:
            _upgrade(self.db, version, self._schema_version)
        except sqlite3.Error as e:
            raise store_file.open_failure(self.path, e) from None  # full disk and read-only named first

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside commit together or not at all (nested calls join the outer one)."""
        if self._tx_depth:
            self._tx_depth += 1
            try:
                yield
            finally:
                self._tx_depth -= 1
            return
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            refused = store_file.write_failure(self.path, e)
            if refused is not None:
                raise refused from None
            raise
        self._tx_depth = 1
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException as e:
            if self.db.in_transaction:  # SQLite may have rolled a full-disk transaction back itself
                self.db.execute("ROLLBACK")
            refused = store_file.write_failure(self.path, e) if isinstance(e, sqlite3.Error) else None
            if refused is not None:
                raise refused from None
            raise
        finally:
            self._tx_depth = 0
            self._secure_files()

    # ------------------------------------------------------------------ pages
    def save_page(self, site: str, url: str, body: str, fetched_at: datetime, *, status: int = 200,
                  etag: str | None = None, last_modified: str | None = None) -> None:
        h = content_hash(body)
        with self.transaction():
            # the same page again (a forum without ETags, nothing new): its validators and time
            # change, its stored text does not, so it is not compressed and written again
            if self.db.execute("UPDATE pages SET fetched_at=?, status=?, etag=?, last_modified=?"
                               " WHERE site=? AND url=? AND content_hash=?",
                               (iso(fetched_at), status, etag, last_modified, site, url, h)).rowcount:
                return
            self.db.execute(
                "INSERT OR REPLACE INTO pages(site, url, fetched_at, status, etag, last_modified, content_hash, body)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (site, url, iso(fetched_at), status, etag, last_modified, h,
                 zlib.compress(body.encode("utf-8", "surrogatepass"), 6)))

    def page(self, site: str, url: str) -> tuple[str, PageRef] | None:
        row = self.db.execute("SELECT * FROM pages WHERE site=? AND url=?", (site, url)).fetchone()
        if row is None:
            return None
        body = zlib.decompress(row["body"]).decode("utf-8", "surrogatepass") if row["body"] else ""
        from forummod.adapter_records import PageRef

        return body, PageRef(url, row["etag"], row["last_modified"], row["content_hash"])

    def pages(self, site: str) -> list[tuple[str, str]]:
        rows = self.db.execute("SELECT url, body FROM pages WHERE site=? ORDER BY url", (site,)).fetchall()
        return [(r["url"], zlib.decompress(r["body"]).decode("utf-8", "surrogatepass")) for r in rows]

    # ------------------------------------------------------------------ posts
    def save_posts(self, site: str, thread: str, posts: Sequence[RawPost], fetched_at: datetime, *,
                   pages_fetched: Sequence[int] = ()) -> ThreadSaveStats:
        """Store new posts and new versions of edited ones; mark posts gone from re-fetched pages."""
        new = edited = deleted = 0
        now = iso(fetched_at)
        with self.transaction():
            latest = self._latest_versions(site, thread, {p.post_id for p in posts})
            seen_ids = set()
            for p in posts:
                seen_ids.add(p.post_id)
                h = content_hash(p.html)
                prev = latest.get(p.post_id)
                if prev is not None and prev[1] == h:
                    self._touch_post(site, thread, p, now)
                    continue
                version = 1 if prev is None else prev[0] + 1
                if prev is None:
                    new += 1
                else:
                    edited += 1
                self.db.execute(
                    "INSERT INTO posts(site, thread, post_id, version, number, author, author_id, created_at,"
                    " edited_at, html, content_hash, fetched_at, page, url, edited, date_guessed)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (site, thread, p.post_id, version, p.number, p.author, p.author_id, iso(p.created_at),
                     iso(p.edited_at), p.html, h, now, p.page, p.url, int(p.edited or p.edited_at is not None),
                     int(p.date_guessed)))
                latest[p.post_id] = (version, h)
                self._touch_post(site, thread, p, now)
            refetched = set(pages_fetched)
            if refetched:  # one read of the live posts of these pages, not one per page
                pages = sorted(refetched)
                live = self.db.execute(
                    "SELECT post_id FROM post_status WHERE site=? AND thread=? AND deleted_at IS NULL"
                    f" AND page IN ({','.join('?' * len(pages))})", (site, thread, *pages)).fetchall()
                for r in live:
                    if r["post_id"] not in seen_ids:
                        self.db.execute("UPDATE post_status SET deleted_at=? WHERE site=? AND thread=? AND post_id=?",
                                        (now, site, thread, r["post_id"]))
                        deleted += 1
        return ThreadSaveStats(new, edited, deleted, len(posts))

    def pages_with_posts_since(self, site: str, thread: str, since: datetime, *, before_page: int) -> list[tuple[int, int | None]]:
        """(page, number of its first live post) of the pages before `before_page` holding a
        live post created at or after `since`, in page order: the pages a re-read for edits
        looks at, and the number a page that shows none numbers its posts from."""
        rows = self.db.execute(
            "SELECT s.page, min(p.number) FROM post_status s JOIN posts p ON p.site=s.site AND p.thread=s.thread"
            " AND p.post_id=s.post_id AND p.version=1 WHERE s.site=? AND s.thread=? AND s.deleted_at IS NULL"
            " AND s.page < ? GROUP BY s.page HAVING max(p.created_at) >= ? ORDER BY s.page",
            (site, thread, before_page, iso(since))).fetchall()
        return [(int(r[0]), r[1]) for r in rows if r[0] is not None]

    _IDS_PER_QUERY = 500  # well under SQLite's limit of bound parameters

    def _latest_versions(self, site: str, thread: str, post_ids: set[str]) -> dict[str, tuple[int, str]]:
        """(version, content hash) of the latest stored version of each of these posts.

        Only the posts at hand, each found through the primary key: a poll's cost stays that
        of the pages it fetched, not of the thread's length."""
        latest: dict[str, tuple[int, str]] = {}
        ids = sorted(post_ids)
        for i in range(0, len(ids), self._IDS_PER_QUERY):
            chunk = ids[i:i + self._IDS_PER_QUERY]
            for pid, version, h in self.db.execute(
                    "SELECT p.post_id, p.version, p.content_hash FROM posts p WHERE p.site=? AND p.thread=?"
                    f" AND p.post_id IN ({','.join('?' * len(chunk))}) AND p.version=(SELECT max(version) FROM posts"
                    " WHERE site=p.site AND thread=p.thread AND post_id=p.post_id)", (site, thread, *chunk)):
                latest[pid] = (version, h)
        return latest

    def _touch_post(self, site: str, thread: str, p: RawPost, now: str | None) -> None:
        self.db.execute(
            "INSERT INTO post_status(site, thread, post_id, page, last_seen_at, deleted_at) VALUES (?,?,?,?,?,NULL)"
            " ON CONFLICT(site, thread, post_id) DO UPDATE SET page=excluded.page,"
            " last_seen_at=excluded.last_seen_at, deleted_at=NULL",
            (site, thread, p.post_id, p.page, now))

    def posts(self, site: str, thread: str) -> list[Post]:
        """Every post of a thread with all its versions, in thread order."""
        collecting = gc.isenabled()
        if collecting:  # tens of thousands of new records, none in a cycle: nothing for the collector to find
            gc.disable()
        try:
            cur = self.db.cursor()
            cur.row_factory = None  # plain tuples by position: every recount reads every row
            own = not self.db.in_transaction
            if own:
                cur.execute("BEGIN")  # both reads from one snapshot, as a single statement would be
            try:
                rows = cur.execute(
                    "SELECT post_id, version, html, content_hash, fetched_at, edited_at, author, created_at, number,"
                    " author_id, url, edited, date_guessed FROM posts"
                    " WHERE site=? AND thread=? ORDER BY post_id, version", (site, thread)).fetchall()
                # the few deleted posts apart: a join would look up every post's status row
                deleted = dict(cur.execute("SELECT post_id, deleted_at FROM post_status WHERE site=? AND thread=?"
                                           " AND deleted_at IS NOT NULL", (site, thread)).fetchall())
                redated = dict(cur.execute("SELECT post_id, created_at FROM post_dates WHERE site=? AND thread=?",
                                           (site, thread)).fetchall())
            finally:
                if own:
                    cur.execute("COMMIT")
            posts = self._posts_from_rows(site, thread, rows, deleted)
            return _redated(posts, redated) if redated else posts
        finally:
            if collecting:
                gc.enable()

    def _posts_from_rows(self, site: str, thread: str, rows: list[tuple], deleted: dict[str, str]) -> list[Post]:
        """Records from rows ordered by post id and version. Every recount builds one `Post` and
        one `PostVersion` a stored post, so the records are set whole (as `stored_record` does,
        inline: two calls a post were a fifth of this loop) and repeated time stamps parsed once.
        `deleted`: post id -> when a re-fetched page no longer showed it (the few such posts)."""
        fromiso = datetime.fromisoformat
        new = object.__new__
        stamps: dict[str | None, datetime | None] = {None: None}  # a poll stores many posts at one time
        no_stamp = _NO_STAMP

        def stamp(s: str | None) -> datetime | None:
            d = stamps.get(s, no_stamp)
            if d is no_stamp:
                d = stamps[s] = fromiso(s)  # type: ignore[arg-type]
            return d  # type: ignore[return-value]

        def version(r: tuple) -> PostVersion:
            return stored_record(PostVersion, {
                "version": r[1], "html": r[2], "content_hash": r[3], "fetched_at": stamp(r[4]),
                "edited_at": stamp(r[5]), "edited": bool(r[11]), "date_guessed": bool(r[12])})

        posts: list[Post] = []
        numbers: set[int] = set()
        n = len(rows)
        i = 0
        while i < n:  # a post's versions are consecutive rows
            first = rows[i]
            pid = first[0]
            j = i + 1
            while j < n and rows[j][0] == pid:
                j += 1
            if j == i + 1:  # most posts: one version (the body of `version`, inline)
                fetched = stamps.get(first[4], no_stamp)
                if fetched is no_stamp:
                    fetched = stamp(first[4])
                edited = stamps.get(first[5], no_stamp)
                if edited is no_stamp:
                    edited = stamp(first[5])
                v = new(PostVersion)
                v.__dict__.update({"version": first[1], "html": first[2], "content_hash": first[3],
                                   "fetched_at": fetched, "edited_at": edited, "edited": bool(first[11]),
                                   "date_guessed": bool(first[12])})
                versions: tuple[PostVersion, ...] = (v,)
                last = first
            else:
                versions = tuple([version(r) for r in rows[i:j]])
                last = rows[j - 1]
            i = j
            number = last[8]
            post = new(Post)
            post.__dict__.update({
                "site": site, "thread": thread, "post_id": pid, "author": last[6], "created_at": fromiso(first[7]),
                "versions": versions, "number": number, "author_id": last[9], "url": last[10],
                "deleted_at": stamp(deleted[pid]) if pid in deleted else None})
            posts.append(post)
            numbers.add(number)
        if len(numbers) == len(posts) and None not in numbers:
            # every post numbered, no number twice: the number alone decides the thread order below
            posts.sort(key=attrgetter("number"))
            return posts
        keyed = [((p.number if p.number is not None else 1 << 62, p.created_at, _num_key(p.post_id)), k, p)
                 for k, p in enumerate(posts)]
        keyed.sort()  # thread order (the index keeps equal keys in reading order, as a stable sort would)
        return [post for _, _, post in keyed]

    def redate_posts(self, site: str, thread: str, dates: Mapping[str, datetime], zone: str, at: datetime) -> int:
        """Record the dates re-read for these posts under `zone` (a date equal to the one first
        stored drops the record); the stored versions are untouched. Returns how many changed."""
        firsts = dict(self.db.execute("SELECT post_id, created_at FROM posts WHERE site=? AND thread=? AND version=1",
                                      (site, thread)).fetchall())
        known = dict(self.db.execute("SELECT post_id, created_at FROM post_dates WHERE site=? AND thread=?",
                                     (site, thread)).fetchall())
        changed = 0
        with self.transaction():
            for pid, when in dates.items():
                first = firsts.get(pid)
                if first is None:
                    continue
                new = iso(when)
                if new == first:
                    if self.db.execute("DELETE FROM post_dates WHERE site=? AND thread=? AND post_id=?",
                                       (site, thread, pid)).rowcount:
                        changed += 1
                elif known.get(pid) != new:
                    self.db.execute("INSERT OR REPLACE INTO post_dates(site, thread, post_id, created_at, zone,"
                                    " derived_at) VALUES (?,?,?,?,?,?)", (site, thread, pid, new, zone, iso(at)))
                    changed += 1
        return changed

    def page_bodies(self, site: str) -> Iterator[tuple[str, str, datetime]]:
        """(url, body, fetched_at) of every saved page of a site, one at a time."""
        for url, body, fetched in self.db.execute("SELECT url, body, fetched_at FROM pages WHERE site=? ORDER BY url",
                                                  (site,)).fetchall():
            yield url, zlib.decompress(body).decode("utf-8", "surrogatepass") if body else "", from_iso(fetched)

    def post_span(self, site: str, thread: str) -> tuple[datetime | None, datetime | None]:
        """When a thread's first and last stored posts were written (None, None when it has none)."""
        lo, hi = self.db.execute("SELECT min(created_at), max(created_at) FROM posts WHERE site=? AND thread=?",
                                 (site, thread)).fetchone()
        return from_iso(lo), from_iso(hi)

    def page_post_counts(self, site: str, thread: str) -> dict[int, int]:
        """Live posts of a thread by the page they were last seen on (for `read_gaps`)."""
        rows = self.db.execute("SELECT page, count(*) FROM post_status WHERE site=? AND thread=? AND deleted_at IS NULL"
                               " AND page IS NOT NULL GROUP BY page", (site, thread)).fetchall()
        return {int(r[0]): int(r[1]) for r in rows}

    def post_count(self, site: str, thread: str) -> int:
        return self.db.execute("SELECT count(DISTINCT post_id) FROM posts WHERE site=? AND thread=?",
                               (site, thread)).fetchone()[0]

    # ------------------------------------------------------------------ messages
    def save_messages(self, site: str, messages: Sequence[RawMessage], fetched_at: datetime) -> int:
        new = 0
        with self.transaction():
            for m in messages:
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO messages(site, message_id, conversation_id, sender, sender_id, recipients,"
                    " created_at, subject, body_html, content_hash, fetched_at, url) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (site, m.message_id, m.conversation_id, m.sender, m.sender_id, json.dumps(list(m.recipients)),
                     iso(m.created_at), m.subject, m.body_html, content_hash(m.body_html), iso(fetched_at), m.url))
                new += cur.rowcount
        return new

    def messages(self, site: str) -> list[Message]:
        rows = self.db.execute("SELECT * FROM messages WHERE site=? ORDER BY created_at, message_id", (site,))
        return [Message(site=site, message_id=r["message_id"], sender=r["sender"],
                        created_at=from_iso(r["created_at"]), body_html=r["body_html"],
                        recipients=tuple(json.loads(r["recipients"])), subject=r["subject"],
                        conversation_id=r["conversation_id"], sender_id=r["sender_id"], url=r["url"],
                        content_hash=r["content_hash"]) for r in rows]

    def message_ids(self, site: str) -> frozenset[str]:
        return frozenset(r[0] for r in self.db.execute("SELECT message_id FROM messages WHERE site=?", (site,)))

    # ------------------------------------------------------------------ cursors
    def cursor(self, site: str, stream: str) -> Cursor | None:
        row = self.db.execute("SELECT data FROM cursors WHERE site=? AND stream=?", (site, stream)).fetchone()
        if row is None:
            return None
        d = json.loads(row["data"])
        ref = d.get("page_ref")
        from forummod.adapter_records import Cursor, PageRef

        return Cursor(stream=stream, last_page=d.get("last_page", 1), pages_total=d.get("pages_total"),
                      last_post_id=d.get("last_post_id"),
                      page_ref=PageRef(**ref) if ref else None,
                      extra=tuple(tuple(x) for x in d.get("extra", ())))

    def cursor_row(self, site: str, stream: str) -> tuple[str, str] | None:
        """A cursor as stored (data, updated_at): the same before and after a fetch unless a
        poll of this stream was stored in between (`service.store_fetch`)."""
        row = self.db.execute("SELECT data, updated_at FROM cursors WHERE site=? AND stream=?",
                              (site, stream)).fetchone()
        return None if row is None else (row[0], row[1])

    def cursor_updated_at(self, site: str, stream: str) -> datetime | None:
        """When a poll last stored this cursor (the inbox's: when the inbox was last read)."""
        row = self.db.execute("SELECT updated_at FROM cursors WHERE site=? AND stream=?", (site, stream)).fetchone()
        return None if row is None else from_iso(row[0])

    def set_cursor(self, site: str, cursor: Cursor, at: datetime) -> None:
        ref = cursor.page_ref
        data = {"last_page": cursor.last_page, "pages_total": cursor.pages_total,
                "last_post_id": cursor.last_post_id,
                "page_ref": None if ref is None else {"url": ref.url, "etag": ref.etag,
                                                      "last_modified": ref.last_modified,
                                                      "content_hash": ref.content_hash},
                "extra": [list(x) for x in cursor.extra]}
        with self.transaction():
            self.db.execute("INSERT OR REPLACE INTO cursors(site, stream, data, updated_at) VALUES (?,?,?,?)",
                            (site, cursor.stream, json.dumps(data), iso(at)))

    # ------------------------------------------------------------------ event log
    def append_event(self, game: str, at: datetime, kind: str, payload: dict[str, Any], *,
                     actor: str = "gm", recorded_at: datetime | None = None) -> int:
        with self.transaction():
            cur = self.db.execute(
                "INSERT INTO events(game, at, kind, payload, recorded_at, actor) VALUES (?,?,?,?,?,?)",
                (game, iso(at), kind, json.dumps(payload, sort_keys=True, ensure_ascii=False),
                 iso(recorded_at or datetime.now(timezone.utc)), actor))
            return int(cur.lastrowid)

    def events(self, game: str) -> list[StoredEvent]:
        rows = self.db.execute("SELECT * FROM events WHERE game=? ORDER BY id", (game,))
        return [StoredEvent(r["id"], r["game"], from_iso(r["at"]), r["kind"], json.loads(r["payload"]),
                            from_iso(r["recorded_at"]), r["actor"]) for r in rows]

    # ------------------------------------------------------------------ game metadata
    def game_seed(self, game: str) -> int | None:
        row = self.db.execute("SELECT seed FROM game_meta WHERE game=?", (game,)).fetchone()
        return None if row is None else int(row[0])

    def set_game_seed(self, game: str, seed: int, at: datetime) -> int:
        """Record the seed once; a second call returns the recorded one (replays stay equal)."""
        with self.transaction():
            self.db.execute("INSERT OR IGNORE INTO game_meta(game, seed, created_at) VALUES (?,?,?)",
                            (game, seed, iso(at)))
        return self.game_seed(game)  # type: ignore[return-value]

    # ------------------------------------------------------------------ drafts
    def upsert_draft(self, *, game: str, kind: str, phase: str, slot: str, target: str, markup: str,
                     lang: str, title: str, body: str, at: datetime, note: str = "render") -> tuple[int, bool]:
        """Create the open draft for (game, kind, phase, slot) or update its body.

        Returns (draft id, changed). A draft the GM edited by hand is not overwritten.
        """
        h = content_hash(title + "\0" + body)
        with self.transaction():
            row = self.db.execute(
                "SELECT * FROM drafts WHERE game=? AND kind=? AND phase=? AND slot=? AND status='draft'",
                (game, kind, phase, slot)).fetchone()
            if row is None:
                cur = self.db.execute(
                    "INSERT INTO drafts(game, kind, phase, slot, target, markup, lang, title, body, body_hash,"
                    " status, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,'draft',?,?)",
                    (game, kind, phase, slot, target, markup, lang, title, body, h, iso(at), iso(at)))
                did = int(cur.lastrowid)
                self._history(did, body, "draft", at, note)
                return did, True
            did = int(row["id"])
            if row["body_hash"] == h or row["edited_by_gm"]:
                return did, False
            self.db.execute("UPDATE drafts SET title=?, body=?, body_hash=?, markup=?, lang=?, target=?, updated_at=?"
                            " WHERE id=?", (title, body, h, markup, lang, target, iso(at), did))
            self._history(did, body, "draft", at, note)
            return did, True

    def edit_draft(self, draft_id: int, body: str, at: datetime, title: str | None = None) -> None:
        with self.transaction():
            row = self.draft(draft_id)
            if row is None or row.status != "draft":
                raise StoreError(f"draft {draft_id} is not an open draft")
            t = row.title if title is None else title
            self.db.execute("UPDATE drafts SET body=?, title=?, body_hash=?, edited_by_gm=1, updated_at=? WHERE id=?",
                            (body, t, content_hash(t + "\0" + body), iso(at), draft_id))
            self._history(draft_id, body, "draft", at, "edited by the GM")

    def revert_draft(self, draft_id: int, title: str, body: str, at: datetime) -> None:
        """Drop the GM's edit: the open draft takes `body` (a fresh render) and polls update it again."""
        with self.transaction():
            row = self.draft(draft_id)
            if row is None or row.status != "draft":
                raise StoreError(f"draft {draft_id} is not an open draft")
            self.db.execute("UPDATE drafts SET body=?, title=?, body_hash=?, edited_by_gm=0, updated_at=? WHERE id=?",
                            (body, title, content_hash(title + "\0" + body), iso(at), draft_id))
            self._history(draft_id, body, "draft", at, "reverted to the fresh render")

    def set_draft_status(self, draft_id: int, status: str, at: datetime, note: str = "") -> None:
        with self.transaction():
            row = self.draft(draft_id)
            if row is None:
                raise StoreError(f"no draft {draft_id}")
            self.db.execute("UPDATE drafts SET status=?, updated_at=? WHERE id=?", (status, iso(at), draft_id))
            self._history(draft_id, row.body, status, at, note or status)

    def _history(self, draft_id: int, body: str, status: str, at: datetime, note: str) -> None:
        rev = self.db.execute("SELECT coalesce(max(rev), 0) + 1 FROM draft_history WHERE draft_id=?",
                              (draft_id,)).fetchone()[0]
        self.db.execute("INSERT INTO draft_history(draft_id, rev, body, status, at, note) VALUES (?,?,?,?,?,?)",
                        (draft_id, rev, body, status, iso(at), note))

    def draft(self, draft_id: int) -> DraftRow | None:
        row = self.db.execute("SELECT * FROM drafts WHERE id=?", (draft_id,)).fetchone()
        return None if row is None else _draft_row(row)

    def drafts(self, game: str | None = None, status: str | None = None) -> list[DraftRow]:
        q, args = "SELECT * FROM drafts WHERE 1=1", []
        if game is not None:
            q += " AND game=?"
            args.append(game)
        if status is not None:
            q += " AND status=?"
            args.append(status)
        return [_draft_row(r) for r in self.db.execute(q + " ORDER BY id", args)]

    def set_draft_render(self, draft_id: int, render_hash: str, phase: str, last_post: int | None,
                         last_event: int | None, at: datetime) -> None:
        """Record the render a draft's text comes from (issue 15: a stale draft is one whose
        re-render differs from this one); a GM's edit keeps the render it was made from."""
        with self.transaction():
            self.db.execute("INSERT OR REPLACE INTO draft_renders(draft_id, render_hash, phase, last_post, last_event,"
                            " at) VALUES (?,?,?,?,?,?)", (draft_id, render_hash, phase, last_post, last_event, iso(at)))

    def draft_render(self, draft_id: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT * FROM draft_renders WHERE draft_id=?", (draft_id,)).fetchone()
        return None if row is None else dict(row, at=from_iso(row["at"]))

    def draft_history(self, draft_id: int) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(
            "SELECT rev, status, at, note, body FROM draft_history WHERE draft_id=? ORDER BY rev", (draft_id,))]

    # ------------------------------------------------------------------ publications
    def publication(self, draft_id: int) -> PublicationRow | None:
        row = self.db.execute("SELECT * FROM publications WHERE draft_id=?", (draft_id,)).fetchone()
        return None if row is None else _pub_row(row)

    def begin_publication(self, draft_id: int, game: str, marker: str, at: datetime) -> PublicationRow:
        """Record the intent to publish BEFORE sending, so a crash leaves a trace to recover from."""
        with self.transaction():
            self.db.execute("INSERT OR IGNORE INTO publications(draft_id, game, marker, state, started_at)"
                            " VALUES (?,?,?,'sending',?)", (draft_id, game, marker, iso(at)))
        return self.publication(draft_id)  # type: ignore[return-value]

    def finish_publication(self, draft_id: int, at: datetime, *, remote_id: str | None, url: str | None,
                           state: str = "sent", error: str | None = None) -> None:
        with self.transaction():
            self.db.execute("UPDATE publications SET state=?, finished_at=?, remote_id=?, url=?, error=?"
                            " WHERE draft_id=?", (state, iso(at), remote_id, url, error, draft_id))
            if state == "sent":
                row = self.draft(draft_id)
                if row is not None and row.status != "published":
                    self.db.execute("UPDATE drafts SET status='published', updated_at=? WHERE id=?",
                                    (iso(at), draft_id))
                    self._history(draft_id, row.body, "published", at, f"published as {remote_id or '?'}")

    def publications(self, game: str, states: Sequence[str]) -> list[PublicationRow]:
        """The game's publications in one of `states` (e.g. the unsettled ones), oldest first."""
        marks = ",".join("?" * len(states))
        rows = self.db.execute(f"SELECT * FROM publications WHERE game=? AND state IN ({marks}) ORDER BY id",
                               (game, *states)).fetchall()
        return [_pub_row(r) for r in rows]

    def retry_publication(self, draft_id: int, at: datetime) -> None:
        with self.transaction():
            self.db.execute("UPDATE publications SET state='sending', started_at=?, error=NULL WHERE draft_id=?",
                            (iso(at), draft_id))

    # ------------------------------------------------------------------ poll runs
    def start_poll_run(self, game: str, at: datetime) -> int:
        with self.transaction():
            cur = self.db.execute("INSERT INTO poll_runs(game, started_at, status) VALUES (?,?,'running')",
                                  (game, iso(at)))
            return int(cur.lastrowid)

    def finish_poll_run(self, run_id: int, at: datetime, status: str, **counts: Any) -> None:
        cols = ["finished_at=?", "status=?"]
        vals: list[Any] = [iso(at), status]
        for k in ("new_posts", "edited_posts", "deleted_posts", "new_messages", "requests", "bytes", "error"):
            if k in counts:
                cols.append(f"{k}=?")
                vals.append(counts[k])
        with self.transaction():
            self.db.execute(f"UPDATE poll_runs SET {', '.join(cols)} WHERE id=?", (*vals, run_id))

    def poll_runs(self, game: str, limit: int = 20) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(
            "SELECT * FROM poll_runs WHERE game=? ORDER BY id DESC LIMIT ?", (game, limit))]

    # ------------------------------------------------------------------ findings
    def finding(self, game: str, fkey: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT * FROM findings WHERE game=? AND fkey=?", (game, fkey)).fetchone()
        return None if row is None else dict(row)

    def record_finding(self, game: str, fkey: str, payload: dict[str, Any], at: datetime) -> bool:
        """Remember a finding; True when it is new or changed since it was last recorded."""
        data = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        h = content_hash(data)
        with self.transaction():
            old = self.finding(game, fkey)
            if old is None:
                self.db.execute("INSERT INTO findings(game, fkey, fhash, first_at, last_at, payload)"
                                " VALUES (?,?,?,?,?,?)", (game, fkey, h, iso(at), iso(at), data))
                return True
            if old["fhash"] == h:
                self.db.execute("UPDATE findings SET last_at=? WHERE game=? AND fkey=?", (iso(at), game, fkey))
                return False
            self.db.execute("UPDATE findings SET fhash=?, last_at=?, payload=?, reported_at=NULL WHERE game=? AND fkey=?",
                            (h, iso(at), data, game, fkey))
            return True

    def mark_findings_reported(self, game: str, fkeys: Sequence[str], at: datetime) -> None:
        with self.transaction():
            for k in fkeys:
                self.db.execute("UPDATE findings SET reported_at=? WHERE game=? AND fkey=?", (iso(at), game, k))

    # ------------------------------------------------------------------ alert deliveries
    def alert_deliveries(self, game: str, channel: str | None = None) -> dict[tuple[str, str], dict[str, Any]]:
        """(alert key, channel) -> its delivery row: each alert goes once to each channel."""
        sql, args = "SELECT * FROM alert_deliveries WHERE game=?", [game]
        if channel is not None:
            sql, args = sql + " AND channel=?", args + [channel]
        return {(r["akey"], r["channel"]): dict(r) for r in self.db.execute(sql, args)}

    def record_alert_delivery(self, game: str, akey: str, channel: str, *, kind: str, phase: str, text: str,
                              state: str, at: datetime, error: str | None = None, attempted: bool = False) -> None:
        """Insert or update one delivery (state: pending, sent, failed, uncertain, skipped)."""
        with self.transaction():
            self.db.execute(
                "INSERT INTO alert_deliveries(game, akey, channel, kind, phase, text, state, attempts, first_at,"
                " updated_at, error) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(game, akey, channel) DO UPDATE SET"
                " state=excluded.state, attempts=attempts+excluded.attempts, updated_at=excluded.updated_at,"
                " error=excluded.error",
                (game, akey, channel, kind, phase, text, state, int(attempted), iso(at), iso(at), error))

    # ------------------------------------------------------------------ saved extraction results
    def saved_extractions(self, game: str, fingerprint: str) -> dict[str, str]:
        """Encoded extraction results of a game under these settings (see extract/saved.py)."""
        cur = self.db.cursor()
        cur.row_factory = None  # plain (key, data) tuples: a recount reads one row a post
        return dict(cur.execute("SELECT key, data FROM extractions WHERE game=? AND fingerprint=?",
                                (game, fingerprint)).fetchall())

    def save_extractions(self, game: str, fingerprint: str, items: dict[str, str]) -> None:
        """Add results; results kept under other settings or code are dropped (they can never match)."""
        with self.transaction():
            self.db.execute("DELETE FROM extractions WHERE game=? AND fingerprint<>?", (game, fingerprint))
            self.db.executemany("INSERT OR REPLACE INTO extractions(game, key, fingerprint, data) VALUES (?,?,?,?)",
                                [(game, k, fingerprint, v) for k, v in items.items()])

    def desk_state(self, game: str) -> str:
        """A hash of what a pass or the console reads of the GM's desk besides the game's
        inputs: the game's drafts (status, text, the GM's edit), the renders they were made
        from, their publications, the alert deliveries and the findings not yet reported
        (issue 30: equal hashes, the same desk). A handful of indexed reads of small tables."""
        h = hashlib.sha256()
        q = self.db.execute
        for rows in (
                q("SELECT id, status, body_hash, edited_by_gm, updated_at, kind, phase, slot FROM drafts"
                  " WHERE game=? ORDER BY id", (game,)).fetchall(),
                q("SELECT r.draft_id, r.render_hash, r.phase, r.last_post, r.last_event FROM draft_renders r"
                  " JOIN drafts d ON d.id = r.draft_id WHERE d.game=? ORDER BY r.draft_id", (game,)).fetchall(),
                q("SELECT draft_id, state, started_at, finished_at, remote_id FROM publications WHERE game=?"
                  " ORDER BY draft_id", (game,)).fetchall(),
                q("SELECT akey, channel, state, attempts FROM alert_deliveries WHERE game=? ORDER BY akey, channel",
                  (game,)).fetchall(),
                q("SELECT count(*) FROM findings WHERE game=? AND reported_at IS NULL", (game,)).fetchall()):
            h.update(repr([tuple(r) for r in rows]).encode("utf-8", "surrogatepass"))
        return h.hexdigest()[:32]

    # ------------------------------------------------------------------ input changes
    def input_changes(self, scopes: Sequence[str]) -> tuple[int, ...]:
        """How many writes each scope (`input_scope`) has seen, 0 for none: one indexed read.
        The counts only grow; equal counts mean the rows a recount reads of it are the same."""
        if not scopes:
            return ()
        rows = dict(self.db.execute(f"SELECT scope, n FROM input_changes WHERE scope IN ({','.join('?' * len(scopes))})",
                                    tuple(scopes)).fetchall())
        return tuple(int(rows.get(s, 0)) for s in scopes)

    # ------------------------------------------------------------------ snapshots
    def remember(self, game: str, key: str, payload: Any, at: datetime) -> bool:
        """Keep the latest value of something derived (e.g. the tally); True when it changed."""
        data = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        h = content_hash(data)
        with self.transaction():
            row = self.db.execute("SELECT hash FROM snapshots WHERE game=? AND key=?", (game, key)).fetchone()
            if row is not None and row[0] == h:
                return False
            self.db.execute("INSERT OR REPLACE INTO snapshots(game, key, hash, payload, updated_at) VALUES (?,?,?,?,?)",
                            (game, key, h, data, iso(at)))
            return True

    def snapshot(self, game: str, key: str) -> Any:
        row = self.db.execute("SELECT payload FROM snapshots WHERE game=? AND key=?", (game, key)).fetchone()
        return None if row is None else json.loads(row[0])

    def snapshots_under(self, game: str, prefix: str) -> dict[str, Any]:
        """Every snapshot of `game` whose key starts with `prefix`, by key."""
        rows = self.db.execute("SELECT key, payload FROM snapshots WHERE game=? AND substr(key, 1, ?)=?",
                               (game, len(prefix), prefix)).fetchall()
        return {r[0]: json.loads(r[1]) for r in rows}

    # ------------------------------------------------------------------ cookies
    def load_cookies(self, site: str) -> list[dict[str, Any]]:
        row = self.db.execute("SELECT data FROM cookies WHERE site=?", (site,)).fetchone()
        return [] if row is None else json.loads(row[0])

    def save_cookies(self, site: str, cookies: list[dict[str, Any]]) -> None:
        with self.transaction():
            self.db.execute("INSERT OR REPLACE INTO cookies(site, data, updated_at) VALUES (?,?,?)",
                            (site, json.dumps(cookies), iso(datetime.now(timezone.utc))))

    def login_state(self, site: str) -> dict[str, Any]:
        """What the login guard of `site` knows (forum/login_guard.py), kept between runs."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (f"login:{site}",)).fetchone()
        return {} if row is None else json.loads(row[0])

    def save_login_state(self, site: str, state: dict[str, Any]) -> None:
        with self.transaction():
            self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?,?)", (f"login:{site}", json.dumps(state)))


class StoreCookieJar:
    """The adapters' CookieStore backed by the store (owner-only file)."""

    def __init__(self, store: Store):
        self.store = store

    def load(self, site: str) -> list[dict[str, Any]]:
        return self.store.load_cookies(site)

    def save(self, site: str, cookies: list[dict[str, Any]]) -> None:
        self.store.save_cookies(site, cookies)

    def load_login_state(self, site: str) -> dict[str, Any]:
        return self.store.login_state(site)

    def save_login_state(self, site: str, state: dict[str, Any]) -> None:
        self.store.save_login_state(site, state)


def _draft_row(r: sqlite3.Row) -> DraftRow:
    return DraftRow(r["id"], r["game"], r["kind"], r["phase"], r["slot"], r["target"], r["markup"], r["lang"],
                    r["title"], r["body"], r["status"], from_iso(r["created_at"]), from_iso(r["updated_at"]),
                    bool(r["edited_by_gm"]))


def _pub_row(r: sqlite3.Row) -> PublicationRow:
    return PublicationRow(r["id"], r["draft_id"], r["game"], r["marker"], r["state"], from_iso(r["started_at"]),
                          from_iso(r["finished_at"]), r["remote_id"], r["url"], r["error"])


_NO_STAMP = object()


def _num_key(s: str) -> tuple[int, str]:
    return (int(s), s) if s.isdigit() else (1 << 62, s)


def build_schema(db: sqlite3.Connection) -> None:
    """The schema of a new store file (`store_file.create` calls it on the file being built)."""
    _upgrade(db, 0, lambda: 0)  # nobody else sees the file being built
    store_file.record_check(db, store_file.now_utc())  # nothing to check in a file just built


def _upgrade(db: sqlite3.Connection, version: int, current: Callable[[], int]) -> None:
    """Run the migrations after `version`, each in its own transaction; `current()` reads the
    version again inside it (another process may have upgraded the store meanwhile)."""
    for v in range(version + 1, SCHEMA_VERSION + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            if current() >= v:
                db.execute("COMMIT")
                continue
            for stmt in _split_sql(_MIGRATIONS[v]):
                db.execute(stmt)
            db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (str(v),))
            db.execute("COMMIT")
        except Exception:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (triggers contain ';' inside BEGIN...END)."""
    out, buf, depth = [], [], 0
    for line in script.strip().splitlines():
        buf.append(line)
        up = line.strip().upper()
        if up.startswith("CREATE TRIGGER"):
            depth += 1
        if depth and up.endswith("END;"):
            depth -= 1
        if not depth and line.rstrip().endswith(";"):
            out.append("\n".join(buf).strip().rstrip(";"))
            buf = []
    if "".join(buf).strip():
        out.append("\n".join(buf).strip().rstrip(";"))
    return out
