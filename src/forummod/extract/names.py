"""Player names: from what a player typed to a roster seat, or a reasoned refusal.

Resolution order (issue 4 item 3), each stage tried only when the ones before found nothing:

1. exact — case-, accent-, width-insensitive, ``_`` = space, invisible characters ignored;
2. configured aliases; 3. replaced players (a vote for the replaced player goes to the seat's
   current occupant) — also as the longest such key at the start of the text when more
   words follow (``Marco Rossi, obviously`` -> ``Marco Rossi``; Chinese: the longest roster
   name right after the keyword, village §6.8);
4. homoglyphs — a Cyrillic ``а`` inside a Latin name is reported, never matched;
5. unique prefix (of the name or of one of its words, >= 3 letters, 2 for Chinese);
6. initials (``AttM`` -> ``Ant_to_the_max``);
7. Russian case forms of names and aliases (``Машу`` -> ``Маша``, witch-hunt D8);
8. fuzzy (rapidfuzz ratio >= cutoff, and the best beats the runner-up by `margin` points,
   else ambiguous).

Two seats at the same stage means *ambiguous*; nothing at any stage means *unknown*, with
the closest names as suggestions. Both become issues upstream: never a silent guess.
"""

from __future__ import annotations

import itertools
import re
from datetime import datetime
from functools import lru_cache
from typing import Literal

from rapidfuzz import fuzz, process

from forummod.extract.normalize import compact, fold, fold_map, has_cjk, has_cyrillic, is_cjk, skeleton, word_char
from forummod.model import Roster
from forummod.records import frozen

Status = Literal["matched", "ambiguous", "unknown", "homoglyph"]


#: Characters of a vote's target text that name resolution reads: far longer than any forum
#: name with the words after it, and what keeps a post of a thousand votes on one huge line
#: linear (each phrase would otherwise fold the whole rest of the line: benchmarks/blowup.py).
MAX_QUERY = 200


@frozen
class NameMatch:
    """What a typed name resolved to. `name` is the roster seat name when matched.

    `via` says which stage decided (exact, alias, replacement, declension, prefix,
    initials, fuzzy, homoglyph); `consumed` is how many characters of the query the name
    took (the rest is the player's trailing words).
    """

    query: str
    status: Status
    name: str | None = None
    via: str = ""
    score: float = 0.0
    candidates: tuple[str, ...] = ()
    consumed: int = 0

    @property
    def ok(self) -> bool:
        return self.status == "matched"


# --------------------------------------------------------------------------- index


@frozen
class _Entry:
    prio: int  # 0 name, 1 alias, 2 replaced player, 3 case form
    slot: str
    via: str
    until: datetime | None = None  # replaced players: when they left the seat


_PRIO_VIA = ("exact", "alias", "replacement", "declension")
_RU_VOWELS = set("аеёиоуыэюя")
_CLAUSE = re.compile(r"\s*(?:[,.;:!?()\[\]{}<>\"“”«»„]|\s[-–—]+\s|\s-{2,}|\s(?:because|but|since|as|perché|ma|потому|но|omdat|maar)\s)", re.I)
_TOKENS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_]+")


class NameIndex:
    """Every key a seat answers to, built once per roster (and language)."""

    def __init__(self, roster: Roster, language: str = "en") -> None:
        from forummod.extract.lexicon import ru

        self.roster = roster
        self.keys: dict[str, list[_Entry]] = {}
        self.compact_keys: dict[str, list[_Entry]] = {}
        self.initials: dict[str, set[str]] = {}
        self.skeletons: dict[str, set[str]] = {}
        words: dict[str, set[str]] = {}
        for slot in roster.players:
            own = [(slot.name, 0, None)] + [(a, 1, None) for a in slot.aliases]
            own += [(r.previous, 2, r.at) for r in slot.replacements]
            for text, prio, until in own:
                self._add(text, _Entry(prio, slot.name, _PRIO_VIA[prio], until))
                for ini in _initials(text):
                    self.initials.setdefault(ini, set()).add(slot.name)
                for w in fold(text).split():
                    words.setdefault(w, set()).add(slot.name)
            for text, prio, _ in own[: 1 + len(slot.aliases)]:
                for form in _declensions(text, ru.ENDINGS, ru.FLEETING):
                    self._add(form, _Entry(3, slot.name, "declension"))
        self.words = words
        self.max_len = max((len(k) for k in self.keys), default=0)
        self.max_compact = max((len(k) for k in self.compact_keys), default=0)
        self.max_word = max((len(w) for w in words), default=0)
        self.fuzzy_keys = [k for k in self.keys if len(k) >= 2]
        self.max_fuzzy = max((len(k) for k in self.fuzzy_keys), default=0)
        self.language = language
        # `at` only decides between seats through replaced players' names (`_pick`, prio 2)
        self.timed = any(e.prio == 2 for es in self.keys.values() for e in es)
        self._resolved: dict[tuple, NameMatch] = {}  # players write the same few names again and again

    def _add(self, text: str, e: _Entry) -> None:
        k = fold(text)
        if not k:
            return
        self.keys.setdefault(k, []).append(e)
        c = compact(k)
        if len(c) >= 3 or (c and c != k):
            # a short name is compared without its punctuation only when it has some: "-L-"
            # answers to "[L]" and "L", while "Al" still needs its own letters
            self.compact_keys.setdefault(c, []).append(e)
        self.skeletons.setdefault(skeleton(k), set()).add(e.slot)

    # ------------------------------------------------------------------ stages

    def _pick(self, query: str, entries: list[_Entry], at: datetime | None, consumed: int,
              score: float = 100.0) -> NameMatch:
        best = min(e.prio for e in entries)
        top = [e for e in entries if e.prio == best]
        slots = list(dict.fromkeys(e.slot for e in top))
        if len(slots) > 1 and at is not None and best == 2:
            still = [e.slot for e in top if e.until is None or e.until > at]
            if len(set(still)) == 1:
                slots = still[:1]
        if len(slots) == 1:
            return NameMatch(query, "matched", slots[0], top[0].via, score, (slots[0],), consumed)
        return NameMatch(query, "ambiguous", None, top[0].via, score, tuple(slots), consumed)

    def exact(self, query: str, at: datetime | None = None, case_forms: bool = False) -> NameMatch | None:
        """Stages 1-3 (or, with `case_forms`, the Russian case forms only)."""
        k = fold(query)
        hit = self._lookup(query, self.keys.get(k), at, len(query), case_forms)
        c = compact(k)
        if hit is None and c:
            hit = self._lookup(query, self.compact_keys.get(c), at, len(query), case_forms)
        return hit

    def longest_at_start(self, query: str, at: datetime | None = None,
                         case_forms: bool = False) -> NameMatch | None:
        """The longest key the query starts with, followed by a word boundary."""
        folded, fmap = fold_map(query)
        for n in range(min(self.max_len, len(folded)), 0, -1):
            k = folded[:n]
            if k in self.keys and _boundary(folded, n):
                hit = self._lookup(query, self.keys[k], at, fmap[n], case_forms)
                if hit is not None:
                    return hit
        return None

    def declined(self, query: str, at: datetime | None = None) -> NameMatch | None:
        """Stage 7: a Russian case form of a name or alias (witch-hunt D8)."""
        return self.exact(query, at, case_forms=True) or self.longest_at_start(query, at, case_forms=True)

    def _lookup(self, query: str, entries: list[_Entry] | None, at: datetime | None, consumed: int,
                case_forms: bool) -> NameMatch | None:
        if not entries:
            return None
        entries = [e for e in entries if (e.prio == 3) == case_forms]
        return self._pick(query, entries, at, consumed) if entries else None

    def homoglyph(self, query: str) -> NameMatch | None:
        k = fold(query)
        if not k or k in self.keys:
            return None
        slots = self.skeletons.get(skeleton(k))
        if slots:
            return NameMatch(query, "homoglyph", None, "homoglyph", 0.0, tuple(sorted(slots)), len(query))
        return None

    def prefix(self, query: str) -> NameMatch | None:
        k = fold(query)
        need = 2 if has_cjk(k) else 3
        if len(k) < need:
            return None
        c = compact(k)
        # (a key can start with a text only as long as it: a sentence is no prefix, and is not compared)
        slots = {e.slot for key, es in self.keys.items() if key.startswith(k) for e in es if e.prio < 3} \
            if len(k) <= self.max_len else set()
        if need <= len(c) <= self.max_compact:
            slots |= {e.slot for key, es in self.compact_keys.items() if key.startswith(c) for e in es if e.prio < 3}
        if not slots and " " not in k and len(k) <= self.max_word:
            slots = {s for w, ss in self.words.items() if w.startswith(k) for s in ss}
        if not slots:
            return None
        return _from_slots(query, slots, "prefix")

    def by_initials(self, query: str) -> NameMatch | None:
        c = compact(fold(query))
        if not (2 <= len(c) <= 6) or not c.isalpha():
            return None
        slots = self.initials.get(c)
        return _from_slots(query, slots, "initials") if slots else None

    def fuzzy(self, query: str, cutoff: int, margin: int) -> tuple[NameMatch | None, tuple[str, ...]]:
        """A fuzzy match (or an ambiguous one) and the closest seats as suggestions."""
        k = fold(query)
        if len(k) < 3 or not self.fuzzy_keys:
            return None, ()
        longest = self.max_fuzzy
        if len(k) > longest and 200 * longest / (len(k) + longest) < min(cutoff, max(cutoff - 30, 40)) - 1e-6:
            # `fuzz.ratio` is at most 200·shorter/(sum of lengths): no key can come near enough to
            # be matched or suggested (a sentence against names)
            return None, ()
        best: dict[str, float] = {}
        for key, score, _ in process.extract(k, self.fuzzy_keys, scorer=fuzz.ratio, limit=12):
            for e in self.keys[key]:
                if score > best.get(e.slot, -1):
                    best[e.slot] = score
        ranked = sorted(best.items(), key=lambda kv: -kv[1])
        suggestions = tuple(s for s, sc in ranked[:3] if sc >= max(cutoff - 30, 40))
        if not ranked or ranked[0][1] < cutoff:
            return None, suggestions
        top, score = ranked[0]
        close = [s for s, sc in ranked if sc == score or score - sc < margin]
        if len(close) == 1:
            return NameMatch(query, "matched", top, "fuzzy", score, (top,), len(query)), suggestions
        return NameMatch(query, "ambiguous", None, "fuzzy", score, tuple(close), len(query)), suggestions

    # ------------------------------------------------------------------ the chain

    def resolve(self, text: str, *, at: datetime | None = None, cutoff: int = 80, margin: int = 10,
                trailing: bool = True) -> NameMatch:
        """Resolve `text` (a name, possibly followed by more words when `trailing`). Answers are
        remembered per index (a pure function of its arguments; `at` counts only where replaced
        players' names are keys)."""
        if len(text) > MAX_QUERY:  # the rest of a megabyte line is no name: bounded work per vote phrase
            text = text[:MAX_QUERY]
        key = (text, at if self.timed else None, cutoff, margin, trailing)
        hit = self._resolved.get(key)
        if hit is None:
            if len(self._resolved) >= 50_000:
                self._resolved.clear()
            hit = self._resolved[key] = self._resolve(text, at=at, cutoff=cutoff, margin=margin, trailing=trailing)
        return hit

    def _resolve(self, text: str, *, at: datetime | None, cutoff: int, margin: int, trailing: bool) -> NameMatch:
        raw = text.strip()
        raw = raw.strip(" \t\"'“”«»„*:：")
        if not fold(raw):
            return NameMatch(text, "unknown")
        hit = self.exact(raw, at)
        if hit is None and trailing:
            hit = self.longest_at_start(raw, at)
        if hit is not None:
            return hit
        chunks = _chunks(raw, trailing)
        for stage in (self.homoglyph, self.prefix, self.by_initials):
            for chunk in chunks:
                found = stage(chunk)
                if found is not None:
                    return _with_consumed(found, chunk, raw)
        found = self.declined(raw, at) if trailing else self.exact(raw, at, case_forms=True)
        if found is not None:
            return found
        suggestions: tuple[str, ...] = ()
        for chunk in chunks:
            found, sugg = self.fuzzy(chunk, cutoff, margin)
            suggestions = suggestions or sugg
            if found is not None:
                return _with_consumed(found, chunk, raw)
        return NameMatch(text, "unknown", candidates=suggestions)


def _with_consumed(m: NameMatch, chunk: str, raw: str) -> NameMatch:
    return NameMatch(raw, m.status, m.name, m.via, m.score, m.candidates, raw.find(chunk) + len(chunk))


def _from_slots(query: str, slots: set[str] | None, via: str) -> NameMatch | None:
    if not slots:
        return None
    if len(slots) == 1:
        s = next(iter(slots))
        return NameMatch(query, "matched", s, via, 100.0, (s,), len(query))
    return NameMatch(query, "ambiguous", None, via, 0.0, tuple(sorted(slots)), len(query))


def _boundary(folded: str, n: int) -> bool:
    if n >= len(folded):
        return True
    nxt, last = folded[n], folded[n - 1]
    return not word_char(nxt) or not word_char(last) or is_cjk(nxt) or is_cjk(last)


def _chunks(raw: str, trailing: bool) -> list[str]:
    out = [raw]
    if trailing:
        head = _CLAUSE.split(raw, maxsplit=1)[0].strip()
        if head:
            out.append(head)
        words = raw.split()
        if words:
            out.append(words[0].strip(",.;:!?()[]{}<>\"'"))
        if len(words) >= 2:
            out.insert(-1, " ".join(words[:2]).strip(",.;:!?()[]{}<>\"'"))
    return [c for c in dict.fromkeys(out) if c]


def _initials(name: str) -> set[str]:
    out = set()
    words = [w for w in re.split(r"[\s_\-.]+", name) if w]
    if len(words) >= 2:
        out.add("".join(w[0] for w in words).casefold())
    tokens = _TOKENS.findall(name)
    if len(tokens) >= 2:
        out.add("".join(t[0] for t in tokens).casefold())
    return {fold(i) for i in out if len(i) >= 2}


def _declensions(name: str, endings, fleeting) -> set[str]:
    """Russian case forms of a name (D8): every declinable word in every case."""
    if not has_cyrillic(name):
        return set()
    words = name.split()
    options = [_word_forms(w, endings, fleeting) or [w] for w in words]
    declinable = sum(1 for w, o in zip(words, options) if o != [w])
    if declinable == 0:
        return set()
    if len(words) > 3:
        options = [options[0]] + [[w] for w in words[1:]]
    return {" ".join(combo) for combo in itertools.product(*options)} - {name}


def _word_forms(w: str, endings, fleeting) -> list[str]:
    lw = w.lower()
    if not has_cyrillic(lw) or len(lw) < 2:
        return []
    for nom, obl in endings:
        if nom and lw.endswith(nom):
            stem = w[: len(w) - len(nom)]
            return [stem + e for e in obl]
    if lw[-1] in _RU_VOWELS or lw[-1] in "ъ" or not ("\u0400" <= lw[-1] <= "\u04ff"):
        return []
    obl = dict(endings)[""]
    forms = [w + e for e in obl]
    if len(lw) >= 3 and lw[-2] in fleeting and lw[-3] not in _RU_VOWELS:
        forms += [w[:-2] + w[-1] + e for e in obl]
    return forms


def name_index(roster: Roster, language: str = "en") -> NameIndex:
    """The (cached) index of a roster: building it once serves every post of a game. The same
    roster object is found by identity first (hashing a roster costs more than a vote)."""
    hit = _BY_ID.get((id(roster), language))
    if hit is not None and hit[0] is roster:
        return hit[1]
    index = _name_index(roster, language)
    if len(_BY_ID) >= 64:
        _BY_ID.clear()
    _BY_ID[(id(roster), language)] = (roster, index)
    return index


_BY_ID: dict[tuple[int, str], tuple[Roster, NameIndex]] = {}


@lru_cache(maxsize=64)
def _name_index(roster: Roster, language: str = "en") -> NameIndex:
    return NameIndex(roster, language)


def resolve_name(text: str, roster: Roster, *, at: datetime | None = None, language: str = "en",
                 cutoff: int = 80, margin: int = 10) -> NameMatch:
    """Resolve one typed name against the roster (see the module docstring for the order).

    `at` (when the name was written) decides between seats when a replaced player's name was
    used by two seats at different times. Trailing words are allowed and reported through
    `NameMatch.consumed` (``"Marco, obviously"`` -> Marco).
    """
    return name_index(roster, language).resolve(text, at=at, cutoff=cutoff, margin=margin)
