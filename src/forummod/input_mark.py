"""A game's input mark (issue 30): one short string that changes whenever anything a recount of
the game reads changes, read with a few indexed queries and no post row.

A recount (`service.analyse_game`) reads the game's threads (posts, their versions, deletions
and re-read dates), the site's PMs, the game's event log and seed, and for PM routing the other
games on the same inbox (their thread's first and last post, their log); it is shaped by the
config (the game, its site, those other games, a roles file) and by the code (forummod's
source and message catalogs). The mark is a hash of:

- the store's change counts of those scopes (`Store.input_changes`, kept by triggers, so any
  writer counts: a cron poll, the GM, another process);
- the thread ids they are stored under;
- a canonical form of the config parts (`config_digest`), the roles file's text included;
- `code_version()`: forummod's version and the size and modification time of every source and
  catalog file of the package (a changed file is a new version, as an upgrade is).

Equal marks mean equal inputs; the clock is apart (analysis_clock.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from datetime import date, datetime, time, timedelta
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from forummod.store import Store, input_scope


def input_mark(store: Store, cfg: Any, game_id: str, threads: Sequence[tuple[str, str]],
               others: Sequence[tuple[str, str]], *, seed_writes: int = 0) -> str:
    """The mark of `game_id`'s inputs: `threads` are its (site, thread id) pairs, `others` the
    (game id, game thread id) of the config's other games on the same site (PM routing).
    `seed_writes`: writes of the game's seed not to count (the mark as it was before a recount
    recorded the seed)."""
    site = cfg.games[game_id].site
    scopes = [input_scope("m", site), input_scope("e", game_id), input_scope("g", game_id)]
    scopes += [input_scope("p", s, t) for s, t in threads]
    for gid, thread in others:
        scopes += [input_scope("p", site, thread), input_scope("e", gid)]
    counts = list(store.input_changes(scopes))
    counts[2] -= seed_writes
    key = (code_version(), config_digest(cfg, game_id), tuple(threads), tuple(others), tuple(counts))
    return hashlib.sha256(repr(key).encode("utf-8", "surrogatepass")).hexdigest()[:32]


_DIGESTS: dict[tuple[int, str], tuple[Any, str]] = {}  # (id(cfg), game) -> (cfg, digest): one per loaded config


def config_digest(cfg: Any, game_id: str) -> str:
    """A hash of the config parts a recount of `game_id` reads: the game, its site, the other
    games on that site (PM routing), the roles file's text. Computed once per loaded config."""
    memo = _DIGESTS.get((id(cfg), game_id))
    if memo is not None and memo[0] is cfg:
        return memo[1]
    game = cfg.games[game_id]
    others = {gid: g for gid, g in cfg.games.items() if gid != game_id and g.site == game.site}
    roles = _file_text(game.roles_file) if getattr(game, "roles_file", None) else ""
    data = canonical((game_id, game, cfg.sites.get(game.site), others, roles))
    digest = hashlib.sha256(repr(data).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    if len(_DIGESTS) > 64:  # a daemon reloading its config for weeks: keep the latest only
        _DIGESTS.clear()
    _DIGESTS[(id(cfg), game_id)] = (cfg, digest)
    return digest


def _file_text(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as e:  # the recount reports it; the mark only needs to differ from a readable file's
        return f"<unreadable: {e}>"


def canonical(obj: Any) -> Any:
    """`obj` as nested tuples of plain values, the same in every process (sets and mappings
    sorted, no object addresses): what `config_digest` hashes."""
    if obj is None or isinstance(obj, (bool, int, float, str, bytes)):
        return obj
    if isinstance(obj, (datetime, date, time)):
        return ("t", obj.isoformat(), str(getattr(obj, "tzinfo", None) or ""))
    if isinstance(obj, timedelta):
        return ("td", obj.total_seconds())
    if isinstance(obj, Enum):
        return ("enum", type(obj).__name__, canonical(obj.value))
    if isinstance(obj, Path):
        return ("path", str(obj))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (type(obj).__name__,) + tuple((f.name, canonical(getattr(obj, f.name))) for f in dataclasses.fields(obj))
    if isinstance(obj, Mapping):
        return ("map",) + tuple(sorted((repr(canonical(k)), canonical(v)) for k, v in obj.items()))
    if isinstance(obj, (set, frozenset)):
        return ("set",) + tuple(sorted(repr(canonical(x)) for x in obj))
    if isinstance(obj, (list, tuple)):
        return tuple(canonical(x) for x in obj)
    key = getattr(obj, "key", None)  # a ZoneInfo
    if isinstance(key, str):
        return (type(obj).__name__, key)
    return (type(obj).__name__, repr(obj))


@lru_cache(maxsize=1)
def code_version() -> str:
    """forummod's version and the size and modification time of each source and catalog file
    of the package and its bundled adapters and templates: what an analysis kept across
    processes is only reused with (a stat of some 250 files, about 2 ms; no file is read)."""
    import forummod
    from forummod.resources import bundled_dir

    tops: list[Any] = [Path(forummod.__file__).resolve().parent]
    for name in ("adapters", "templates"):
        try:
            tops.append(bundled_dir(name))
        except FileNotFoundError:
            pass
    return tree_digest(tops, getattr(forummod, "__version__", ""))


_KINDS = (".py", ".mo", ".po", ".toml", ".j2", ".json")


def tree_digest(tops: Iterable[Any], version: str = "") -> str:
    """A hash of the path, size and modification time of every code or data file under `tops`."""
    h = hashlib.sha256(version.encode())
    seen: list[Path] = []
    for top in tops:
        top = Path(top).resolve()
        if not top.is_dir() or any(top == q or q in top.parents for q in seen):
            continue
        seen.append(top)
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                if not f.endswith(_KINDS):
                    continue
                path = os.path.join(folder, f)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:24]
