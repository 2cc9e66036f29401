"""Turn plain TOML data into frozen dataclasses, with errors that name the key path.

A config section is a frozen dataclass whose fields carry `doc` metadata (the one-line
comment of `config.example.toml`). `load(cls, data, path)` checks types, fills defaults and
reports the first problem as `ConfigError("games.g1.rulset", "unknown key; did you mean
'ruleset'?")`. Ruleset options use the same loader, so every option gets the same care.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import re
import types
import typing
from dataclasses import MISSING, Field, dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from forummod.errors import ConfigError
from forummod.records import frozen


class SettingError(ValueError):
    """A `__post_init__` check that failed on one key: the loader reports it at that key's
    path (`sites.forum.retries`), not at the table's, so the GM sees which line to change."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


def setting(default: Any = MISSING, doc: str = "", *, required: bool = False, **meta: Any) -> Any:
    """A dataclass field with a one-line doc; tuples and dicts defaults are made safely."""
    md = {"doc": doc, "required": required, **meta}
    if isinstance(default, (list, dict)):
        raise TypeError("use tuple or types.MappingProxyType defaults for frozen config")
    if default is MISSING:
        return field(metadata=md)
    if isinstance(default, types.MappingProxyType):
        return field(default_factory=lambda: default, metadata=md)
    return field(default=default, metadata=md)


# --------------------------------------------------------------------------- value types


@dataclass(frozen=True, order=True)
class Duration:
    """A length of time written like "90s", "45m", "24h", "2d" or "1h30m"."""

    seconds: int

    _RX = re.compile(r"(\d+)\s*([dhms])")

    @classmethod
    def parse(cls, text: str) -> "Duration":
        s = text.strip().lower().replace(" ", "")
        if not s or cls._RX.sub("", s):
            raise ValueError(f"{text!r} is not a duration like '90s', '45m', '24h', '2d' or '1h30m'")
        mult = {"d": 86400, "h": 3600, "m": 60, "s": 1}
        return cls(sum(int(n) * mult[u] for n, u in cls._RX.findall(s)))

    @property
    def td(self) -> timedelta:
        return timedelta(seconds=self.seconds)

    def __str__(self) -> str:
        rest, out = self.seconds, ""
        for unit, size in (("h", 3600), ("m", 60), ("s", 1)):  # "48h" reads better than "2d"
            if rest >= size:
                out += f"{rest // size}{unit}"
                rest %= size
        return out or "0s"


@frozen
class ClockOrDuration:
    """A deadline written either as a local clock time ("22:00") or as an offset ("48h")."""

    clock: time | None = None
    offset: Duration | None = None

    @classmethod
    def parse(cls, text: str) -> "ClockOrDuration":
        s = text.strip()
        m = re.fullmatch(r"(\d{1,2}):(\d{2})", s)
        if m:
            h, mi = int(m.group(1)), int(m.group(2))
            if h > 23 or mi > 59:
                raise ValueError(f"{text!r} is not a valid clock time")
            return cls(clock=time(h, mi))
        return cls(offset=Duration.parse(s))

    def __str__(self) -> str:
        return self.clock.strftime("%H:%M") if self.clock else str(self.offset)


_ZONES: frozenset[str] | None = None


def parse_timezone(name: str) -> ZoneInfo:
    global _ZONES
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, IsADirectoryError):
        if _ZONES is None:
            _ZONES = frozenset(available_timezones())
        import difflib  # only for a mistyped name: a valid config never loads it

        hint = difflib.get_close_matches(name, sorted(_ZONES), n=1, cutoff=0.6)
        suffix = f"; did you mean {hint[0]!r}?" if hint else " (use an IANA name like 'Europe/Rome')"
        raise ValueError(f"unknown timezone {name!r}{suffix}") from None


def parse_datetime(value: Any, tz: ZoneInfo | None = None) -> datetime:
    """An aware datetime from TOML (native datetime or ISO string); naive ones take `tz`."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"{value!r} is not an ISO 8601 date-time like 2026-12-01T21:00:00+01:00") from None
    elif isinstance(value, date):
        dt = datetime(value.year, value.month, value.day)
    else:
        raise ValueError(f"expected a date-time, got {type(value).__name__}")
    if dt.tzinfo is None:
        if tz is None:
            raise ValueError(f"{value!r} has no UTC offset; add one (e.g. +01:00)")
        dt = dt.replace(tzinfo=tz)
    return dt.astimezone(timezone.utc)


# --------------------------------------------------------------------------- loader


def _did_you_mean(key: str, valid: typing.Iterable[str]) -> str:
    import difflib  # only for a mistyped name: a valid config never loads it

    hint = difflib.get_close_matches(key, list(valid), n=1, cutoff=0.6)
    return f"; did you mean {hint[0]!r}?" if hint else ""


def _type_name(tp: Any) -> str:
    origin = get_origin(tp)
    if tp is str:
        return "a string"
    if tp is bool:
        return "true or false"
    if tp is int:
        return "an integer"
    if tp is float:
        return "a number"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin is tuple:
        return "a list"
    if origin in (dict, collections.abc.Mapping):
        return "a table"
    if dataclasses.is_dataclass(tp):
        return "a table"
    return getattr(tp, "__name__", str(tp))


def convert(tp: Any, value: Any, path: str) -> Any:
    """Convert one TOML value to the annotated type, or raise ConfigError at `path`."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if value is None or (value == "" and type(None) in get_args(tp)):
            return None  # TOML has no null: an empty string means "not set"

        last: ConfigError | None = None
        for a in args:
            try:
                return convert(a, value, path)
            except ConfigError as e:
                last = e
        assert last is not None
        raise last
    if tp is Any:
        return value
    if origin is Literal:
        allowed = get_args(tp)
        if value not in allowed:
            raise ConfigError(
                path,
                f"{value!r} is not allowed; use one of {', '.join(repr(a) for a in allowed)}"
                + (_did_you_mean(value, [str(a) for a in allowed]) if isinstance(value, str) else ""),
            )
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(path, f"expected true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(path, f"expected an integer, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(path, f"expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(path, f"expected a string, got {value!r}")
        return value
    if tp is Path:
        if not isinstance(value, str):
            raise ConfigError(path, f"expected a file path string, got {value!r}")
        return Path(value).expanduser()
    if tp is Duration:
        try:
            return Duration.parse(str(value)) if not isinstance(value, bool) else None
        except ValueError as e:
            raise ConfigError(path, str(e)) from None
    if tp is ClockOrDuration:
        try:
            return ClockOrDuration.parse(str(value))
        except ValueError as e:
            raise ConfigError(path, str(e)) from None
    if tp is datetime:
        try:
            return parse_datetime(value)
        except ValueError as e:
            raise ConfigError(path, str(e)) from None
    if tp is ZoneInfo:
        try:
            return parse_timezone(str(value))
        except ValueError as e:
            raise ConfigError(path, str(e)) from None
    if origin is tuple:
        args = get_args(tp)
        if isinstance(value, str) and args and args[0] is str:
            value = [value]  # a lone string is a one-item list: friendlier for aliases
        if not isinstance(value, list):
            raise ConfigError(path, f"expected a list, got {value!r}")
        item_tp = args[0] if args else Any
        return tuple(convert(item_tp, v, f"{path}[{i}]") for i, v in enumerate(value))
    if origin in (dict, collections.abc.Mapping) or tp is dict:
        args = get_args(tp) or (str, Any)
        if not isinstance(value, dict):
            raise ConfigError(path, f"expected a table, got {value!r}")
        return types.MappingProxyType(
            {k: convert(args[1], v, f"{path}.{k}") for k, v in value.items()}
        )
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise ConfigError(path, f"expected a table, got {value!r}")
        return load(tp, value, path)
    raise TypeError(f"schema type {tp!r} not supported at {path}")


def fields_of(cls: type) -> list[Field]:
    return [f for f in dataclasses.fields(cls) if not f.name.startswith("_")]


#: Each schema class's evaluated annotations: a config loads a table of the same class many
#: times (every player), and evaluating them compiles every annotation string again.
_HINTS: dict[type, dict[str, Any]] = {}


def _hints_of(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def load(cls: type, data: dict, path: str = "") -> Any:
    """Build `cls` from a TOML table; unknown keys and wrong types fail with the key path."""
    hints = _hints_of(cls)
    known = {f.name: f for f in fields_of(cls)}
    for key in data:
        if key not in known:
            raise ConfigError(_join(path, key), "unknown key" + _did_you_mean(key, known))
    kwargs = {}
    for name, f in known.items():
        sub = _join(path, name)
        if name in data:
            kwargs[name] = convert(hints[name], data[name], sub)
        elif f.metadata.get("required") or (f.default is MISSING and f.default_factory is MISSING):
            raise ConfigError(sub, "missing required key" + (f" ({f.metadata['doc']})" if f.metadata.get("doc") else ""))
    try:
        obj = cls(**kwargs)
    except SettingError as e:  # __post_init__ validation of one key
        raise ConfigError(_join(path, e.key), str(e)) from None
    except ValueError as e:  # __post_init__ validation across keys
        raise ConfigError(path, str(e)) from None
    return obj


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def defaults_of(cls: type) -> dict[str, Any]:
    """Field name -> default value, for documentation and the example-config sync test."""
    out = {}
    for f in fields_of(cls):
        if f.default is not MISSING:
            out[f.name] = f.default
        elif f.default_factory is not MISSING:  # type: ignore[misc]
            out[f.name] = f.default_factory()  # type: ignore[misc]
    return out


def to_toml_value(v: Any) -> str:
    """Render a default the way config.example.toml writes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (Duration, ClockOrDuration)):
        return f'"{v}"'
    if isinstance(v, Path):
        return f'"{v}"'
    if v is None:
        return '""'
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, tuple):
        return "[" + ", ".join(to_toml_value(x) for x in v) + "]"
    if isinstance(v, (dict, types.MappingProxyType)):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{k} = {to_toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, ZoneInfo):
        return f'"{v.key}"'
    return f'"{v}"'
