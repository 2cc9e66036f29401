"""What a page says about its own dates: language, numeric day/month order and time zone.

A forum prints dates in the reader's language and zone, and most pages say which: `<html
lang="fr">`, a footer "All times are UTC+02:00" / "Fuseau horaire GMT +1" / "Alle Zeiten sind
UTC" (often with the IANA name in a title), "UTC - 8 hours [DST]" on phpBB 3.0. These are read
before any default, so a French vBulletin's "04/02/2005" is the 4th of February and a post
shown as 22:03 on a forum set to Europe/Rome is stored as 21:03Z, not 22:03Z. Where the page
states no zone, `infer_offset` compares the newest post's shown time with the HTTP `Date`
of the fetch (only a post of the last hour tells anything). Pure functions; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# languages whose numeric dates are day-first / year-first (English depends on the region)
_YMD_LANGS = {"zh", "ja", "ko", "hu", "lt", "mn"}
_MDY_REGIONS = {"us", "ph", "ca"}  # en-US, en-PH, en-CA write month first

# how footers lead into the zone, in the language packs of phpBB 2/3, vBulletin 3/4, MyBB, SMF:
# "All times are GMT -5", "Alle Zeitangaben in WEZ +1", "Heures au format UTC+01:00",
# "Wszystkie czasy w strefie UTC + 1 godzina", "所有时间均为 GMT +8", "Часовой пояс GMT +3"
_ZONE_LEAD = (r"(?:all times are|times are|alle zeiten sind|alle zeitangaben in|tutti gli orari sono|"
              r"toutes les heures sont|heures au format|fuseau horaire|alle tijden zijn|todas las horas son|"
              r"todos los horarios son|todos os horários são|wszystkie czasy w strefie|strefa czasowa|w strefie|au format|"
              r"часовой пояс|все время указано по|все время|время|所有时间均为|所有时间为|所有時間均為|时区为|時區為|时区|"
              r"zeitzone|fuso orario|orario|timezone|time zone)")
# "UTC - 8 hours", "GMT +5.5" (vBulletin's half hours), "UTC+02:00"; WEZ is German vBulletin's GMT
_OFFSET = (r"(?:UTC|GMT|WEZ)\s*(?:([+\-−])\s*(\d{1,2})(?:([:.])(\d{1,2}))?"
           r"(?:\s*(?:hours?|heures?|ore|ora|stunden?|uur|horas?|godzin\w*|час\w*))?)?")
_DST = (r"(\[\s*(?:<abbr[^>]*>\s*)?(?:DST|ora legale|heure d.été|sommerzeit|zomertijd|horario de verano|"
        r"hor[áa]rio de ver[ãa]o|czas letni|летнее время))")
# phpBB 3.1+ names the zone in a title: an IANA name ("Europe/Paris"), or for the board's
# fixed-offset choices a label ("UTC-6") that is no IANA name: then the text's offset is read
_ZONE_RX = re.compile(_ZONE_LEAD + r"[\s:：]*(?:<[^>]*title=\"([^\"<>]*)\"[^>]*>)?\s*" + _OFFSET
                      + r"\s*(?:</\w+>)?\s*" + _DST + "?", re.IGNORECASE)


@dataclass(frozen=True)
class PageLocale:
    lang: str = ""  # primary language subtag, lowercase ("fr"), "" when the page says none
    region: str = ""
    zone: tzinfo | None = None  # the zone the page says its times are in
    zone_text: str = ""  # how the page said it ("UTC+02:00 (Europe/Paris)")


def page_lang(root: Any) -> tuple[str, str]:
    """(language, region) of `<html lang>` (or xml:lang / meta content-language)."""
    val = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang") or ""
    if not val:
        metas = root.xpath("//meta[translate(@http-equiv,'CONTENT-LANGUAGE','content-language')"
                           "='content-language']/@content")
        val = metas[0] if metas else ""
    m = re.match(r"\s*([A-Za-z]{2,3})(?:[-_]([A-Za-z]{2,4}))?", val)
    if not m:
        return "", ""
    return m.group(1).lower(), (m.group(2) or "").lower()


def order_for(lang: str, region: str, default: str) -> str:
    """Numeric date order a page in `lang` uses; `default` (the profile's) for plain English."""
    if not lang:
        return default
    if lang in _YMD_LANGS:
        return "YMD"
    if lang == "en":
        if region in _MDY_REGIONS:
            return "MDY"
        return "DMY" if region else default
    return "DMY"


def _holds(data: bytes, word: bytes) -> bool:
    """`word in data`, by memchr hops to its first byte (a few hundred on a page), then checks
    there: `in` walks every byte at ~1 ns each (0.15 ms a marker on a 150 KB page). After 64
    hops, or one per 512 bytes of a longer page (a page full of capitals, base64), the plain
    search takes the rest."""
    lead = word[:1]
    i = data.find(lead)
    hops, most = 0, max(64, len(data) >> 9)  # a hop (~0.25 us) costs what the plain search spends on ~350 bytes
    while i >= 0:
        if data.startswith(word, i):
            return True
        hops += 1
        if hops > most:
            return data.find(word, i + 1) >= 0
        i = data.find(lead, i + 1)
    return False


def stated_zone(html: str, utf8: bytes | None = None) -> tuple[tzinfo | None, str]:
    """The zone a page states for its times (IANA name when it gives one, else the offset).
    Only the text around "UTC"/"GMT" is searched: most pages state nothing, and a regex over
    every whole page would cost a poll more than the statement is worth. `utf8`: the text's
    UTF-8 bytes when at hand, where a marker's absence is proved faster (the same ASCII)."""
    m = None
    for marker in ("UTC", "GMT", "WEZ"):
        if utf8 is not None and not _holds(utf8, marker.encode("ascii")):
            continue  # absent from the bytes, so from the text
        pos = html.find(marker)
        tries = 0
        while pos >= 0 and m is None and tries < 8:
            m = _ZONE_RX.search(html, max(0, pos - 160), pos + 60)
            pos = html.find(marker, pos + 3)
            tries += 1
        if m:
            break
    if not m:
        return None, ""
    iana, sign, hours, sep, minutes, dst = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)
    if iana:
        try:
            return ZoneInfo(iana), iana
        except (ZoneInfoNotFoundError, ValueError):
            pass
    off = timedelta(hours=int(hours or 0), minutes=_offset_minutes(sep, minutes))
    if sign in ("-", "−"):
        off = -off
    if dst:  # phpBB 3.0 prints the base offset and flags summer time separately
        off += timedelta(hours=1)
    if abs(off) > timedelta(hours=14):
        return None, ""
    label = "UTC" if not off else f"UTC{'+' if off >= timedelta(0) else '-'}{_hhmm(abs(off))}"
    return timezone(off), label


def _offset_minutes(sep: str | None, digits: str | None) -> int:
    """Minutes of an offset: "+05:30" and "+5.30" are minutes, vBulletin's "+5.5" and "+5.75" hours."""
    if not digits:
        return 0
    if sep == "." and digits in ("5", "25", "75", "50"):
        return round(float("0." + digits) * 60)
    return int(digits) if int(digits) < 60 else 0


def _hhmm(d: timedelta) -> str:
    total = int(d.total_seconds()) // 60
    return f"{total // 60:02d}:{total % 60:02d}"


def read_page_locale(root: Any, html: str, utf8: bytes | None = None) -> PageLocale:
    """`utf8`: `html`'s UTF-8 bytes, when the caller has them (see `stated_zone`)."""
    lang, region = page_lang(root)
    zone, text = stated_zone(html, utf8) if html else (None, "")
    return PageLocale(lang=lang, region=region, zone=zone, zone_text=text)


def same_offset(a: tzinfo, b: tzinfo, at: datetime) -> bool:
    return a.utcoffset(at.replace(tzinfo=None)) == b.utcoffset(at.replace(tzinfo=None)) \
        if isinstance(a, timezone) or isinstance(b, timezone) else \
        at.astimezone(a).utcoffset() == at.astimezone(b).utcoffset()


def infer_offset(newest_shown_as_utc: datetime, http_date: datetime) -> timedelta | None:
    """The whole-hour UTC offset under which the newest post (its shown wall time read as if it
    were UTC) is less than an hour older than the server's clock at the fetch (`http_date`).
    Offsets 15 minutes apart fit as well; the whole hour is what most forums use."""
    diff = newest_shown_as_utc - http_date  # = offset - age of the post
    for hours in range(-12, 15):
        age = timedelta(hours=hours) - diff
        if timedelta(0) <= age < timedelta(hours=1):
            return timedelta(hours=hours)
    return None


@dataclass(frozen=True)
class ZoneCheck:
    verdict: str  # "consistent", "wrong" (the configured zone puts the newest post in the future), "cannot tell"
    message: str = ""
    inferred: timedelta | None = None


def check_zone(newest_shown_as_utc: datetime, http_date: datetime, configured: tzinfo, zone_name: str) -> ZoneCheck:
    """Whether the configured zone agrees with what the forum shows. Only a post of the last
    hour or a post "from the future" tells anything; a quiet thread says nothing ("cannot tell")."""
    off = configured.utcoffset(newest_shown_as_utc.replace(tzinfo=None)) or timedelta(0)
    age = http_date - (newest_shown_as_utc - off)
    if timedelta(0) - timedelta(minutes=2) <= age < timedelta(hours=1):
        return ZoneCheck("consistent")
    if age >= timedelta(hours=1):
        return ZoneCheck("cannot tell")
    inferred = infer_offset(newest_shown_as_utc, http_date)
    shown = f"UTC{'+' if inferred >= timedelta(0) else '-'}{_hhmm(abs(inferred))}" if inferred is not None else "?"
    return ZoneCheck("wrong", f"the newest post shows {newest_shown_as_utc:%H:%M}, which in the configured zone "
                     f"{zone_name} is {-age} after the server's clock ({http_date:%H:%M} UTC): the forum "
                     f"shows times in {shown}, not {zone_name}; set the site's timezone to the forum's", inferred)
