"""The config a GM would write for a donbot game, derived by one set of rules for every game.

Nothing here knows a game: every rule reads the archive entry, the transitions and the posts.

* Accounts. An archive name is matched to a forum account (`user_id`) by (1) a poster whose
  shown name has the same key, (2) a quote's author link (phpBB stores the name at quoting time
  with the user id: a renamed account is found under its old name), (3) one clearly similar
  poster name among the accounts nothing else claimed (archive misspellings). A seat is written
  with the names the forum shows (so posts find their seat), the holder's user id, and the
  archive's names as aliases where they differ (the name the account had during the game).
* Moderators: the archive's Moderator line (matched as accounts), the opening post's author,
  and any other account that holds no seat and posts at least two vote counts or phase posts
  ("X has been lynched", "Day 2 begins"): co-moderators and second accounts.
* Replacements: at the first moderator post after the previous one that names both accounts
  and a replacement word ("replac", "in for", "subbing", ...), after the leaving account's first
  post (the opening post, edited after the game, lists every replacement); else the new account's
  first post.
* Phases. Day N ends at its transition post (transitions.tsv). Day 1 starts after the first
  moderator post before it that starts the game ("Day 1 begins", "the game has started"),
  else at post 1. Night N runs from the post after day N's end to its dawn post, the first
  moderator post after the day's end that opens day N+1 (names day N+1, says night N ended, a
  dawn word or a death); when none does, the last of the moderator's posts right after the
  day's end (an empty night when a player posts next).
* Deaths other than lynches are GM events: a night kill at its night's dawn post, a day kill or
  modkill at the post a note gives ("X killed on post N"), else at the first moderator post of
  that day naming the player with a death word, else at the day's end. Lynches are never entered.
  A note "votecount reset on post N" is the GM withdrawing every vote there (`set_vote`, no target).
* Roles are not given: the archive's setups (third parties, second scum teams, ...) do not map
  onto mafia-majority's town/mafia win check, and a GM who only counts votes gives none, so
  forummod never ends a game the moderator kept running. Double voters ("Doublevoter" in the
  role) get a vote weight of 2 where forummod reads one (`gameconfig.seat_weights_supported`).
* Options: mafia-majority's defaults with day first and no lynch allowed (MafiaScum); the note
  "one less for no lynch" sets `no_lynch_needs = "half"`.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from benchmarks.accuracy.corpus import ArchiveGame
from benchmarks.accuracy.gameconfig import GameSpec, GmEvent, Pin, Seat
from benchmarks.accuracy.modcounts import looks_like_vote_count
from benchmarks.accuracy.text import key, post_lines, words_of

BOARD_ZONE = "Etc/GMT+11"  # the board's display time is UTC-11 (corpus README); pins make it moot

_CITE = re.compile(r'<cite>.*?memberlist\.php\?mode=viewprofile&(?:amp;)?u=(\d+)"?[^>]*>([^<]+)</a>\s*wrote:',
                   re.S)
_REPLACE_WORD = re.compile(r"(?i)replac|\bin for\b|\bsubb?ing\b|\bsubbed\b|\bsubs\b|\btak(?:es|ing) over\b"
                           r"|\bstep(?:s|ping) in\b|\bswap")
_START = re.compile(r" (?:day (?:1|one) |d1 |game |thread )(?:has |is )?(?:now )?(?:begun|begins|started|starts|open)"
                    r"|(?:begin|start)\w* (?:day (?:1|one)|the game|now)|let the game begin|get(?:ting)? started"
                    r"|day (?:1|one) (?:is |has )?(?:now )?(?:open|underway|upon)")
_DEATH = re.compile(r" (?:killed|died|dies|dead|shot|modkill\w*|murdered|slain|removed from the game|has been found) ")
_PHASE_POST = re.compile(r" (?:has|have) been lynched | (?:day|night) \d+ (?:has )?(?:begun|begins|ended|is over|starts) ")
_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen")


def _num(n: int) -> str:
    return f"(?:{n}|{_WORDS[n]})" if n < len(_WORDS) else str(n)


def _opens_day(words: str, day: int) -> bool:
    """Does this moderator text open day `day` (the dawn after night `day - 1`)?"""
    n = day - 1
    return bool(re.search(rf" (?:day|d) ?{_num(day)} | (?:night|n) ?{_num(n)} (?:\w+ )?(?:has )?(?:ended|end|is over|over|results?) "
                          r"| dawn| it is now day | morning| wake| woke| awaken", words)) or bool(_DEATH.search(words)) \
        or " nobody died " in words or " no one died " in words or " no kill" in words


# --------------------------------------------------------------------------- accounts


@dataclass(frozen=True)
class Poster:
    """A forum account that posted in the thread."""

    user_id: str
    shown: str
    first: int
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Account:
    """An archive name and the forum account it was found to be ("unmatched": none)."""

    archive_name: str
    shown: str
    user_id: str | None
    how: str  # name, quote, similar, renamed, unmatched


def posters_of(records: Sequence[Mapping[str, Any]]) -> dict[str, Poster]:
    numbers: dict[str, list[int]] = {}
    shown: dict[str, str] = {}
    for r in records:
        uid = str(r["user_id"])
        numbers.setdefault(uid, []).append(int(r["number"]))
        shown[uid] = r["user"]
    return {u: Poster(u, shown[u], ns[0], tuple(ns)) for u, ns in numbers.items()}


def quoted_names(records: Sequence[Mapping[str, Any]]) -> dict[str, Counter]:
    """name key -> Counter of user ids that quotes attribute that name to."""
    out: dict[str, Counter] = {}
    for r in records:
        if "<cite>" not in r["content"]:
            continue
        for uid, name in _CITE.findall(r["content"]):
            out.setdefault(key(name), Counter())[uid] += 1
    return out


def match_accounts(names: Sequence[str], posters: Mapping[str, Poster], quotes: Mapping[str, Counter],
                   taken: set[str] = frozenset()) -> dict[str, Account]:
    """Archive name -> Account, by shown name, quote attribution, then one clear similar name."""
    by_key: dict[str, str] = {}
    for p in sorted(posters.values(), key=lambda p: p.first):
        by_key.setdefault(key(p.shown), p.user_id)
    out: dict[str, Account] = {}
    used = set(taken)
    for n in names:
        k = key(n)
        uid = by_key.get(k)
        how = "name"
        if uid is None and k in quotes:
            uid, how = quotes[k].most_common(1)[0][0], "quote"
            if uid not in posters:
                uid = None
        if uid is not None:
            out[n] = Account(n, posters[uid].shown, uid, how)
            used.add(uid)
    free = {u: p for u, p in posters.items() if u not in used}
    for n in names:
        if n in out:
            continue
        k = key(n)
        scored = sorted(((difflib.SequenceMatcher(None, k, key(p.shown)).ratio(), u) for u, p in free.items()),
                        reverse=True)
        if scored and scored[0][0] >= 0.85 and (len(scored) == 1 or scored[0][0] - scored[1][0] >= 0.1):
            uid = scored[0][1]
            out[n] = Account(n, posters[uid].shown, uid, "similar")
            free.pop(uid)
    # renamed accounts the forum shows under a later name: a free poster sharing a 4-letter
    # start or clearly similar (Wake88 / Wake1, randomidget / Randomnamechange)
    for n in names:
        if n in out:
            continue
        k = key(n)
        cands = [(max(difflib.SequenceMatcher(None, k, key(p.shown)).ratio(),
                      1.0 if len(_common_start(k, key(p.shown))) >= 4 else 0.0), len(p.numbers), u)
                 for u, p in free.items() if len(p.numbers) >= 3]
        cands = sorted(c for c in cands if c[0] >= 0.7)[::-1]
        if cands and (len(cands) == 1 or cands[0][0] > cands[1][0]):
            uid = cands[0][2]
            out[n] = Account(n, posters[uid].shown, uid, "renamed")
            free.pop(uid)
        else:
            out[n] = Account(n, n, None, "unmatched")
    return out


def _common_start(a: str, b: str) -> str:
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[:i]


# --------------------------------------------------------------------------- the derived game


@dataclass(frozen=True)
class SeatInfo:
    """A seat as derived: its key (the archive's final holder), accounts oldest first, fate."""

    key: str
    accounts: tuple[Account, ...]
    fate: str
    phase: str
    votes: int


@dataclass(frozen=True)
class DayInfo:
    """One day of the game as the data says: its pins, transition and expected outcome."""

    day: int
    start: int
    end: int | None  # the transition post (None: missing in transitions.tsv)
    dawn: int | None  # the dawn post that ended the night after it (None: not found / last day)
    expected: str | None  # seat key lynched, "no lynch", or None (no outcome in the data)
    in_data: bool  # the transition post is in the post file


@dataclass(frozen=True)
class Derived:
    """Everything derived for one game: the config (`spec`) and what the comparison needs."""

    spec: GameSpec
    seats: tuple[SeatInfo, ...]
    mod_ids: frozenset[str]
    mod_names: tuple[str, ...]
    co_moderators: tuple[str, ...]
    days: tuple[DayInfo, ...]
    names: Mapping[str, str]  # every name a seat is known by -> seat key
    limitations: tuple[str, ...]
    notes: Mapping[str, Any] = field(default_factory=dict)

    def seat_of_config_name(self) -> dict[str, str]:
        """Names forummod prints (config seat and replacement names) -> seat key."""
        return {a.shown: s.key for s in self.seats for a in s.accounts}


def derive(game: ArchiveGame, records: Sequence[Mapping[str, Any]], ends: Sequence[int | None]) -> Derived:
    """The config a GM would write for `game`, from its archive entry, day ends and posts."""
    posters = posters_of(records)
    quotes = quoted_names(records)
    numbers = [int(r["number"]) for r in records]
    last = numbers[-1] if numbers else 0
    by_number = {int(r["number"]): r for r in records}

    # ---- seats and moderators
    seat_names = [a for s in game.slots for a in s.accounts]
    mods_listed = [m for m in game.moderators if key(m) not in {key(a) for a in seat_names}]
    accounts = match_accounts(seat_names + mods_listed, posters, quotes)
    mod_ids = {accounts[m].user_id for m in mods_listed if accounts[m].user_id}
    if records:
        mod_ids.add(str(records[0]["user_id"]))
    seat_ids = {accounts[a].user_id for a in seat_names if accounts[a].user_id} - mod_ids
    co_mods = []
    for uid, p in posters.items():
        if uid in seat_ids or uid in mod_ids:
            continue
        shaped = sum(1 for n in p.numbers if looks_like_vote_count(by_number[n]["content"])
                     or _PHASE_POST.search(words_of(" ".join(post_lines(by_number[n]["content"])))))
        if shaped >= 2:
            co_mods.append(uid)
    mod_ids |= set(co_mods)
    mod_numbers = [n for n in numbers if str(by_number[n]["user_id"]) in mod_ids]
    mod_words = {n: words_of(" ".join(post_lines(by_number[n]["content"]))) for n in mod_numbers}

    # ---- phases
    day_ends = list(ends)
    days: list[DayInfo] = []
    first_end = day_ends[0] if day_ends and day_ends[0] is not None else last
    opener = next((n for n in mod_numbers if 0 < n < first_end and _START.search(mod_words[n])), None)
    start = (opener + 1) if opener is not None else 1
    pins: list[Pin] = []
    dawns: dict[int, int] = {}
    for i, end in enumerate(day_ends):
        d = i + 1
        nxt_end = day_ends[i + 1] if i + 1 < len(day_ends) else None
        if end is None:  # day end missing: it ends where the next day opens
            opener_n = next((n for n in mod_numbers if n >= start and _opens_day(mod_words[n], d + 1)
                             and (nxt_end is None or n < nxt_end)), None)
            end = opener_n
        pins.append(Pin(f"D{d}", start, end))
        dawn = None
        if end is not None and end < last and i + 1 < len(day_ends):
            dawn = _dawn(end, nxt_end, d, numbers, mod_numbers, mod_words, str(by_number[end]["user_id"]) in mod_ids
                         if end in by_number else False)
            pins.append(Pin(f"N{d}", end + 1, dawn))
            dawns[d] = dawn
            start = dawn + 1
        days.append(DayInfo(d, pins[-2 if dawn is not None else -1].start, day_ends[i], dawn, None,
                            day_ends[i] is not None and day_ends[i] <= last))

    # ---- seats as written
    seats: list[SeatInfo] = []
    spec_seats: list[Seat] = []
    limitations: list[str] = []
    names: dict[str, str] = {}
    used: set[str] = set()
    events: list[GmEvent] = []
    for slot in game.slots:
        chain: list[Account] = []
        for a in slot.accounts:
            acc = accounts[a]
            if any(key(c.shown) == key(acc.shown) for c in chain):
                chain = [c for c in chain if key(c.shown) != key(acc.shown)]
            chain.append(acc)
        dup = [c for c in chain if key(c.shown) in used]
        chain = [c for c in chain if key(c.shown) not in used]  # one account in two seats: its first
        if dup:
            limitations.append(f"account in two seats: {', '.join(c.shown for c in dup)} (kept in the first)")
        if not chain:
            continue
        seat_key = slot.name
        for c in chain:
            used.add(key(c.shown))
            names.setdefault(c.shown, seat_key)
            names.setdefault(c.archive_name, seat_key)
        holder = chain[-1]
        reps: list[tuple[str, int]] = []
        lo = 0
        for prev, new in zip(chain, chain[1:]):
            at = _replacement_post(prev, new, lo, records, posters, mod_numbers, mod_words)
            at = max(at, lo + 1)
            reps.append((prev.shown, at))
            lo = at
        aliases = tuple(dict.fromkeys(c.archive_name for c in chain if key(c.archive_name) != key(c.shown)))
        weight = 2 if re.search(r"(?i)double\s*-?\s*voter", slot.role) else 1
        if weight != 1:
            limitations.append(f"double voter {slot.name}")
        seats.append(SeatInfo(seat_key, tuple(chain), slot.fate, slot.phase, weight))
        spec_seats.append(Seat(holder.shown, "", tuple(reps), aliases, holder.user_id or "", weight))

    # ---- deaths other than lynches
    note_posts = _death_notes(game.notes)
    for s in seats:
        if s.fate not in ("killed", "modkilled") or not s.phase:
            continue
        kind = "modkill" if s.fate == "modkilled" else "kill"
        cause = "modkill" if s.fate == "modkilled" else ("night_kill" if s.phase.startswith("N") else "day_kill")
        n = int(s.phase[1:])
        holder = s.accounts[-1].shown
        if s.phase.startswith("N"):
            at = dawns.get(n) if n >= 1 else max(0, days[0].start - 1) if days else 0
            if at is None:
                continue  # the game ended before that dawn (or it is not in the data)
        else:
            at = note_posts.get(key(s.key))
            if at is None and n <= len(days):
                dd = days[n - 1]
                hi = dd.end if dd.end is not None else last
                named = [m for m in mod_numbers if dd.start <= m <= hi and _DEATH.search(mod_words[m])
                         and any(words_of(a.shown) in mod_words[m] or words_of(a.archive_name) in mod_words[m]
                                 for a in s.accounts)]
                at = named[0] if named else dd.end
            if at is None:
                continue
        events.append(GmEvent(kind, at, holder, cause if kind == "kill" else "", f"archive: {s.fate} {s.phase}"))

    # ---- the moderator's vote-count resets ("votecount reset on post N"): every vote withdrawn
    for n in game.notes:
        m = re.search(r"(?i)vote\s*count\s+reset\s+(?:on|in|at)\s+post\s+(\d+)", n)
        if m:
            events += [GmEvent("set_vote", int(m.group(1)), sp.name, "", "archive: votecount reset")
                       for sp in spec_seats]

    # ---- expected outcomes
    lynched = {}
    for s in seats:
        if s.fate == "lynched" and s.phase.startswith("D"):
            lynched.setdefault(int(s.phase[1:]), []).append(s.key)
    no_lynch_days = {int(m.group(1)) for n in game.notes for m in [re.match(r"(?i)^D(\d+)\s+no\s*lynch\b", n)] if m}
    days = [DayInfo(d.day, d.start, d.end, d.dawn,
                    lynched[d.day][0] if len(lynched.get(d.day, [])) == 1 else
                    ("no lynch" if d.day in no_lynch_days and d.day not in lynched else None), d.in_data)
            for d in days]

    # ---- options and what forummod cannot be told
    options = {"first_phase": "day", "no_lynch": True}
    note_text = " ; ".join(game.notes).lower()
    if "one less for no lynch" in note_text:
        options["no_lynch_needs"] = "half"  # half the living close the vote on no lynch
    mod_names = tuple(dict.fromkeys(posters[u].shown for u in sorted(mod_ids) if u in posters))
    spec = GameSpec(
        game_id=f"g{game.thread}",
        corpus_file=f"{game.thread}.jsonl.xz",
        gm=mod_names or tuple(game.moderators),
        seats=tuple(spec_seats),
        phases=tuple(pins),
        events=tuple(sorted(events, key=lambda e: e.at_post)),
        options=options,
        title=game.title,
        timezone=BOARD_ZONE,
    )
    return Derived(spec, tuple(seats), frozenset(mod_ids), mod_names,
                   tuple(posters[u].shown for u in co_mods), tuple(days), names, tuple(limitations),
                   {"unmatched": [a.archive_name for a in accounts.values() if a.how == "unmatched"
                                  and a.archive_name in seat_names],
                    "matched_by": dict(Counter(a.how for n, a in accounts.items() if n in seat_names))})


def _dawn(end: int, nxt_end: int | None, day: int, numbers: Sequence[int], mod_numbers: Sequence[int],
          mod_words: Mapping[int, str], end_by_mod: bool) -> int:
    """The post that opened day `day + 1` after day `day` ended at post `end`."""
    hi = nxt_end if nxt_end is not None else (numbers[-1] + 1 if numbers else end + 1)
    mods = set(mod_numbers)
    after = [n for n in numbers if end < n < hi]
    if end_by_mod and end in mod_words and _opens_day(mod_words[end], day + 1) and after and after[0] not in mods:
        return end  # the transition is itself the dawn post (nobody posted in between)
    for n in after:
        if n in mods and _opens_day(mod_words[n], day + 1):
            return n
    run = end
    for n in after:
        if n not in mods:
            break
        run = n
    return run


def _replacement_post(prev: Account, new: Account, lo: int, records: Sequence[Mapping[str, Any]],
                      posters: Mapping[str, Poster], mod_numbers: Sequence[int], mod_words: Mapping[int, str]) -> int:
    """Where `new` took over from `prev`: the moderator's announcement, else new's first post."""
    def named(words: str, acc: Account) -> bool:
        return any(words_of(n) in words or (len(key(n)) >= 4 and key(n) in words.replace(" ", ""))
                   for n in {acc.shown, acc.archive_name})

    # the opening post is often edited after the game (the final roster, "B replaced A"): an
    # announcement comes after the leaving player's first post, when they posted at all
    first = min(posters[prev.user_id].numbers, default=lo) if prev.user_id and prev.user_id in posters else lo
    for n in mod_numbers:
        if n <= max(lo, first):
            continue
        w = mod_words[n]
        if _REPLACE_WORD.search(w) and named(w, prev) and named(w, new):
            return n
    if new.user_id and new.user_id in posters:
        later = [n for n in posters[new.user_id].numbers if n > lo]
        if later:
            return later[0]
    if prev.user_id and prev.user_id in posters:
        return max([n for n in posters[prev.user_id].numbers] + [lo]) + 1
    return lo + 1


def _death_notes(notes: Sequence[str]) -> dict[str, int]:
    """'X killed on post N' (and 'modkilled') notes: name key -> post."""
    out = {}
    for n in notes:
        m = re.match(r"(?i)^(.+?)\s+(?:was\s+)?(?:mod)?killed\s+(?:on|in)\s+post\s+(\d+)", n.strip())
        if m:
            out[key(m.group(1))] = int(m.group(2))
    return out
