"""Replaying real MafiaScum games offline: corpus records -> archive JSONL + a forummod config.

The corpus (``../shared/corpus/mafia/``) holds each game as the posts of its phpBB thread, one
JSON object a line: ``number``, ``id``, ``user``, ``user_id``, ``content`` (the post's HTML as
the board rendered it) and ``time`` ("Fri Jul 20, 2012 5:47 pm", the board's display time).
`write_game` turns them into forummod's archive format (``forum/archive.py``) in a temporary
folder — the corpus is read, never copied into the repository — and writes the game's config
from a `GameSpec` (the writer is `benchmarks.accuracy.gameconfig`, shared with the accuracy
harness): roster with replacements, roles, ruleset
options, a phase pin for every day and night, and the GM events the posts alone cannot produce
(night kills, endgame kills). `replay` runs the real command line, ``forummod replay CONFIG
--json --approve-all --memory``, and returns its JSON. `read_index` reads a game's entry of the
archive's index (the ground truth: who was lynched and killed when, the winner).

Board time. The posts carry the board's wall-clock time without a zone. The moderator of
Mini 1360 set deadlines with the countdown tag, which holds a UTC instant (it shows
"expired on 2012-08-08 16:04:00"): "12 days from this post", posted Fri Jul 27, 2012 9:02 am,
counts down to 2012-08-08 16:04; posted Mon Jul 30, 2012 6:10 pm, to 2012-08-12 01:10; "60 hrs"
from Tue Jul 24 10:07 am, to 2012-07-27 05:04. So the board shows UTC-7 in summer: US Pacific
time, taken for both games (read as UTC instead, every instant shifts alike). Each game lies
inside one daylight-saving period (Jul-Aug 2012; Dec 2010-Feb 2011) and every phase is pinned
to post numbers, so the zone changes no result; it only makes the ISO times true.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from benchmarks.accuracy import gameconfig
from benchmarks.accuracy.gameconfig import THREAD, GameSpec, GmEvent, Pin, Seat, config_toml  # noqa: F401

BOARD_TZ = ZoneInfo("America/Los_Angeles")


def read_corpus(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_game(spec: GameSpec, corpus_dir: Path, workdir: Path) -> Path:
    """Archive + config for one game in `workdir`; returns the config file."""
    return gameconfig.write_game(spec, read_corpus(corpus_dir / "mafia" / spec.corpus_file), workdir)


def replay(config: Path) -> dict[str, Any]:
    """`forummod replay CONFIG --json --approve-all --memory` through the real CLI; its JSON."""
    from forummod.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", str(config), "--json", "--approve-all", "--memory"])
    if code != 0:
        raise AssertionError(f"forummod replay exited {code}: {err.getvalue()}")
    return json.loads(out.getvalue())


# --------------------------------------------------------------------------- the archive's index

INDEX_FILE = "MAFIA-mafiascum-archive-game-index.txt"
_FATE = re.compile(r"(?i)^(lynched|killed|endgamed|modkilled)\s+(day|night)\s+(\d+)$")


@dataclass(frozen=True)
class IndexPlayer:
    """One line of a game's player list in the index: 'Antihero replaced Lateralus22 replaced
    caelum, Mafia Goon, lynched Day 4' -> name, replaced (oldest first), role text, fate."""

    name: str
    replaced: tuple[str, ...]
    role: str
    fate: str  # lynched, killed, endgamed, modkilled, survived
    phase: str | None  # "D4", "N1"; None for survivors

    @property
    def faction(self) -> str:
        return "mafia" if self.role.lower().startswith("mafia") else "town"


@dataclass(frozen=True)
class IndexGame:
    title: str
    moderator: str
    result: str  # "town" / "mafia", from "Current Update: Town Win"
    notes: str
    players: tuple[IndexPlayer, ...]

    def player(self, name: str) -> IndexPlayer:
        return next(p for p in self.players if p.name == name)


def index_entry(index_text: str, thread: int) -> IndexGame:
    """The index's entry for the game whose thread id is `thread`."""
    blocks = re.split(r"\n(?=https?://)", index_text)
    block = next(b for b in blocks if re.match(rf"https?://\S*[?&]t={thread}\s", b))
    lines = block.splitlines()
    fields = dict(line.split(": ", 1) for line in lines[2:] if ": " in line and not line.startswith("Players"))
    players = []
    for line in lines[lines.index("Players") + 1:]:
        if not line.strip():
            break
        who, role, fate = (x.strip() for x in (line.split(",", 1)[0], *line.split(",", 1)[1].rsplit(",", 1)))
        name, *replaced = [n.strip() for n in who.split(" replaced ")]
        m = _FATE.match(fate)
        if m:
            players.append(IndexPlayer(name, tuple(reversed(replaced)), role, m.group(1).lower(),
                                       f"{m.group(2)[0].upper()}{m.group(3)}"))
        else:
            players.append(IndexPlayer(name, tuple(reversed(replaced)), role, fate.lower(), None))
    update = fields.get("Current Update", "").lower()
    result = "mafia" if "mafia win" in update else "town" if "town win" in update else update
    return IndexGame(lines[1].strip(), fields.get("Moderator", ""), result, fields.get("Notes", ""), tuple(players))


def read_index(corpus_dir: Path, thread: int) -> IndexGame:
    return index_entry((corpus_dir / "mafia" / INDEX_FILE).read_text(encoding="utf-8"), thread)


# --------------------------------------------------------------------------- reading the result


def deaths(status: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Dead player -> (phase, cause) from `status --json`."""
    return {d["player"]: (d["phase"], d["cause"]) for d in status["dead"]}


def lynches(status: Mapping[str, Any]) -> dict[str, str]:
    """Day -> the lynched player, from the approved lynch proposals."""
    out = {}
    for p in status["decided"]:
        if p["key"].startswith("lynch:") and p["status"] == "approved" and p["summary"].startswith("lynch "):
            out[p["key"].split(":", 1)[1]] = p["summary"][len("lynch "):]
    return out
