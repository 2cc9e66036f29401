"""Where a config's store lives, and whether a store belongs to the config's games.

One store per game folder: a config that leaves `workspace.store` empty gets `<config
name>.sqlite` beside the config file, so two folders never share drafts, events or PMs.
Configs written before that default kept their data in the user data dir; when that old
store holds one of this config's games (and the new file does not exist yet), it stays in
use, with a note, until `forummod store migrate` copies it beside the config. A silent empty
start could re-publish what was already sent, so that is never the choice: an old store that
cannot be read (damaged, emptied) stays the choice too, and is refused when opened.

A store remembers which site and thread each game id belongs to; `check_identity` refuses a
config whose game id the store knows for another site or thread (`--adopt` takes it over).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterable
from urllib.parse import urlsplit

from forummod.records import frozen

IDENTITY_KEY = "identity"
MOVED_KEY = "moved_to"


def legacy_store_path() -> Path:
    """The store every config shared before one store per game folder (the user data dir)."""
    import platformdirs  # only here: a cron process that opens its own folder's store needs no user data dir

    return Path(platformdirs.user_data_dir("forummod")) / "store.sqlite"


def beside_config(source: Path) -> Path:
    return source.with_suffix(".sqlite") if source.suffix else source.with_name(source.name + ".sqlite")


@frozen
class StoreChoice:
    """The store file a config uses, and why when it is not the default."""

    path: Path
    note: str = ""  # why a store other than the default beside the config is used


def choose_store(source: Path | None, game_ids: Iterable[str]) -> StoreChoice:
    """The store of a config whose `workspace.store` is empty."""
    if source is None:
        return StoreChoice(legacy_store_path())
    own = beside_config(source)
    if own.exists():
        return StoreChoice(own)
    legacy = legacy_store_path()
    ids = list(game_ids)
    why = unreadable(legacy)
    if why:  # it may hold this game: a new empty store beside the config could publish it all again
        return StoreChoice(legacy, (
            f"the old shared store {legacy} cannot be read ({why}), so whether it holds game "
            f"{', '.join(ids)} cannot be told; it stays this config's store rather than a new empty one. "
            f"Restore it, or, if it holds none of this config's games, set workspace.store = \"{own}\""))
    games = legacy_games(legacy, ids)
    if games:
        return StoreChoice(legacy, (
            f"using the old shared store {legacy} (it holds game {', '.join(games)}); "
            f"'forummod store migrate' moves it to {own}"))
    elsewhere = {gid: to for gid, to in moved_games(legacy, ids).items() if to != str(own)}
    if elsewhere:  # another folder's config took this id out of the shared store: say so, never silently
        return StoreChoice(own, "game " + ", ".join(f"{g} of the old shared store was moved to {to}"
                                                    for g, to in elsewhere.items())
                           + f" by another config; this config starts its own store {own}")
    return StoreChoice(own)


def unreadable(path: Path) -> str:
    """Why the store file at `path` cannot be read as a forummod store ("" when it can, or when
    there is no file)."""
    if not path.is_file():
        return ""
    from forummod import store_file
    from forummod.errors import StoreError

    try:
        problem = store_file.file_problem(path)
        if problem is not None:
            raise problem
        con = store_file.connect(path, readonly=True)
        try:
            store_file.identify(con, path)
        finally:
            con.close()
    except StoreError as e:
        return str(e).split(". ")[0]  # the finding, not the advice after it
    except sqlite3.Error as e:
        return str(e)
    return ""


def moved_games(path: Path, game_ids: Iterable[str]) -> dict[str, str]:
    """Game id -> where `store migrate` moved it, for the given ids marked moved in `path`."""
    import json

    ids = list(game_ids)
    if not ids or not path.is_file():
        return {}
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = con.execute(f"SELECT game, payload FROM snapshots WHERE key=? AND game IN ({','.join('?' * len(ids))})",
                               (MOVED_KEY, *ids)).fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return {}
    return {g: json.loads(p).get("to", "?") for g, p in rows}


def legacy_games(path: Path, game_ids: Iterable[str]) -> list[str]:
    """The given game ids that have data in the store at `path` and were not moved out of it."""
    ids = list(game_ids)
    if not ids or not path.is_file():
        return []
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    found = []
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        for gid in ids:
            if "snapshots" in tables and con.execute(
                    "SELECT 1 FROM snapshots WHERE game=? AND key=?", (gid, MOVED_KEY)).fetchone():
                continue
            for table in ("events", "drafts", "game_meta", "poll_runs", "snapshots"):
                if table in tables and con.execute(f"SELECT 1 FROM {table} WHERE game=? LIMIT 1", (gid,)).fetchone():
                    found.append(gid)
                    break
    except sqlite3.Error:
        return []
    finally:
        con.close()
    return found


def thread_key(thread: str, base_url: str) -> str:
    """The thread as the forum knows it, without the forum's address (a forum moving to https
    or a new domain keeps its games): an id stays as written, a URL loses origin and base path."""
    t = thread.strip()
    if "://" not in t:
        return t
    parts = urlsplit(t)
    path = parts.path
    base_path = urlsplit(base_url).path if base_url else ""
    if base_path and base_path != "/" and path.startswith(base_path.rstrip("/")):
        path = path[len(base_path.rstrip("/")):]
    return path + (f"?{parts.query}" if parts.query else "")


def identity(game, site) -> dict[str, str]:
    return {"site": game.site, "thread": thread_key(game.thread, site.base_url), "base_url": site.base_url}


def identity_conflict(stored: dict | None, current: dict[str, str]) -> str | None:
    """What differs between a stored identity and the config's ('' fields of old stores are not
    compared); None when it is the same game."""
    if not stored:
        return None
    diffs = [f"{k} {stored[k]!r} (config: {current[k]!r})" for k in ("site", "thread")
             if stored.get(k) and stored[k] != current[k]]
    return "; ".join(diffs) or None


def rebase_url(url: str, old_base: str, new_base: str) -> str | None:
    """`url` moved from the forum at `old_base` to `new_base`; None when it needs no change."""
    if not new_base or url.startswith(new_base):
        return None
    if old_base and old_base != new_base and url.startswith(old_base):
        return new_base + url[len(old_base):]
    old, new = urlsplit(url), urlsplit(new_base)
    if (old.scheme, old.netloc) != (new.scheme, new.netloc):
        return old._replace(scheme=new.scheme, netloc=new.netloc).geturl()
    return None
