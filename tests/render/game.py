"""A small mafia-majority game on the archive engine, for drafting, publishing and preview tests.

Eight players, two with hostile names (`[b]Gus[/b]` and `<script>alert(1)</script>`), day 1
played out by posts; tests pick `now` and add posts, PMs and GM decisions as they need.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from forummod.config import load_config
from forummod.service import Workspace, poll_game

UTC = timezone.utc
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)  # D1 starts; 48 h days, 12 h nights
GUS = "[b]Gus[/b]"
XSS = "<script>alert(1)</script>"
ROLES = {"Ann": "mafia", "Bob": "town", "Cat": "cop", "Dan": "doctor", "Eve": "town", "Fay": "mafia",
         GUS: "town", XSS: "town"}


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


D1_VOTES = (("Bob", "Ann", 1), ("Cat", "Ann", 2), (GUS, "Bob", 3), ("Dan", "Ann", 4), ("Eve", "Ann", 5))


@dataclass
class ArchiveGame:
    """Files of an archive game; `workspace()` opens it with a clock you control."""

    root: Path
    posts: list[dict] = field(default_factory=list)
    pms: list[dict] = field(default_factory=list)
    options: str = ""
    publish: str = ""
    language: str = "en"
    markup: str = "bbcode"
    now: datetime = T0

    def post(self, author: str, hours: float, bbcode: str) -> "ArchiveGame":
        n = len(self.posts) + 1
        self.posts.append({"id": n, "number": n, "author": author, "created_at": at(hours).isoformat(),
                           "bbcode": bbcode, "url": f"https://forum.example/viewtopic.php?p={n}#p{n}"})
        return self

    def vote(self, voter: str, target: str, hours: float) -> "ArchiveGame":
        return self.post(voter, hours, f"I think so.\n\n[b]Vote: {target}[/b]")

    def pm(self, sender: str, hours: float, body: str) -> "ArchiveGame":
        self.pms.append({"id": f"m{len(self.pms) + 1}", "from": sender, "to": "Mod", "subject": "night",
                         "created_at": at(hours).isoformat(), "body": body})
        return self

    def write(self) -> Path:
        (self.root / "posts.jsonl").write_text("".join(json.dumps(p) + "\n" for p in self.posts), encoding="utf-8")
        (self.root / "pms.jsonl").write_text("".join(json.dumps(p) + "\n" for p in self.pms), encoding="utf-8")
        players = ", ".join(f"{{ name = {json.dumps(n)}, role = {json.dumps(r)} }}" for n, r in ROLES.items())
        cfg = f"""
[workspace]
store = "store.sqlite"
lock_wait = "1s"

[sites.f]
engine = "archive"
posts_file = "posts.jsonl"
messages_file = "pms.jsonl"
username = "Mod"

[games.g]
site = "f"
thread = "game"
ruleset = "mafia-majority"
title = "Test Town"
language = "{self.language}"
markup = "{self.markup}"
timezone = "Europe/Rome"
gm = ["Mod"]
players = [{players}]

[games.g.schedule]
start = "{T0.isoformat()}"
first_phase = "day"
vote_close = "48h"
day_end = "48h"
action_deadline = "12h"
night_end = "12h"
{self.options}
{self.publish}
"""
        path = self.root / "forummod.toml"
        path.write_text(cfg, encoding="utf-8")
        return path

    def workspace(self, poll: bool = True) -> Workspace:
        """The game's workspace (archive posts and PMs polled into its store)."""
        ws = Workspace(load_config(self.write()), clock=lambda: self.now)
        if poll:
            poll_game(ws, "g")
        return ws


def day_one(root: Path, **kw) -> ArchiveGame:
    """D1 with Ann on four votes (L-1 of five), Gus on Bob."""
    g = ArchiveGame(root, **kw)
    g.post("Mod", 0, "[b]Day 1[/b] begins. Vote with [b]Vote: name[/b].")
    for voter, target, h in D1_VOTES:
        g.vote(voter, target, h)
    return g
