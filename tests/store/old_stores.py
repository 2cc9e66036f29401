"""An SQLite file as an older forummod wrote it, for the migration tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from forummod import store as S


def old_store(path: Path, version: int) -> sqlite3.Connection:
    """A store at schema `version`: migrations 1..version run, the version recorded; the caller
    adds its rows, commits and closes before opening it with `Store` (which migrates it on)."""
    db = sqlite3.connect(path)
    for v in range(1, version + 1):
        for stmt in S._split_sql(S._MIGRATIONS[v]):
            db.execute(stmt)
    db.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?)", (str(version),))
    return db
