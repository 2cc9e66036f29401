"""The forum engine names a config may use, read from the profile files alone.

Config validation needs the names, not the adapters: this module sits below `config` (it
imports nothing from `forummod.forum`), so the config layer never loads adapter code.
Engines are the profiles on the adapters search path (user folder first) plus "archive"
(local JSONL files); "auto" detects the engine of a base URL at run time.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Iterable, Mapping

from forummod.errors import ConfigError
from forummod.resources import bundled_dir, search_path

ARCHIVE = "archive"
_NAME = re.compile(r"[a-z][a-z0-9_-]*")


def profile_files(dirs: Iterable[Path]) -> list[Path]:
    """Profile files in search order (user folder first); `*.example.toml` are docs, not profiles."""
    out = []
    for d in dirs:
        if d.is_dir():
            out.extend(p for p in sorted(d.glob("*.toml")) if not p.name.endswith(".example.toml"))
    return out


def read_profile_table(path: Path) -> dict[str, Any]:
    """One profile file as a TOML table; ConfigError names the file when it is not TOML.

    Read once per process while the file is unchanged (same modification time and size):
    loading a config asks for every profile's name and markup, and a cron process would parse
    each file twice. The table is shared: callers only read it."""
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    hit = _TABLES.get(key)
    if hit is None:
        try:
            hit = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(str(path), f"not valid TOML: {e}") from None
        if len(_TABLES) >= 256:
            _TABLES.clear()
        _TABLES[key] = hit
    return hit


_TABLES: dict[tuple[str, int, int], dict[str, Any]] = {}


def profile_head(path: Path) -> dict[str, Any]:
    """The top-level keys of a bundled profile (its name, markup...), from the lines before its
    first table: config validation needs only these, and a cron `tally` would otherwise parse
    every shipped profile whole (a tenth of its process). A head that does not parse on its own
    (a table header inside a multi-line value) is read whole, so the keys are always TOML's.
    Files of the user's adapters folder are always read whole: their errors show at config load."""
    if path.parent != _bundled():
        return read_profile_table(path)
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    hit = _HEADS.get(key)
    if hit is None:
        text = path.read_text(encoding="utf-8")
        cut = _TABLE_LINE.search(text)
        try:
            hit = tomllib.loads(text if cut is None else text[:cut.start()])
        except tomllib.TOMLDecodeError:
            hit = read_profile_table(path)
        _HEADS[key] = hit
    return hit


_HEADS: dict[tuple[str, int, int], dict[str, Any]] = {}
_TABLE_LINE = re.compile(r"^\[", re.M)


def _bundled() -> Path | None:
    try:
        return bundled_dir("adapters")
    except FileNotFoundError:
        return None


def profile_name(data: Mapping[str, Any], where: str) -> str:
    """The engine name a profile table defines; ConfigError when it is missing or malformed."""
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"{where}: name", "a profile needs a lowercase name, e.g. name = \"phpbb\"")
    return name


def known_engines(user_adapters_dir: Path | None = None) -> set[str]:
    """Every engine name a site may configure (besides "auto")."""
    names = {profile_name(profile_head(p), str(p))
             for p in profile_files(search_path("adapters", user_adapters_dir))}
    return names | {ARCHIVE}


def is_known_engine(engine: str, user_adapters_dir: Path | None = None) -> bool:
    """`engine in known_engines(...)`, stopping at the first bundled profile of that name: a
    cron `tally` validating its one site reads no other bundled head. Every profile of the
    user's folder is still read (they come first; their errors show at config load)."""
    found = engine == ARCHIVE
    for p in profile_files(search_path("adapters", user_adapters_dir)):
        if found and p.parent == _bundled():
            return True
        if profile_name(profile_head(p), str(p)) == engine:
            found = True
    return found


def engine_reads_thread(engine: str, url: str, user_adapters_dir: Path | None = None) -> bool:
    """Does the profile of `engine` (any profile for "auto") read `url` as a thread address?

    The same `urls.thread` patterns the adapter matches, read from the profile files, so config
    validation can tell a relative thread path from a typo without loading adapter code. A
    profile earlier on the search path (the user's folder) hides a bundled one of its name."""
    seen: set[str] = set()
    for path in profile_files(search_path("adapters", user_adapters_dir)):
        data = read_profile_table(path)
        name = profile_name(data, str(path))
        if name in seen:
            continue
        seen.add(name)
        if engine not in ("auto", name):
            continue
        patterns = (data.get("urls") or {}).get("thread", ())
        for rx in [patterns] if isinstance(patterns, str) else patterns:
            try:
                if re.search(rx, url, re.IGNORECASE):
                    return True
            except re.error:
                continue  # a broken pattern is reported when the adapter is built
    return False


def engine_markups(user_adapters_dir: Path | None = None) -> dict[str, str]:
    """Engine name -> the markup its profile says the forum renders ("bbcode", "markdown"),
    for the config's warnings; the first folder defining a name wins, as for the profiles."""
    out: dict[str, str] = {}
    for p in profile_files(search_path("adapters", user_adapters_dir)):
        data = profile_head(p)
        out.setdefault(profile_name(data, str(p)), str(data.get("markup", "")))
    return out
