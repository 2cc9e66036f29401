"""Helpers shared by the command modules: open the workspace, parse times, print JSON."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from types import MappingProxyType
from typing import Any

from forummod.errors import UsageError


def default_config_path() -> Path:
    return Path(os.environ.get("FORUMMOD_CONFIG", "forummod.toml"))


def config_path(args) -> Path:
    return Path(args.config) if getattr(args, "config", None) else default_config_path()


def open_workspace(args, *, writes: bool = False, reads: bool = False, **kw):
    """The workspace of `args.config`, as a context manager. `writes=True` (every command that
    writes the store) also holds the workspace lock while it is open (`lock.holding_lock`);
    `reads=True` (a command that only reads: tally, status, drafts, history, export) reads a
    store it may not write (a read-only mount, another user's file) instead of refusing it."""
    from forummod.service import Workspace

    kw.setdefault("adopt", bool(getattr(args, "adopt", False)))
    kw.setdefault("read_only_ok", reads and not writes)
    ws = Workspace.open(config_path(args), **kw)
    from forummod.config import config_warnings

    for warning in config_warnings(ws.cfg):
        print(f"forummod: warning: {warning}", file=sys.stderr)
    if not writes:
        return ws
    from forummod.lock import holding_lock

    words = ["forummod", getattr(args, "command", None), getattr(args, "gm_command", None)]
    return holding_lock(ws, " ".join(w for w in words if w))


def parse_time(text: str, tz=None) -> datetime:
    """ISO 8601; a time without offset is read in `tz` (the game's timezone) or UTC."""
    try:
        dt = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"{text!r} is not a date-time like 2026-12-01T21:00 or 2026-12-01T21:00+01:00") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=tz or timezone.utc)
    return dt.astimezone(timezone.utc)


SCHEMA_VERSION = 1  # of every `--json` output; docs/json.md and docs/schema/*.json describe it


def to_jsonable(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, datetime):
        return obj.isoformat()
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = [to_jsonable(x) for x in obj]
        return sorted(items, key=str) if isinstance(obj, (set, frozenset)) else items
    if isinstance(obj, (dict, MappingProxyType)):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, float) and obj.is_integer():
        return int(obj)  # whole counts (vote totals, weights) print as 6, not 6.0
    return obj


def plural(n: int, noun: str, plural_form: str | None = None) -> str:
    """'1 new post', '3 new posts' (English CLI messages)."""
    return f"{n} {noun if n == 1 else plural_form or noun + 's'}"


def envelope(command: str, data: dict[str, Any]) -> dict[str, Any]:
    """Every `--json` output is one object: the schema version, the command, then its data."""
    return {"schema_version": SCHEMA_VERSION, "command": command, **data}


def print_json(command: str, data: dict[str, Any]) -> None:
    """The JSON document on stdout, around the terminal filter (`termsafe`): json.dumps escapes
    control characters itself, and a reader gets the same bytes as ever."""
    from forummod.termsafe import unfiltered

    out = unfiltered(sys.stdout)
    json.dump(to_jsonable(envelope(command, data)), out, ensure_ascii=False, indent=2, sort_keys=False)
    out.write("\n")
    out.flush()  # a closed pipe shows here, inside main's BrokenPipeError handler
