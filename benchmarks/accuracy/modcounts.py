"""Moderators' vote counts, found and read by form, not by game.

A vote-count post is a moderator's post with a vote-count header ("Vote Count", "Votecount",
"VC 2.3", "Vote Tally") or at least two wagon lines. Wagon lines take the forms moderators use:

    AGar - 2 (Reckamonic, Thor665)          Name - N (voters)
    Trivium (6)- Garmr, grayfoxxxx          Name (N) - voters / Name (N): voters / Name [N]: voters
    (3) Whiskers: Friend, Substrike22       (N) Name: voters
    Name - 3 - a, b, c                      Name - N - voters
    FireScreamer - Pants98, Transcend (L-3)  Name - voters
    Necro (2/7): Tchill13, lovelife          Name (N/majority): voters
    WhemeStar [L-2] ChaosOmega, ECMitchell   Name [L-n] voters
    Terata [LYNCHED] I am Innocent, Fitz     Name [a short word] voters
    wierdalexv     2  Gerhard Krause, ...    columns
    rb: Robbnva  /  Human Destroyer: a, b [L-3]   Name: voters (no count)
    Not Voting (4)- a, b  /  Not voting: a, b     nobody voted by these

Trailing "[L-3]", "(L-2)", "L-1" marks, parenthesised notes on a voter ("(post 45)") and the
header glued to the first wagon ("Day 1 VotecountRobbnva (3): ...") are read past; a voter
note saying the vote was withdrawn ("(unvoted)") drops that voter, as struck-through text is
dropped (`text.post_lines`). Names are resolved against the game's seats by `SeatNames`
(exact key, a unique start of three letters or more, then one clearly closest name:
moderators abbreviate and misspell too); a line whose target is
no seat, "no lynch" or "not voting" ("Deadline: ...", "Deadline Extension - 3 (...)") is not a
wagon of the count.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from benchmarks.accuracy.text import key, post_lines

NO_LYNCH = "__no_lynch__"
NOT_VOTING = "__not_voting__"

_HEADER = re.compile(r"(?i)(vote\s*-?\s*counts?|votecounts?|vote\s*tally|votals?|\bVC\b)")
_HEADER_PREFIX = re.compile(r"(?i)^.{0,60}?(?:vote\s*-?\s*count|votecount|vote\s*tally|votals|\bVC\b)"
                            r"(?:\s*(?:#\s*)?\d+(?:\.\d+)?)?(?:\s*\([^()]{0,20}\))?\s*[:\-]?\s*")
_N = r"(?P<n>\d{1,2})(?:\s*/\s*\d{1,2})?"
_T = r"(?P<target>[^\n:()\[\]]{1,60}?)"
_FORMS = (
    re.compile(rf"^{_T}\s+{_N}\s+votes?\b\s*[:\-–—]?\s*(?P<voters>.*)$"),  # Arugula  6 votes [Agar] [Oman]
    re.compile(rf"^[(\[]{_N}[)\]]\s*{_T}\s*[:\-–—]\s*(?P<voters>.*)$"),  # (3) Name: a, b
    re.compile(rf"^{_T}\s*[(\[](?:{_N}|L\s*[-~]\s*\d+[^)\]]*|[A-Za-z][A-Za-z !]{{1,15}})(?:\s*votes?)?[)\]]\s*[:\-–—]?\s*(?P<voters>.*)$"),  # Name (3) - a, b / Name (L-5): a
    re.compile(rf"^{_T}\s*[-–—:]\s*[\[(]{_N}[\])]\s*(?P<voters>.*)$"),  # Name - [2] a, b
    re.compile(rf"^{_T}\s*[-–—:]\s*{_N}\s*(?:votes?)?\s*[-–—:]?\s*(?P<voters>.*)$"),  # Name - 3 (a, b) / Name - 3 - a
    re.compile(rf"^{_T}\s*:\s*(?P<voters>.+)$"),  # Name: a, b
    re.compile(rf"^{_T}\s+[-–—]\s+(?P<voters>.+)$"),  # Name - a, b (L-3)
    re.compile(rf"^{_T}\s{{2,}}{_N}\s{{2,}}(?P<voters>.+)$"),  # Name      2  a, b   (columns)
)
_MARK = re.compile(r"(?i)\s*[\[(]?\s*(?:L\s*[-~]\s*\d+\W*|lynched|hammered?|majority)\s*[\])]?\s*[.!]*$")
_LEAD_MARK = re.compile(r"(?i)^\s*(?:[\[(](?!\s*\d+\s*(?:/\s*\d+\s*)?[\])])[^\[\]()]{1,40}[\])]|L\s*[-~]\s*\d+\b)\s*(?=\S)")
_NOTE = re.compile(r"\s*[\[(][^\[\]()]*[\])]")
_WITHDRAWN = re.compile(r"(?i)unvot|withdr|removed|retract")
_HISTORY = re.compile(r"-->|==>|→|->\s*\(?[A-Za-z]")
_SPLIT = re.compile(r"\s*(?:[,;]|\band\b|&)\s*")
_NO_LYNCH_KEYS = frozenset({"nolynch", "nl", "nolynching", "noexecution", "sleep"})
_NOT_VOTING_KEYS = frozenset({"notvoting", "novote", "novotes", "abstaining", "notvoted", "abstain", "nonvoting",
                              "notyetvoted", "unvoted"})


@dataclass(frozen=True)
class Wagon:
    """One wagon line as written: target text, count (None when the line gives none), voters."""

    line: str
    target: str
    n: int | None
    voters: tuple[str, ...]


def wagon_of(line: str) -> Wagon | None:
    """The wagon a line states, or None; names are not resolved here."""
    line = _LEAD_MARK.sub("", line.strip(" *\t-•·>"))
    lead = re.match(r"^[(\[](\d{1,2})[)\]]\s*(?:[\[(]([^\[\]()]{1,20})[\])]\s*)?(?=\S)", line)
    if lead and lead.group(2):  # "(6) [LYNCH!] Name — voters", "(4) (NOT VOTING) — voters"
        tag = lead.group(2)
        rest = line[lead.end():]
        line = f"({lead.group(1)}) " + (tag + " " + rest if key(tag) in _NOT_VOTING_KEYS else rest)
    for _ in range(2):  # "Vote Count Day 1 Vote Count (#2) AGar - 2 (...)": header words twice
        if _HEADER.search(line):
            line = _LEAD_MARK.sub("", _HEADER_PREFIX.sub("", line, count=1))
    line = _LEAD_MARK.sub("", line.strip(" *\t-•·>")).strip(" *\t•·>")
    for form in _FORMS:
        m = form.match(line)
        if not m:
            continue
        target = m.group("target").strip(" *-:")
        n = int(m.group("n")) if "n" in m.groupdict() and m.group("n") else None
        body = _MARK.sub("", m.group("voters").strip())
        body = body.strip()
        if re.fullmatch(r"(?:\[[^\[\]]+\]\s*){2,}", body):  # [Agar] [Oman] [BBMolla]
            body = ", ".join(re.findall(r"\[([^\[\]]+)\]", body))
        body = _LEAD_MARK.sub("", body).strip(" -–—:")
        whole = re.fullmatch(r"[(\[]([^()\[\]]*)[)\]]", body)
        if whole:
            body = whole.group(1)
        voters = []
        for item in _SPLIT.split(body):
            if not item.strip():
                continue
            notes = _NOTE.findall(item)
            if any(_WITHDRAWN.search(x) for x in notes):
                continue
            name = _NOTE.sub("", item).strip(" .*!-")
            if name:
                voters.append(name)
        if target and (voters or n == 0 or key(target) in _NOT_VOTING_KEYS):
            return Wagon(line, target, n, tuple(voters))
    return None


def looks_like_vote_count(html: str) -> bool:
    """A post shaped as a vote count (before names are known): a header and a wagon, or two
    wagons with counts."""
    lines = post_lines(html)
    wagons = [w for w in map(wagon_of, lines) if w is not None]
    header = any(_HEADER.search(ln) for ln in lines[:8])
    return (header and bool(wagons)) or sum(1 for w in wagons if w.n is not None) >= 2


# --------------------------------------------------------------------------- names


class SeatNames:
    """Names a moderator writes -> seat keys: every account name and alias of every seat."""

    def __init__(self, names: Mapping[str, str]):
        self.by_key: dict[str, str] = {}
        for name, seat in names.items():
            k = key(name)
            if k:
                self.by_key.setdefault(k, seat)
        self._keys = sorted(self.by_key)

    def resolve(self, text: str) -> str | None:
        """The seat (or NO_LYNCH / NOT_VOTING) a name in a count means; None when none clearly."""
        k = key(text)
        if not k:
            return None
        if k in _NO_LYNCH_KEYS:
            return NO_LYNCH
        if k in _NOT_VOTING_KEYS:
            return NOT_VOTING
        if k in self.by_key:
            return self.by_key[k]
        starts = {self.by_key[x] for x in self._keys if (len(k) >= 3 and x.startswith(k))
                  or (len(x) >= 4 and k.startswith(x))}
        if len(starts) == 1:
            return starts.pop()
        scored = sorted(((difflib.SequenceMatcher(None, k, x).ratio(), x) for x in self._keys), reverse=True)
        if scored and scored[0][0] >= 0.8 and (len(scored) == 1 or scored[0][0] - scored[1][0] >= 0.1):
            return self.by_key[scored[0][1]]
        return None

    def resolve_run(self, text: str) -> list[str] | None:
        """Names written one after another without commas ("My Milked Eek GreyICE JJcoolPants"):
        the longest runs of words that are exactly a seat's name, left to right; None unless the
        whole text is used."""
        words = text.split()
        out: list[str] = []
        i = 0
        while i < len(words):
            for j in range(len(words), i, -1):
                k = key(" ".join(words[i:j]))
                if k in self.by_key:
                    out.append(self.by_key[k])
                    i = j
                    break
            else:
                return None
        return out if len(out) > 1 else None


# --------------------------------------------------------------------------- a moderator's count


@dataclass(frozen=True)
class ModCount:
    """A moderator's vote count: voter seat -> target seat (or NO_LYNCH); seats listed as not
    voting map to NOT_VOTING. `unread` holds names the count gives that no seat matches."""

    post: int
    votes: Mapping[str, str]
    wagons: int
    unread: tuple[str, ...]
    double: tuple[str, ...]  # voters listed on two wagons (double voters, or a history list)
    listed: frozenset[str] = frozenset()  # seats the count names as voters or as not voting

    @property
    def complete(self) -> bool:
        """Every name read: a seat the count does not mention is not voting. In a count with
        unread names, only the seats it names are compared."""
        return not self.unread


def read_count(number: int, html: str, names: SeatNames) -> ModCount | None:
    """The count a moderator's post states, or None when it states none. Spoiler boxes are read
    only when the post has no count outside them (they hold vote histories and earlier days'
    counts); history lines ("Voter: A (12) --> B (40)") are never wagons."""
    return _read_count(number, post_lines(html, spoilers=False), names) or _read_count(number, post_lines(html), names)


def _read_count(number: int, lines: tuple[str, ...], names: SeatNames) -> ModCount | None:
    header = any(_HEADER.search(ln) for ln in lines[:12])
    votes: dict[str, str] = {}
    double: list[str] = []
    unread: list[str] = []
    wagons = 0
    counted = 0
    odd = []  # lines that start with a seat's name but read as no wagon ("dragonspawn Drixx")
    for ln in lines:
        w = None if _HISTORY.search(ln) else wagon_of(ln)
        if w is None:
            words = ln.split()
            if 1 < len(words) <= 8 and not _HISTORY.search(ln) and any(
                    key(" ".join(words[:j])) in names.by_key for j in range(1, min(4, len(words)) + 1)):
                odd.append(ln)
            continue
        target = names.resolve(w.target)
        if target is None:
            if any(names.resolve(v) not in (None, NO_LYNCH, NOT_VOTING) for v in w.voters):
                unread.append(w.target)  # a wagon on a name the harness cannot read: the count is partial
            continue
        seats = []
        for v in w.voters:
            run = names.resolve_run(v) if " " in v.strip() and key(v) not in names.by_key else None
            got = names.resolve(v) if not run else None
            seats += [(v, x) for x in run] if run else [(v, got)]
        known = [s for _, s in seats if s not in (None, NO_LYNCH, NOT_VOTING)]
        if w.voters and not known:
            continue  # "Mod Notes: ..." or prose with a colon
        wagons += 1
        counted += 1 if w.n is not None else 0
        unread += [v for v, s in seats if s is None]
        for s in known:
            if s in votes and votes[s] != target:
                double.append(s)
                if target == NOT_VOTING:
                    continue
                if votes[s] != NOT_VOTING:
                    continue
            votes[s] = target
    if not wagons or not (header or counted >= 2 or wagons >= 3):
        return None
    if odd and header:
        unread += odd[:3]  # the count has lines the reader could not take apart: it is partial
    return ModCount(number, votes, wagons, tuple(unread), tuple(sorted(set(double))), frozenset(votes))


def read_counts(posts: Iterable[tuple[int, str]], names: SeatNames) -> list[ModCount]:
    out = []
    for number, html in posts:
        c = read_count(number, html, names)
        if c is not None:
            out.append(c)
    return out
