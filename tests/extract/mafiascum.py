"""Reading the MafiaScum archive (../shared/corpus/mafia) for the real-data measurement.

Nothing is copied: post records, the game index (rosters, fates, notes) and the moderators'
vote counts are read from the corpus at test time. Ground truth is what each moderator
posted in their vote counts; the extractor is compared with it post by post.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import lxml.html

from forummod.extract import ExtractContext, extract_post
from forummod.extract.normalize import compact, fold
from forummod.model import NO_LYNCH, PlayerSlot, Post, PostVersion, Replacement, Roster, UnvoteIntent, VoteIntent

INDEX_FILE = "MAFIA-mafiascum-archive-game-index.txt"


@dataclass(frozen=True)
class IndexGame:
    """One game of the archive index: thread id, moderator, seats (oldest accounts first), fates, notes."""

    thread: str
    title: str
    moderator: str
    seats: tuple[tuple[str, ...], ...]  # accounts per seat, oldest first, current last
    fates: dict[str, tuple[str, int]] = field(default_factory=dict)  # current name -> ("lynched"/"killed"..., day/night number)
    notes: str = ""


def read_index(path: Path) -> dict[str, IndexGame]:
    games: dict[str, IndexGame] = {}
    for block in re.split(r"\n\s*\n(?=https?://)", path.read_text(encoding="utf-8")):
        lines = [ln.rstrip() for ln in block.strip().splitlines()]
        if not lines or "t=" not in lines[0]:
            continue
        thread = re.search(r"t=(\d+)", lines[0]).group(1)
        mod = next((ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("Moderator:")), "")
        notes = next((ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("Notes:")), "")
        seats: list[tuple[str, ...]] = []
        fates: dict[str, tuple[str, int]] = {}
        if "Players" in lines:
            for ln in lines[lines.index("Players") + 1:]:
                if not ln.strip():
                    break
                parts = [p.strip() for p in ln.split(",")]
                accounts = tuple(reversed([a.strip() for a in parts[0].split(" replaced ")]))
                seats.append(accounts)
                m = re.search(r"(lynched|killed|endgamed|modkilled|died)\w*\s+(day|night)\s+(\d+)", ln, re.I)
                if m:
                    fates[accounts[-1]] = (f"{m.group(1).lower()} {m.group(2).lower()}", int(m.group(3)))
        games[thread] = IndexGame(thread, lines[1] if len(lines) > 1 else "", mod, tuple(seats), fates, notes)
    return games


def roster_of(game: IndexGame) -> Roster:
    return Roster(
        tuple(PlayerSlot(accts[-1], replacements=tuple(Replacement(a) for a in accts[:-1])) for accts in game.seats),
        (game.moderator,),
    )


def dead_before_day(game: IndexGame, day: int) -> set[str]:
    """Seats dead when day `day` starts (MafiaScum: Day N, then Night N)."""
    return {name for name, (how, n) in game.fates.items()
            if (how.endswith("day") and n < day) or (how.endswith("night") and n < day)}


def read_posts(path: Path, thread: str) -> list[Post]:
    posts = []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        at = datetime.strptime(r["time"], "%a %b %d, %Y %I:%M %p").replace(tzinfo=timezone.utc)
        html = r["content"]
        v = PostVersion(1, html, hashlib.sha256(html.encode()).hexdigest(), at)
        posts.append(Post("mafiascum", thread, r["id"], r["user"], at, (v,), number=r["number"],
                          author_id=r.get("user_id")))
    return sorted(posts, key=lambda p: p.number)


# --------------------------------------------------------------------------- moderators' counts

_COUNT_LINE = re.compile(r"^\s*(?:L-\d+\s+)?(?P<target>[^:\n]+?)\s+-\s*(?P<n>\d+)\s*-\s*(?P<voters>[^:]*)$")


def account_map(roster: Roster) -> dict[str, str]:
    """Compact folded account name -> seat name (how moderators spell names varies: "id DTMaster")."""
    out = {}
    for slot in roster.players:
        for acct in slot.all_accounts:
            out[compact(fold(acct))] = slot.name
    return out


def moderator_count(html: str, accounts: dict[str, str]) -> dict[str, str] | None:
    """voter seat -> target seat (or NO_LYNCH) from a vote-count post; None when it is not one."""
    text = lxml.html.fragment_fromstring(html, create_parent="div").text_content()
    votes: dict[str, str] = {}
    found = False
    for line in text.splitlines():
        m = _COUNT_LINE.match(line)
        if not m:
            continue
        found = True
        target = _seat(m.group("target"), accounts)
        for voter in re.split(r"[,;]", m.group("voters")):
            if voter.strip():
                votes[_seat(voter, accounts)] = target
    return votes if found else None


def _seat(name: str, accounts: dict[str, str]) -> str:
    key = compact(fold(name))
    if key in ("nolynch", "nl"):
        return NO_LYNCH
    if key not in accounts:
        raise ValueError(f"moderator count names {name!r}, not in the index roster")
    return accounts[key]


# --------------------------------------------------------------------------- the comparison


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    counts: int = 0
    changed: int = 0  # votes the moderator's count shows as new since their previous count that day
    changed_ok: int = 0  # ... of which the extractor had right
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def measure(posts: list[Post], game: IndexGame, day_starts: dict[int, int]) -> Score:
    """Compare every moderator vote count with the extractor's standing votes at that post.

    Standing votes are replayed from the intents of the same day's earlier posts the way
    the engine applies them: a later vote replaces, an unvote withdraws, votes by or for
    dead seats are rejected (the earlier vote stands).
    """
    roster = roster_of(game)
    ctx = ExtractContext("mafia-majority", "en", roster)
    accounts = account_map(roster)
    starts = sorted(day_starts.items())
    score = Score()
    for i, (day, first) in enumerate(starts):
        last = starts[i + 1][1] if i + 1 < len(starts) else 10 ** 9
        dead = dead_before_day(game, day)
        standing: dict[str, str] = {}
        previous: dict[str, str] = {}
        for post in (p for p in posts if first <= p.number < last):
            if roster.is_gm(post.author):
                truth = moderator_count(post.html, accounts)
                if truth is not None:
                    _compare(truth, standing, score, f"D{day} #{post.number}")
                    new = {v: t for v, t in truth.items() if previous.get(v) != t}
                    score.changed += len(new)
                    score.changed_ok += sum(1 for v, t in new.items() if standing.get(v) == t)
                    previous = truth
                continue
            for it in extract_post(post, ctx).intents:
                if it.voter in dead:
                    continue
                if isinstance(it, VoteIntent) and (it.target == NO_LYNCH or it.target not in dead):
                    standing[it.voter] = it.target
                elif isinstance(it, UnvoteIntent) and (it.target is None or standing.get(it.voter) == it.target):
                    standing.pop(it.voter, None)
    return score


def _compare(truth: dict[str, str], mine: dict[str, str], score: Score, where: str) -> None:
    score.counts += 1
    for voter, target in mine.items():
        if truth.get(voter) == target:
            score.tp += 1
        else:
            score.fp += 1
            score.misses.append(f"{where}: extra {voter}->{target} (moderator: {truth.get(voter, 'not voting')})")
    for voter, target in truth.items():
        if mine.get(voter) != target:
            score.fn += 1
            if voter not in mine:
                score.misses.append(f"{where}: missed {voter}->{target}")
