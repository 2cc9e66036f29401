"""Reading the donbot development corpus (``../shared/corpus/donbot``) as it lies on disk.

The folder holds one xz JSON Lines file of posts per thread, ``archive.txt`` (each game's
roster, replacement chains, roles, fates and notes) and ``transitions.tsv`` (the post numbers at
which each day ended). Everything is read at run time and nothing is copied: the corpus is
third-party data (its README has the provenance). This module only parses; deriving a GM's
config from it is `derive`'s job.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

# --------------------------------------------------------------------------- archive.txt

_FATE_PHASE = re.compile(r"(?i)\b(day|night|ngiht|d|n)\s*(\d+)\b")


@dataclass(frozen=True)
class Slot:
    """One seat of the archive: its accounts oldest first (the last holds it at the end), the role
    text and the fate ("lynched", "killed", "modkilled", "endgamed", "survived", "" when unread)
    with its phase ("D3", "N1"; "" when none)."""

    accounts: tuple[str, ...]
    role: str
    fate: str
    phase: str
    fate_text: str

    @property
    def name(self) -> str:
        return self.accounts[-1]


@dataclass(frozen=True)
class ArchiveGame:
    """One block of archive.txt."""

    thread: str
    number: str  # the game number (first run of digits of the title): transitions.tsv's key
    title: str
    moderators: tuple[str, ...]
    result: str
    notes: tuple[str, ...]  # the `; `-separated notes, as written
    slots: tuple[Slot, ...]

    def note_text(self) -> str:
        return "; ".join(self.notes)


def _fate(text: str) -> tuple[str, str]:
    """(fate, phase) of an archive fate field; donbot's spellings vary ("killed lynched day 3",
    "Suicided Day 1", "ngiht")."""
    low = text.lower()
    if "lynch" in low:
        fate = "lynched"
    elif "modkill" in low:
        fate = "modkilled"
    elif "endgame" in low:
        fate = "endgamed"
    elif any(w in low for w in ("kill", "shot", "suicid", "died", "dead", "vigged")):
        fate = "killed"
    elif "surviv" in low:
        fate = "survived"
    else:
        return "", ""
    m = _FATE_PHASE.search(text)
    phase = f"{m.group(1)[0].upper()}{int(m.group(2))}" if m and fate != "survived" else ""
    return fate, phase


def _slot(line: str) -> Slot:
    fields = [f.strip() for f in line.split(",")]
    names = [n.strip() for n in re.split(r"(?:^|\s)replaced(?:\s|$)", fields[0])]  # "replaced replaced X" occurs
    accounts = tuple(reversed([n for n in names if n]))
    fate, phase = _fate(fields[-1]) if len(fields) > 1 else ("", "")
    if fate:
        role = ", ".join(fields[1:-1])
        fate_text = fields[-1]
    else:
        role, fate_text = ", ".join(fields[1:]), ""
    return Slot(accounts, role, fate, phase, fate_text)


def parse_archive(text: str) -> dict[str, ArchiveGame]:
    """thread id -> its game, for every block of archive.txt."""
    games: dict[str, ArchiveGame] = {}
    for block in re.split(r"\n\s*\n\s*\n", text.strip()):
        lines = [ln.rstrip() for ln in block.strip().splitlines()]
        m = re.search(r"[?&]t=(\d+)", lines[0]) if lines else None
        if not m:
            continue
        title = lines[1].strip() if len(lines) > 1 else ""
        num = re.search(r"\d+", title)
        fields: dict[str, str] = {}
        slots: list[Slot] = []
        in_players = False
        for ln in lines[2:]:
            if ln.strip() == "Players":
                in_players = True
                continue
            if in_players:
                if ln.strip():
                    slots.append(_slot(ln.strip()))
            elif ": " in ln:
                k, v = ln.split(": ", 1)
                fields[k.strip()] = v.strip()
        mods = tuple(n.strip() for n in fields.get("Moderator", "").split(",") if n.strip())
        notes = tuple(n.strip() for n in fields.get("Notes", "").split(";") if n.strip())
        games[m.group(1)] = ArchiveGame(m.group(1), num.group(0) if num else "", title, mods,
                                        fields.get("Current Update", ""), notes, tuple(slots))
    return games


# --------------------------------------------------------------------------- transitions.tsv


def parse_transitions(text: str) -> dict[str, tuple[int | None, ...]]:
    """game number -> the post number ending day 1, day 2, ... (None where 'missing')."""
    out: dict[str, tuple[int | None, ...]] = {}
    for line in text.splitlines()[2:]:
        cells = line.split("\t")
        if not cells or not cells[0].strip():
            continue
        ends: list[int | None] = []
        for c in cells[1:]:
            c = c.strip()
            if c == "-" or c == "":
                break
            ends.append(int(c) if c.isdigit() else None)
        out[cells[0].strip()] = tuple(ends)
    return out


# --------------------------------------------------------------------------- posts


def read_posts(path: Path) -> list[dict[str, Any]]:
    """Every post record of one thread file, in thread order."""
    with lzma.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# --------------------------------------------------------------------------- the folder


@dataclass(frozen=True)
class Corpus:
    """The donbot folder: its games (those with a post file), transitions and split."""

    root: Path
    archive: dict[str, ArchiveGame]
    transitions: dict[str, tuple[int | None, ...]]

    @classmethod
    def open(cls, root: Path) -> "Corpus":
        return cls(root, parse_archive((root / "archive.txt").read_text(encoding="utf-8")),
                   parse_transitions((root / "transitions.tsv").read_text(encoding="utf-8")))

    def ids(self) -> list[str]:
        """Thread ids with a post file and an archive entry, in the order of ids.txt."""
        listed = (self.root / "ids.txt").read_text(encoding="utf-8").split()
        return [t for t in listed if (self.root / f"{t}.jsonl.xz").is_file() and t in self.archive]

    def posts(self, thread: str) -> list[dict[str, Any]]:
        return read_posts(self.root / f"{thread}.jsonl.xz")

    def day_ends(self, thread: str) -> tuple[int | None, ...]:
        return self.transitions.get(self.archive[thread].number, ())

    def games(self) -> Iterator[ArchiveGame]:
        for t in self.ids():
            yield self.archive[t]


def half_of(thread: str) -> str:
    """'tune' or 'check': a fixed split of the games by a hash of the thread id, so a fix
    developed on the tune half is measured on games it was not developed on."""
    return "tune" if int(hashlib.sha256(f"forummod-accuracy:{thread}".encode()).hexdigest(), 16) % 2 == 0 else "check"


SUBSET_SIZE = 30


def subset_of(ids: list[str], size: int = SUBSET_SIZE) -> list[str]:
    """The fixed games the test suite runs: the `size` games with the lowest
    sha256("forummod-accuracy-subset:<thread id>"), in ids.txt order — a sample of both halves
    and of every period and size, chosen by no result."""
    ranked = sorted(ids, key=lambda t: hashlib.sha256(f"forummod-accuracy-subset:{t}".encode()).hexdigest())
    chosen = set(ranked[:size])
    return [t for t in ids if t in chosen]
