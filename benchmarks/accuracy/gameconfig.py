"""A game as a GM writes it (`GameSpec`) and its two files: archive JSON Lines and a config.

Shared by the accuracy harness (configs derived from the donbot archive) and the replay tests
(`tests/replay/donbot.py`, configs written by hand): one writer, so a new config key (a vote
weight, a ruleset option) is added in one place. The posts of a corpus thread become archive
lines (`forum/archive.py` fields) in a temporary folder; the corpus is never copied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Mapping
from zoneinfo import ZoneInfo

BOARD_TIME = "%a %b %d, %Y %I:%M %p"  # phpBB's display time: "Fri Jul 20, 2012 5:47 pm"
THREAD = "game"


def board_time(text: str, tz: ZoneInfo) -> datetime:
    """A phpBB display time (no zone on the page) as an aware datetime in the board's zone."""
    return datetime.strptime(text, BOARD_TIME).replace(tzinfo=tz)


def archive_record(rec: Mapping[str, Any], tz: ZoneInfo) -> dict[str, Any]:
    """One corpus post as one archive line (fields of `forummod.forum.archive`)."""
    return {
        "id": str(rec["id"]),
        "number": int(rec["number"]),
        "author": rec["user"],
        "author_id": str(rec["user_id"]),
        "created_at": board_time(rec["time"], tz).isoformat(),
        "html": rec["content"],
        "thread": THREAD,
    }


def write_archive(records: Iterable[Mapping[str, Any]], dest: Path, tz: ZoneInfo) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    with dest.open("w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(archive_record(rec, tz), ensure_ascii=False) + "\n")
    return dest


# --------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class Seat:
    """One seat: its last occupant, the role (a mafia-majority role id, or "" when the GM does
    not tell forummod), who held it before (each with the post where the replacement took
    effect), the names players knew its accounts by when the forum now shows another (renamed
    accounts), the holder's forum user id, and its vote weight (1 = an ordinary vote)."""

    name: str
    role: str = ""
    replaces: tuple[tuple[str, int], ...] = ()  # (previous player, at_post), oldest first
    aliases: tuple[str, ...] = ()
    user_id: str = ""
    votes: int = 1


@dataclass(frozen=True)
class Pin:
    """A phase from the first post that belongs to it to the GM's post that closed it.

    `start` is the post after the GM's post that opened the phase (the day-start, lynch or
    dawn post), so that post — and any GM event entered at it — falls in the phase it closes.
    """

    name: str
    start: int
    end: int | None


@dataclass(frozen=True)
class GmEvent:
    kind: str
    at_post: int
    player: str
    cause: str = ""
    note: str = ""


@dataclass(frozen=True)
class GameSpec:
    game_id: str
    corpus_file: str
    gm: str | tuple[str, ...]
    seats: tuple[Seat, ...]
    phases: tuple[Pin, ...]
    events: tuple[GmEvent, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    title: str = ""
    timezone: str = "America/Los_Angeles"

    @property
    def gms(self) -> tuple[str, ...]:
        return (self.gm,) if isinstance(self.gm, str) else tuple(self.gm)


def _q(s: str) -> str:
    """A TOML basic string (JSON's escapes are a subset of TOML's)."""
    return json.dumps(s, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    return _q(str(v))


def seat_weights_supported() -> bool:
    """Whether this forummod reads a per-seat vote weight (`players[].votes`); until it does,
    a double voter is written as an ordinary seat (the harness reports it as a limitation)."""
    from forummod.config import PlayerConfig

    return "votes" in getattr(PlayerConfig, "__dataclass_fields__", {})


def _seat_line(s: Seat, weights: bool) -> str:
    parts = [f"name = {_q(s.name)}"]
    if s.role:
        parts.append(f"role = {_q(s.role)}")
    if s.user_id:
        parts.append(f"user_id = {_q(s.user_id)}")
    if s.aliases:
        parts.append("aliases = [" + ", ".join(_q(a) for a in s.aliases) + "]")
    if s.votes != 1 and weights:
        parts.append(f"votes = {s.votes}")
    if s.replaces:
        parts.append("replaces = [" + ", ".join(f"{{ name = {_q(n)}, at_post = {p} }}" for n, p in s.replaces) + "]")
    return "  { " + ", ".join(parts) + " },"


def config_toml(spec: GameSpec, posts_file: Path, store: Path | str) -> str:
    g = f"games.{spec.game_id}"
    out = [
        "[workspace]",
        f"store = {_q(str(store))}",
        "",
        "[sites.mafiascum]",
        'engine = "archive"',
        f"posts_file = {_q(str(posts_file))}",
        f"timezone = {_q(spec.timezone)}",
        "",
        f"[{g}]",
        'site = "mafiascum"',
        f"thread = {_q(THREAD)}",
        'ruleset = "mafia-majority"',
        f"title = {_q(spec.title or spec.game_id)}",
        f"timezone = {_q(spec.timezone)}",
        "gm = [" + ", ".join(_q(n) for n in spec.gms) + "]",
        "seed = 1",
        "players = [",
    ]
    weights = any(s.votes != 1 for s in spec.seats) and seat_weights_supported()
    out += [_seat_line(s, weights) for s in spec.seats]
    out.append("]")
    out += ["", f"[{g}.options]"] + [f"{k} = {_value(v)}" for k, v in spec.options.items()]
    for p in spec.phases:
        out += ["", f"[[{g}.phases]]", f"name = {_q(p.name)}", f"start_post = {p.start}"]
        if p.end is not None:
            out.append(f"end_post = {p.end}")
    for e in spec.events:
        out += ["", f"[[{g}.events]]", f"kind = {_q(e.kind)}", f"at_post = {e.at_post}", f"player = {_q(e.player)}"]
        if e.cause:
            out.append(f"cause = {_q(e.cause)}")
        if e.note:
            out.append(f"note = {_q(e.note)}")
    return "\n".join(out) + "\n"


def write_game(spec: GameSpec, records: Iterable[Mapping[str, Any]], workdir: Path,
               store: Path | str | None = None) -> Path:
    """Archive + config for one game in `workdir`; returns the config file."""
    posts = write_archive(records, workdir / f"{spec.game_id}.posts.jsonl", ZoneInfo(spec.timezone))
    cfg = workdir / f"{spec.game_id}.toml"
    cfg.write_text(config_toml(spec, posts, store if store is not None else workdir / "store.sqlite"),
                   encoding="utf-8")
    return cfg
