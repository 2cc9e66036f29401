"""The date shapes of one page: what its first posts' dates taught, so the next ones read fast.

The posts of a page print their dates one way ("by » Tue Dec 31, 2019 2:22 pm"). Once the
tolerant parser (`dates.parse_forum_date`, ~50 µs a date) has read one, `DateShapes.learn`
takes the text apart: every digit run gets the one field of the instant it matches (year,
month, day, hour, minute, second), the month word and the am/pm marker are noted, the rest is
kept literally. A later date of the same shape is read by one compiled regex (~5 µs); any
other text (a new shape, "Today, 10:32", "3 hours ago", an impossible value) goes to the full
parser, whose answer is learnt in turn.

The shape is what the full parser's answer depends on: its regexes look at digit runs and
separators, its value checks are repeated here, and a shape is learnt only when exactly one
assignment of fields explains the text and reproduces the full parser's instant. Words that
vary between two posts of otherwise equal shape (the weekday) become wildcards, and hour,
day and month runs that came with one and two digits take either. A wildcard word that could
mean anything to the full parser (a month name, a relative day, "ago") sends the text to it.

Shapes live in one page's memo, made per page by the caller: nothing carries across pages,
and so none across sites.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime, time, tzinfo
from typing import NamedTuple, Sequence

from forummod.forum.dates import (
    _DAY_BEFORE, _TODAY, _YESTERDAY, _apply_ampm, _fold, _localize, _month_of, _safe_date, _year, ago_search,
)

_TOKEN_RX = re.compile(r"(\d+)|([^\W\d_]+)|(.)", re.DOTALL)
_AMPM = frozenset({"am", "pm", "上午", "下午", "午前", "午後"})
# words that make the full parser read a text another way than by its digits
_RELATIVE = (*sorted(_TODAY | _YESTERDAY | _DAY_BEFORE), "noon", "midnight", "mezzogiorno", "mezzanotte")
# words of letters only lie inside one word of a text (runs are maximal); the others are searched whole
_RELATIVE_RX = re.compile("|".join(re.escape(w) for w in _RELATIVE if re.fullmatch(r"[^\W\d_]+", w)))
_RELATIVE_PHRASES = tuple(w for w in _RELATIVE if not re.fullmatch(r"[^\W\d_]+", w))

def _relative(s: str) -> bool:
    """Whether the full parser could read `s` as a relative time ("Today", "3 hours ago", "noon")."""
    return bool(_RELATIVE_RX.search(s) or any(p in s for p in _RELATIVE_PHRASES) or ago_search(s))
MAX_SHAPES = 8  # per page: more shapes than this is no page of one layout
MAX_FAILED = 4  # texts that teach no shape before a page stops learning

class _Token(NamedTuple):
    """One piece of a shape (a tuple: shapes are compared and hashed by their tokens, in C)."""

    kind: str  # "digits" (with role), "month" (word), "ampm" (word), "word" (literal), "any" (wildcard word), "char"
    text: str = ""  # literal text ("word", "char"); digits: the lengths seen, as "1", "2" or "12"
    role: str = ""


@dataclass(frozen=True)
class _Shape:
    tokens: tuple[_Token, ...]
    rx: re.Pattern[str]
    plan: tuple[tuple[str, str], ...]  # (kind, role) of each regex group
    wild: bool  # has wildcard words
    at: dict[str, int]  # regex group (0-based) of each field: year, month, day, hour..., "ampm", "month_word"
    word_groups: tuple[int, ...]  # groups holding words (month, am/pm, wildcards)
    seen: dict[tuple[str, ...], bool] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def of(cls, tokens: tuple[_Token, ...]) -> _Shape:
        return cls(tokens, *_shape_parts(tokens))


@lru_cache(maxsize=256)
def _shape_parts(tokens: tuple[_Token, ...]) -> tuple[re.Pattern[str], tuple[tuple[str, str], ...], bool,
                                                     dict[str, int], tuple[int, ...]]:
    """What a shape's tokens alone determine (its regex, group plan and field positions): a pure
    function of the tokens, worked out once per process for each (pages of one forum share
    shapes). The learnt state (`seen`) stays with each page's own `_Shape`; `at` is only read."""
    plan = tuple((t.kind, t.role) for t in tokens if t.kind in ("digits", "month", "ampm", "any"))
    at = {("month_word" if kind == "month" else kind if kind == "ampm" else role): i
          for i, (kind, role) in enumerate(plan) if kind != "any"}
    return (re.compile("".join(_pattern(t) for t in tokens)), plan, any(t.kind == "any" for t in tokens), at,
            tuple(i for i, (kind, _) in enumerate(plan) if kind != "digits"))


class DateShapes:
    """Learnt shapes of one page's dates (never share one between pages)."""

    __slots__ = ("tz", "now_year", "shapes", "hits", "learnt", "failed")

    def __init__(self, tz: tzinfo, now: datetime):
        self.tz = tz
        self.now_year = now.astimezone(tz).year
        self.shapes: list[_Shape] = []
        self.hits = 0  # dates read by a shape (for tests and profiling)
        self.learnt = 0
        self.failed = 0  # texts that taught nothing: a page whose dates have no usable shape stops trying

    def read(self, text: str) -> datetime | None:
        """The instant `text` names if a learnt shape reads it (else None: ask the full parser)."""
        if not self.shapes:
            return None
        s = _fold(" ".join(text.split()))
        for shape in self.shapes:
            m = shape.rx.fullmatch(s)
            if m is not None:
                dt = self._build(shape, m.groups(), s)
                if dt is not None:
                    self.hits += 1
                return dt
        return None

    def learn(self, text: str, dt: datetime) -> None:
        """Remember the shape of `text`, which the full parser read as `dt` (when unambiguous)."""
        if len(self.shapes) >= MAX_SHAPES or self.failed >= MAX_FAILED:
            return
        self.failed += 1  # until the shape is verified below
        raw = " ".join(text.split())
        if raw[:4].isdigit():  # ISO-like texts are read by `parse_iso`, fast already
            return
        s = _fold(raw)
        if _relative(s):
            return
        tokens = self._shape(s, dt)
        if tokens is None:
            return
        replaced = None
        for i, old in enumerate(self.shapes):
            merged = _merge(old.tokens, tokens)
            if merged is not None:
                tokens, replaced = merged, i
                break
        shape = _Shape.of(tokens)
        m = shape.rx.fullmatch(s)
        if m is not None:  # `s` is not relative (checked above): only its words remain to be judged
            words = _words(shape, m.groups())
            shape.seen[words] = _plain_words(shape, words, s, relative=False)
        if m is None or self._build(shape, m.groups(), s) != dt:
            return  # never trust a shape that does not give back the full parser's answer
        if replaced is not None:
            del self.shapes[replaced]
        self.shapes.append(shape)
        self.learnt += 1
        self.failed -= 1

    # ------------------------------------------------------------------ internals

    def _shape(self, s: str, dt: datetime) -> tuple[_Token, ...] | None:
        local = dt.astimezone(self.tz)
        want = {"year": local.year, "month": local.month, "day": local.day, "hour": local.hour,
                "minute": local.minute, "second": local.second}
        parts = _TOKEN_RX.findall(s)  # (digits, word, char), '' for the two a token is not
        words = [w for _, w, _ in parts if w]
        marker = next((w for w in words if w in _AMPM), None)
        month_words = [w for w in words if _month_of(w) is not None]
        if len(month_words) > 1 or (month_words and _month_of(month_words[0]) != local.month):
            return None
        at = [i for i, (d, _, _) in enumerate(parts) if d]  # where the digit runs are
        options = [self._roles(parts[i][0], want, marker, bool(month_words)) for i in at]
        need = {"year", "day"} | (set() if month_words else {"month"})
        found: list[tuple[str, ...]] = []
        _assign(options, 0, (), need, found)
        found = [f for f in found if _clock_in_one_piece(parts, at, f, marker)]
        if len(found) != 1:
            return None  # no assignment (a digit run the date does not explain) or more than one
        roles = iter(found[0])
        out = []
        for d, w, c in parts:
            if d:
                out.append(_Token("digits", str(len(d)), next(roles)))
            elif w and w in month_words:
                out.append(_Token("month"))
            elif w and w == marker:
                out.append(_Token("ampm"))
            elif w:
                out.append(_Token("word", w))
            else:
                out.append(_Token("char", c))
        if not any(t.role == "hour" for t in out) and (local.hour or local.minute or local.second):
            return None
        return tuple(out)

    def _roles(self, d: str, want: dict[str, int], marker: str | None, month_word: bool) -> tuple[str, ...]:
        v, n = int(d), len(d)
        out = []
        if (n == 4 and v == want["year"]) or (n == 2 and not month_word and _year(d, self.now_year) == want["year"]):
            out.append("year")
        if n <= 2:
            if not month_word and v == want["month"]:
                out.append("month")
            if v == want["day"]:
                out.append("day")
            if _apply_ampm(v, marker) == want["hour"] and v < 24:
                out.append("hour")
            if n == 2 and v == want["minute"]:
                out.append("minute")
            if n == 2 and v == want["second"]:
                out.append("second")
        return tuple(out)

    def _build(self, shape: _Shape, groups: Sequence[str], s: str) -> datetime | None:
        words = tuple(groups[i] for i in shape.word_groups)
        plain = shape.seen.get(words)
        if plain is None:  # what the words say depends on them alone (digit values change no regex match)
            plain = shape.seen[words] = _plain_words(shape, words, s)
        if not plain:
            return None
        at = shape.at
        y = groups[at["year"]]
        year = int(y) if len(y) == 4 else _year(y, self.now_year)
        month = _month_of(groups[at["month_word"]]) if "month_word" in at else int(groups[at["month"]])
        hour = int(groups[at["hour"]]) if "hour" in at else 0
        if "ampm" in at:
            hour = _apply_ampm(hour, groups[at["ampm"]])
        minute = int(groups[at["minute"]]) if "minute" in at else 0
        second = int(groups[at["second"]]) if "second" in at else 0
        if not (hour < 24 and minute < 60 and second < 60):
            return None
        d = _safe_date(year, month, int(groups[at["day"]]))  # type: ignore[arg-type]
        if d is None:
            return None
        return _localize(d, time(hour, minute, second), self.tz)


def _words(shape: _Shape, groups: Sequence[str]) -> tuple[str, ...]:
    return tuple(groups[i] for i in shape.word_groups)


def _plain_words(shape: _Shape, words: tuple[str, ...], s: str, relative: bool | None = None) -> bool:
    """The words of a text read by `shape` mean to the full parser what they meant in the text
    it was learnt from: one month name where the month was, an am/pm marker where it was, no
    other month name, and nothing relative ("Today", "hier", "3 hours ago", "noon")."""
    kinds = [kind for kind, _ in shape.plan if kind != "digits"]
    for kind, g in zip(kinds, words):
        if kind == "month":
            if _month_of(g) is None:
                return False
        elif kind == "ampm":
            if g not in _AMPM:
                return False
        elif _month_of(g) is not None or g in _AMPM:
            return False
    return not (_relative(s) if relative is None else relative)


def _assign(options: list[tuple[str, ...]], i: int, chosen: tuple[str, ...], need: set[str],
            found: list[tuple[str, ...]]) -> None:
    """Assignments of distinct roles to the digit runs that cover `need` (at most 16)."""
    if len(found) >= 16:
        return
    if i == len(options):
        if need <= set(chosen) and ("minute" in chosen) == ("hour" in chosen) \
                and ("second" not in chosen or "minute" in chosen):
            found.append(chosen)
        return
    for role in options[i]:
        if role not in chosen:
            _assign(options, i + 1, (*chosen, role), need, found)


def _clock_in_one_piece(parts: list[tuple[str, str, str]], at: list[int], roles: tuple[str, ...],
                        marker: str | None) -> bool:
    """The clock as the full parser reads it: hour, one separator (":", "h" or "."), minute,
    then ":"/"." and second if any, then the am/pm marker (a space at most before it)."""
    where = dict(zip(roles, at))
    if "hour" not in where:
        return marker is None
    h, mi = where["hour"], where["minute"]
    if mi != h + 2 or (parts[h + 1][2] or parts[h + 1][1]) not in (":", "h", "."):
        return False
    end = mi
    if "second" in where:
        if where["second"] != mi + 2 or parts[mi + 1][2] not in (":", "."):
            return False
        end = where["second"]
    if marker is None:
        return True
    after = [p[1] or p[2] for p in parts[end + 1:end + 3]]
    return bool(after) and (after[0] == marker or after[:2] == [" ", marker])


def _merge(a: tuple[_Token, ...], b: tuple[_Token, ...]) -> tuple[_Token, ...] | None:
    """One shape for both when they differ only in literal words (which become wildcards) and
    in the length (1 or 2) of hour, day or month runs; None otherwise."""
    if len(a) != len(b) or a == b:
        return None
    out = []
    for x, y in zip(a, b):
        if x == y:
            out.append(x)
        elif x.kind in ("word", "any") and y.kind in ("word", "any"):
            out.append(_Token("any"))
        elif x.kind == y.kind == "digits" and x.role == y.role and x.role in ("hour", "day", "month") \
                and {x.text, y.text} <= {"1", "2", "12"}:
            out.append(_Token("digits", "12", x.role))
        else:
            return None
    return tuple(out)


def _pattern(t: _Token) -> str:
    if t.kind == "digits":
        return r"(\d{1,2})" if t.text == "12" else rf"(\d{{{t.text}}})"
    if t.kind in ("month", "ampm", "any"):
        return r"([^\W\d_]+)"
    return re.escape(t.text)
