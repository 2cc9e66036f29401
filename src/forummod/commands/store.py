"""`forummod store where | migrate | check`: the store file of a config.

Before one store per game folder, every config without `workspace.store` used one file in the
user data dir. `migrate` copies that file beside the config, keeps only this config's games in
the copy and marks them as moved in the old file (which stays, for the other configs still
using it, and as a backup). Nothing is deleted from the old store.

`check` reads the whole store (SQLite's `integrity_check`) without writing it, and says whether
it is a sound forummod store: what to run on a store that was refused as damaged, and on a
copy salvaged from one (`store check FILE`) before it takes the store's place. `salvage`
copies every row SQLite can still read from a damaged store into a new file beside it
(`store_salvage`), never touching the damaged one.
"""

from __future__ import annotations

import sqlite3
import sys

from forummod.cli import add_common
from forummod.commands._common import config_path, print_json
from forummod.errors import UsageError

NAME = "store"
HELP = ("manage the store file: 'store where' prints its path, 'store check' reads it whole for damage, "
        "'store salvage' copies what a damaged store still holds into a new file, 'store migrate' moves "
        "this config's game out of the old shared store")

_GAME_TABLES = ("publications", "drafts", "poll_runs", "findings", "game_meta", "snapshots", "extractions")


def add_arguments(p) -> None:
    from forummod.cli import add_global

    add_global(p)  # -v, -q, --config after the command name too
    sub = p.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    m = sub.add_parser("migrate", help="copy this config's games from the old shared store to a store beside the config")
    add_common(m)
    w = sub.add_parser("where", help="print the path of this config's store")
    add_common(w)
    c = sub.add_parser("check", help="read the whole store for damage (writes nothing); exit 1 when damaged")
    add_common(c)
    c.add_argument("file", nargs="?", help="a store file to check instead of the config's (e.g. a salvaged copy)")
    v = sub.add_parser("salvage", help="copy every row SQLite can still read from a damaged store into a new "
                                       "store file (default <store>.salvaged); the damaged file is not touched")
    add_common(v)
    v.add_argument("--to", metavar="FILE", help="where the copy goes (default: <store>.salvaged)")


def run(args) -> int:
    from forummod.config import load_config
    from forummod.store_location import beside_config

    if args.store_command == "check":
        return check(args)
    if args.store_command == "salvage":
        return salvage(args)
    cfg = load_config(config_path(args))
    if args.store_command == "where":
        path = cfg.workspace.store_path()
        if args.json:
            print_json("store", {"action": "where", "store": path, "note": cfg.store_note or None})
        else:
            print(path)
            if cfg.store_note:
                print(f"note: {cfg.store_note}", file=sys.stderr)
        return 0
    from forummod.store_location import legacy_store_path

    if not cfg.store_note or cfg.workspace.store_path() != legacy_store_path():
        raise UsageError(f"nothing to migrate: this config's store is {cfg.workspace.store_path()}")
    old, new = cfg.workspace.store_path(), beside_config(cfg.source)
    moved = migrate(old, new, list(cfg.games))
    if args.json:
        print_json("store", {"action": "migrate", "from": old, "to": new, "games": moved})
    else:
        print(f"copied game {', '.join(moved)} from {old} to {new}; the old store keeps its data "
              "(marked as moved) for any other config that still uses it")
    return 0


def check(args) -> int:
    """`store check [FILE]`: SQLite's full integrity check, read-only; 0 sound, 1 damaged, 2 not
    a store at all (refused as every command refuses it)."""
    from pathlib import Path

    from forummod.store_file import backups, check_file, damage_advice

    if args.file:
        path = Path(args.file)
    else:
        from forummod.config import load_config

        path = load_config(config_path(args)).workspace.store_path()
    version, found = check_file(path)
    kept = backups(path)
    if args.json:
        print_json("store", {"action": "check", "store": path, "ok": not found, "schema": version,
                             "problems": found, "backups": [str(p) for p in kept]})
    elif found:
        print(f"{path}: damaged; SQLite's integrity check found:")
        for line in found:
            print(f"  {line}")
        print(damage_advice(path).strip())
    else:
        print(f"{path}: sound (forummod store, schema {version}; SQLite's integrity check found nothing)")
        if kept:
            print(f"backups from before schema upgrades: {', '.join(p.name for p in kept)}")
    return 1 if found else 0


def salvage(args) -> int:
    """`store salvage`: 0 when the copy holds everything, 1 when rows were lost or the copy is
    not sound either (the report says which)."""
    from pathlib import Path

    from forummod.config import load_config
    from forummod.lock import WorkspaceLock
    from forummod.store_salvage import report, salvage as copy_rows

    store = load_config(config_path(args)).workspace.store_path()
    dest = Path(args.to) if args.to else store.with_name(store.name + ".salvaged")
    lock = WorkspaceLock(store).acquire()  # no run writes the store while it is read
    try:
        done = copy_rows(store, dest)
    finally:
        lock.release()
    if args.json:
        print_json("store", {"action": "salvage", "store": store, "to": dest,
                             "ok": done.complete and not done.problems, "problems": list(done.problems),
                             "tables": [{"table": t.table, "copied": t.copied, "skipped": t.skipped,
                                         "unreadable": t.unreadable or None, "left_out": t.left_out or None}
                                        for t in done.tables]})
    else:
        print("\n".join(report(done, store)))
    return 0 if done.complete and not done.problems else 1


def migrate(old, new, games: list[str]) -> list[str]:
    """Copy `old` to `new`, keep only `games` in the copy, mark them moved in `old`."""
    from forummod.lock import WorkspaceLock
    from forummod.service import utcnow
    from forummod.store import Store
    from forummod.store_location import MOVED_KEY, legacy_games

    if new.exists():
        raise UsageError(f"{new} exists already; move it away first")
    lock = WorkspaceLock(old).acquire()
    try:
        keep = legacy_games(old, games)
        src = sqlite3.connect(old)
        tmp = new.with_name(new.name + ".part")
        tmp.unlink(missing_ok=True)
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
            _keep_only(dst, keep)
        finally:
            dst.close()
            src.close()
        tmp.replace(new)
        with Store(new) as s:  # owner-only permissions, schema checks
            pass
        with Store(old) as s:
            for gid in keep:
                s.remember(gid, MOVED_KEY, {"to": str(new)}, utcnow())
        return keep
    finally:
        lock.release()


def _keep_only(db: sqlite3.Connection, games: list[str]) -> None:
    """Drop the other games' rows from the copy (their originals stay in the old store); the
    copy's append-only event log loses only other games' events, in one transaction."""
    marks = ",".join("?" * len(games)) or "''"
    with db:
        db.execute(f"DELETE FROM draft_history WHERE draft_id IN (SELECT id FROM drafts WHERE game NOT IN ({marks}))",
                   games)
        for table in _GAME_TABLES:
            db.execute(f"DELETE FROM {table} WHERE game NOT IN ({marks})", games)
        triggers = db.execute("SELECT sql FROM sqlite_master WHERE type='trigger' AND tbl_name='events'").fetchall()
        db.execute("DROP TRIGGER IF EXISTS events_no_delete")
        db.execute(f"DELETE FROM events WHERE game NOT IN ({marks})", games)
        for (sql,) in triggers:
            if "events_no_delete" in sql:
                db.execute(sql)
