"""The zone a thread page shows its times in, from what the page itself states (issue 28, item 5).

A wrong `sites.x.timezone` dates every post an hour or more off and can drop every vote
before the game's start, so `init` takes the zone from the page and `doctor` checks it. Every
engine states it one way or another:

1. in words: "All times are UTC+01:00" (phpBB, vBulletin; `page_locale.stated_zone`);
2. in `<time datetime="…Z">Dec 01, 2026, 07:05 PM</time>` elements: the instant beside the wall
   time the reader is shown (SMF's header clock, phpBB's post dates): their difference is the
   offset;
3. in a clock the page prints ("Current time: 12-01-2026, 07:04 PM", MyBB; "It is currently …",
   phpBB): against the HTTP `Date` of the fetch it gives the offset to the quarter hour.

Pure: the page's text and the fetch's time in, a zone or None out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

QUARTER = timedelta(minutes=15)


@dataclass(frozen=True)
class PageZone:
    zone: tzinfo
    label: str  # "Europe/Rome", "UTC+01:00"
    how: str  # "stated" (in words), "time elements", "page clock"

    @property
    def offset_only(self) -> bool:
        return not isinstance(self.zone, ZoneInfo)


def page_zone(profile: Any, html: str, *, http_date: datetime | None, now: datetime) -> PageZone | None:
    """The zone `html` (a thread page of `profile`'s engine) states, or None when it states none."""
    from forummod.forum.page_locale import stated_zone

    zone, said = stated_zone(html)
    if zone is not None:
        return PageZone(zone, said, "stated")
    from forummod.forum.html_engine import parse_html

    root = parse_html(html, lean=True)
    ctx = _utc_context(profile, root, html, http_date or now)
    off = _time_elements_offset(root, ctx)
    if off is not None:
        return PageZone(timezone(off), offset_label(off), "time elements")
    if http_date is not None:
        from forummod.forum.page_clock import stated_clock

        shown = stated_clock(root, ctx=ctx)  # the wall time it prints, read as if it were UTC
        off = _rounded(shown - http_date, slack=timedelta(minutes=3)) if shown is not None else None
        if off is not None:
            return PageZone(timezone(off), offset_label(off), "page clock")
    return None


def _utc_context(profile: Any, root: Any, html: str, now: datetime) -> Any:
    """The page's date order and languages, with wall times read as UTC (no zone applied)."""
    from forummod.forum.html_engine import DateContext
    from forummod.forum.page_locale import order_for, page_lang

    lang, region = page_lang(root)
    order = profile.date_order if profile.date_pinned else order_for(lang, region, profile.date_order)
    languages = profile.languages if not lang or lang in profile.languages else (lang, *profile.languages)
    return DateContext(tz=timezone.utc, now=now + timedelta(days=1), order=order, formats=profile.date_formats,
                       languages=languages)


def _time_elements_offset(root: Any, ctx: Any) -> timedelta | None:
    """The offset every `<time datetime>` with a full date in its text agrees on (None: none, or
    they disagree)."""
    from forummod.forum.dates import DateNotUnderstood, parse_forum_date

    found: set[timedelta] = set()
    for el in root.xpath("//time[@datetime]")[:20]:
        text = " ".join(el.text_content().split())
        try:
            instant = datetime.fromisoformat(el.get("datetime").strip().replace("Z", "+00:00"))
        except ValueError:
            continue
        if instant.tzinfo is None or not any(ch.isdigit() for ch in text) or ":" not in text:
            continue
        try:
            shown = parse_forum_date(text, tz=timezone.utc, now=ctx.now, order=ctx.order, formats=ctx.formats,
                                     languages=ctx.languages, allow_dateparser=False)
        except DateNotUnderstood:
            continue
        off = _rounded(shown - instant, slack=timedelta(seconds=90))
        if off is not None:
            found.add(off)
    return found.pop() if len(found) == 1 else None


def _rounded(diff: timedelta, *, slack: timedelta) -> timedelta | None:
    """`diff` as a zone offset (a whole quarter hour within ±14 h), when it is one within `slack`."""
    off = QUARTER * round(diff / QUARTER)
    if abs(diff - off) > slack or abs(off) > timedelta(hours=14):
        return None
    return off


def offset_label(off: timedelta) -> str:
    if not off:
        return "UTC"
    minutes = int(abs(off).total_seconds()) // 60
    return f"UTC{'+' if off > timedelta(0) else '-'}{minutes // 60:02d}:{minutes % 60:02d}"


def zone_name(found: PageZone, preferred: str, at: datetime) -> str | None:
    """A `sites.x.timezone` value for the zone a page states: its IANA name when it gives one;
    `preferred` (e.g. the ruleset's zone) when its offset agrees at `at` (it knows summer time);
    "UTC"; a whole-hour "Etc/GMT∓N"; else None (a half-hour offset with no name)."""
    if isinstance(found.zone, ZoneInfo):
        return found.zone.key
    off = found.zone.utcoffset(None) or timedelta(0)
    try:
        if preferred and at.astimezone(ZoneInfo(preferred)).utcoffset() == off:
            return preferred
    except (KeyError, ValueError):
        pass
    if not off:
        return "UTC"
    hours, rest = divmod(int(off.total_seconds()), 3600)
    return f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}" if not rest else None
