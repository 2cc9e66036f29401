"""Copy what SQLite can still read from a damaged store into a new one (`forummod store salvage`).

A damaged store is refused, never replaced (`store_file`). Damage usually hits some pages,
not all: every table is read in rowid order, and a read that meets a damaged page goes on
from the first rowid past it, so the copy keeps every row but those on damaged pages. The
copy is a new store file (`<store>.salvaged`); the damaged file is not touched. The GM checks
the copy (`store check`) and moves it into place; the report says what was lost.

When posts, pages or post states were lost, the poll cursors are not copied: the next poll
then reads the thread from its first page again and stores the posts the copy lacks.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterator

from forummod import store_file
from forummod.errors import StoreDamaged, StoreError
from forummod.records import frozen

_BATCH = 256
_MAX_ROWID = (1 << 63) - 1
#: What a poll would fetch again if the copy lacks some of it (so its cursors are dropped).
_FETCHED = ("posts", "post_status", "pages", "messages")


@frozen
class TableCopy:
    """How much of one table the copy holds."""

    table: str
    copied: int
    skipped: int = 0  # stretches of damaged pages read past (their rows are not in the copy)
    unreadable: str = ""  # why nothing of the table could be read ("" when it was read)
    left_out: str = ""  # why a readable table was not copied (the cursors, see the module doc)

    @property
    def lost(self) -> bool:
        return bool(self.skipped or self.unreadable)


@frozen
class Salvage:
    source: Path
    copy: Path
    tables: tuple[TableCopy, ...]
    problems: tuple[str, ...]  # what SQLite's integrity check finds in the copy ([]: sound)

    @property
    def complete(self) -> bool:
        return not any(t.lost for t in self.tables)


def salvage(source: Path, copy: Path) -> Salvage:
    """Build the store `copy` from every row of `source` SQLite can read (see the module doc)."""
    from forummod.store import SCHEMA_VERSION, build_schema

    if copy.exists():
        raise StoreError(f"{copy} exists already; move it away or name another file with --to")
    if not source.is_file() or not source.stat().st_size:
        raise StoreDamaged(f"{source} holds nothing to salvage (no file, or 0 bytes): restore a backup of it")
    src = store_file.connect(source, readonly=True)
    try:
        try:
            version = store_file.identify(src, source)
        except (StoreDamaged, sqlite3.DatabaseError):
            version = None  # its schema record is damaged: the tables are read as this version has them
        if version is not None and version > SCHEMA_VERSION:
            raise StoreError(f"{source} was written by a newer forummod (store schema {version}); salvage it "
                             "with that version")
        store_file.create(copy, build_schema)
        dst = sqlite3.connect(copy, isolation_level=None)
        try:
            tables = _copy_tables(src, dst)
            found = store_file.problems(dst, full=True)
        finally:
            dst.close()
    finally:
        src.close()
    return Salvage(source, copy, tuple(tables), tuple(found))


def _copy_tables(src: sqlite3.Connection, dst: sqlite3.Connection) -> list[TableCopy]:
    names = [r[0] for r in dst.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT IN "
                                       "('meta', 'sqlite_sequence') ORDER BY name")]
    out = {}
    for table in [n for n in names if n != "cursors"]:
        out[table] = _copy_table(src, dst, table)
    if any(out[t].lost for t in _FETCHED if t in out):
        out["cursors"] = TableCopy("cursors", 0, left_out="posts were lost: the next poll reads the thread again "
                                                          "from its first page")
    else:
        out["cursors"] = _copy_table(src, dst, "cursors")
    return [out[n] for n in names]


def _copy_table(src: sqlite3.Connection, dst: sqlite3.Connection, table: str) -> TableCopy:
    cols = [r[1] for r in dst.execute(f'PRAGMA table_info("{table}")')]
    try:
        have = {r[1] for r in src.execute(f'PRAGMA table_info("{table}")')}
    except sqlite3.DatabaseError as e:
        return TableCopy(table, 0, unreadable=store_file.readable(e))
    if not have:
        return TableCopy(table, 0, unreadable="not in the damaged store (or its schema record is damaged)")
    cols = [c for c in cols if c in have]  # an older store lacks later columns: they take their defaults
    listed = ", ".join(f'"{c}"' for c in cols)
    insert = f'INSERT OR IGNORE INTO "{table}" ({listed}) VALUES ({", ".join("?" * len(cols))})'
    copied, skips = 0, [0]
    dst.execute("BEGIN")
    try:
        for rows in _readable_rows(src, f'SELECT rowid, {listed} FROM "{table}" WHERE rowid > ? '
                                        f"ORDER BY rowid LIMIT {_BATCH}", skips):
            dst.executemany(insert, [r[1:] for r in rows])
            copied += len(rows)
        dst.execute("COMMIT")
    except sqlite3.DatabaseError as e:  # not even one row: the table's root page is damaged
        dst.execute("ROLLBACK")
        return TableCopy(table, 0, unreadable=store_file.readable(e))
    return TableCopy(table, copied, skips[0])


def _readable_rows(src: sqlite3.Connection, sql: str, skips: list[int]) -> Iterator[list[tuple]]:
    """Batches of rows in rowid order, to the end; `skips[0]` counts the damaged stretches read
    past. A batch that meets damage is read again row by row, so only the damaged rows are
    lost. DatabaseError when not one row of the table reads."""
    one = sql.replace(f"LIMIT {_BATCH}", "LIMIT 1")
    after, read_any, careful = -(1 << 63), False, 0
    while True:
        try:
            rows = src.execute(one if careful else sql, (after,)).fetchall()
        except sqlite3.DatabaseError:
            if not careful:
                careful = _BATCH  # the next rows one at a time, to find the damaged one
                continue
            past = _past_damage(src, one, after)
            if past is None and not read_any:
                raise
            skips[0] += 1
            if past is None:
                return
            after = past
            continue
        if not rows:
            return
        read_any = True
        careful = max(0, careful - 1)
        yield rows
        after = rows[-1][0]


def _past_damage(src: sqlite3.Connection, one: str, after: int) -> int | None:
    """The smallest rowid bound past `after` from which the next row reads again (`one`: the
    query of one row; doubling steps, then halving back), or None when nothing after `after`
    reads."""
    def reads(bound: int) -> bool:
        try:
            src.execute(one, (bound,)).fetchall()
            return True
        except sqlite3.DatabaseError:
            return False

    step = 1
    while after + step < _MAX_ROWID and not reads(after + step):
        step *= 2
    if after + step >= _MAX_ROWID:
        return None
    lo, hi = after + step // 2, after + step  # lo fails (or is `after`), hi reads
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if reads(mid):
            hi = mid
        else:
            lo = mid
    return hi


def report(s: Salvage, store: Path) -> list[str]:
    """The salvage in the GM's words: what the copy holds, what it lacks, what to do next."""
    lines = [f"copied what SQLite could read of {s.source} into {s.copy}:"]
    for t in s.tables:
        if t.unreadable:
            lines.append(f"  {t.table}: nothing ({t.unreadable})")
        elif t.left_out:
            lines.append(f"  {t.table}: not copied ({t.left_out})")
        else:
            lost = f", {t.skipped} damaged stretch(es) skipped: their rows are lost" if t.skipped else ""
            lines.append(f"  {t.table}: {t.copied} rows{lost}")
    if s.problems:
        lines.append(f"the copy is not sound either ({'; '.join(s.problems[:3])}): restore a backup instead")
        return lines
    lost = {t.table for t in s.tables if t.lost}
    if lost & {"drafts", "publications", "draft_history"}:
        lines.append("drafts or publication records were lost: look at the thread and your sent PMs before "
                     "publishing, a draft the copy does not know as published may be on the forum already")
    if lost & {"events"}:
        lines.append("GM events were lost: 'forummod status' shows the log the copy holds; record again what "
                     "is missing (gm commands)")
    if not lost:
        lines.append("nothing was lost.")
    lines.append(f"'forummod store check {s.copy}' confirms the copy is sound. To use it, keep the damaged store "
                 f"and put the copy in its place: mv {store} {store}.damaged && mv {s.copy} {store}")
    return lines
