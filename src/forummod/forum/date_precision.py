"""Whether a post's date, as the page printed it, says the minute: no date silently wrong.

The date parser always returns an instant; a page does not always print one. "23 April 2020"
has no time of day, "3 weeks ago" and "14 hours ago" are a day or an hour wide, "Thursday 23rd
April" has no year, and a relative or year-less date read from a saved page whose saving time
is unknown may be off by as much as the page is old. `imprecision` names what the printed
value lacks, so the post is kept but flagged `date_guessed` with that reason (a guessed date
never decides a deadline). A year or century the value omits but that is resolved against the
page's own clock or the fetch time (forums print the year only for older posts) is no gap; a
weekday that does not match the date read is.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from forummod.forum.dates import _WORD_RX, _cldr_weekday_words, _fold

_TIME = re.compile(r"\d{1,2}\s*[:h]\s*\d\d|\d{1,2}\s*[ap]\.?m\b", re.IGNORECASE)
_ISO_DAY_ONLY = re.compile(r"\s*\d{4}-\d{1,2}-\d{1,2}(?:[T ]00:00(?::00(?:\.0+)?)?(?:Z|[+-]\d\d:?\d\d)?)?\s*")
_UNIX = re.compile(r"\s*\d{9,13}(?:\.\d+)?\s*")
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)|'\d\d\b|(?<=[./-])\d\d(?![\d:])|(?<!\d)\d\d(?=[./-]\d{1,2}[./-]\d{1,2}(?!\d))")
# a number and a unit of time, as relative dates print them ("3 weeks ago", "vor 2 Tagen",
# "il y a 5 heures", "10 Monate 3 Wochen", "2 дня назад"); minutes and seconds say the minute
_COARSE_UNIT = re.compile(
    r"(?:\d+|\ban?\b|\bone\b|\bein\w*|\bun\w*)\s*(hour|hr|stunde|heure|hora|ora\b|ore\b|час|uur|小时|"
    r"day|tag|jour|día|dia\b|giorn|дн|день|dag|天|week|woche|semaine|semana|settiman|недел|weken|周|"
    r"month|monat|mois|mes\b|meses|mesi|месяц|maand|个月|year|jahr|an\b|ans\b|año|ano\b|anni|anno|год|лет|jaar|年)",
    re.IGNORECASE)
_RELATIVE = re.compile(r"\d+\s*(?:sec|second|min|minute|sekunde|minute|seconde|segundo|minuto|секунд|минут|"
                       r"秒|分)\w*|today|yesterday|heute|gestern|aujourd|hier\b|hoy|ayer|oggi|ieri|сегодня|вчера|"
                       r"vandaag|gisteren|今天|昨天|\bago\b|\bvor\b|il y a|hace|\bfa\b|назад|geleden|前|\bher\b",
                       re.IGNORECASE)


_NUMERIC = re.compile(r"(?<![\d.:/-])(\d{1,2})[./-](\d{1,2})[./-](?:\d{2}|\d{4})(?![\d./-])")


def imprecision(value: str, read: datetime, *, from_attr: bool, clock_known: bool,
                languages: tuple[str, ...] = (), order_known: bool = True) -> str:
    """Why the printed `value` (read as `read`) does not give the post's minute; "" when it does.
    `from_attr`: the value is a machine-readable attribute (ISO 8601, Unix time); `clock_known`:
    relative and year-less values were read against the page's own clock or the fetch time (a
    saved page without either is read against the present); `order_known`: the day/month order
    of numeric dates is proven by the page (its language, a day over 12 in another date)."""
    if from_attr:
        # a day, or midnight to the second: a day dressed as a time (a post at 00:00:00 is rare)
        if _ISO_DAY_ONLY.fullmatch(value):
            return f"the page gives the day only ({value.strip()}), no time of day"
        return ""
    text = " ".join(value.split())
    coarse = _COARSE_UNIT.search(text)
    if coarse and not _TIME.search(text):
        unit = _unit_name(coarse.group(1))
        return f"the page shows only {text!r}: {'an' if unit == 'hour' else 'a'} {unit} wide"
    relative = bool(coarse or _RELATIVE.search(text))
    if relative and not clock_known:
        return f"{text!r} is relative to when the page was saved, which the page does not state (give --saved-at)"
    if not _TIME.search(text) and not relative:
        return f"the page shows {text!r}: no time of day"
    if not relative and not _YEAR.search(text) and not clock_known:
        return f"the page shows {text!r}: no year, and when the page was saved is unknown (give --saved-at)"
    m = _NUMERIC.search(text)
    if m and not order_known and int(m.group(1)) <= 12 and int(m.group(2)) <= 12 and m.group(1) != m.group(2):
        return (f"the page shows {text!r}: day and month could be either way round, and neither the page's "
                "language nor its other dates tell")
    wrong_day = _weekday_mismatch(text, read, languages)
    if wrong_day:
        return f"the page shows {text!r}, but {read:%Y-%m-%d} is a {read:%A}, not a {wrong_day}: the year is a guess"
    return ""


def _unit_name(word: str) -> str:
    w = word.casefold()
    for name, starts in (("hour", ("hour", "hr", "stund", "heure", "hora", "ora", "ore", "час", "uur", "小时")),
                         ("day", ("day", "tag", "jour", "día", "dia", "giorn", "дн", "день", "dag", "天")),
                         ("week", ("week", "woche", "semaine", "semana", "settiman", "недел", "周"))):
        if w.startswith(starts):
            return name
    if w.startswith(("month", "monat", "mois", "mes", "месяц", "maand", "个月")):
        return "month"
    return "year"


def _weekday_mismatch(text: str, read: datetime, languages: tuple[str, ...]) -> str:
    """The weekday the text names when the date read falls on another one ("" otherwise)."""
    words = {_fold(w.group(0).rstrip(".")) for w in _WORD_RX.finditer(text)}
    if not words:
        return ""
    for lang in (*(lang for lang in languages if lang), "en"):
        table = _weekday_words(lang)
        named = next(((w, table[w]) for w in words if w in table), None)
        if named is not None:
            return "" if named[1] == read.weekday() else named[0]
    return ""


@lru_cache(maxsize=32)
def _weekday_words(lang: str) -> dict[str, int]:
    """CLDR weekday names of `lang`, wide and abbreviated ("thursday", "thu"), folded -> Monday=0."""
    out = dict(_cldr_weekday_words(lang))
    try:
        from babel.dates import get_day_names

        for num, name in get_day_names("abbreviated", locale=lang).items():
            out.setdefault(_fold(name.rstrip(".")), num)
    except Exception:  # an unknown locale gives only the wide names
        pass
    return out


def out_of_order(times: list[datetime], now: datetime) -> dict[int, str]:
    """Posts whose date breaks the page's order: a thread runs oldest first (or, on some boards,
    newest first: whichever keeps more posts in order), and no post is written after the fetch.
    The posts kept are the longest run in order (not necessarily adjacent); the others are the
    dates a guessed year or a wrong day/month order moved."""
    out = {i: f"{t:%Y-%m-%d %H:%M} is after the page was read" for i, t in enumerate(times) if t > now}
    rest = [i for i in range(len(times)) if i not in out]
    up = _longest_in_order([times[i] for i in rest])
    down = _longest_in_order([-times[i].timestamp() for i in rest])  # type: ignore[misc]
    keep = {rest[j] for j in (up if len(up) >= len(down) else down)}
    for i in rest:
        if i not in keep:
            out[i] = f"{times[i]:%Y-%m-%d %H:%M} is out of order with the posts around it"
    return out


def _longest_in_order(values: list) -> list[int]:
    """Indices of a longest non-decreasing subsequence; of equally long ones, the one that keeps
    the earliest posts (the opening post anchors a thread). Quadratic: a page holds few posts."""
    n = len(values)
    best = [1] * n  # longest run starting at i
    nxt = [-1] * n
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, n):
            if values[j] >= values[i] and best[j] + 1 > best[i]:
                best[i], nxt[i] = best[j] + 1, j
    if not n:
        return []
    i = max(range(n), key=lambda k: (best[k], -k))
    run = []
    while i != -1:
        run.append(i)
        i = nxt[i]
    return run
