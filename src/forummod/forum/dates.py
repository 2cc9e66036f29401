"""Forum dates to aware UTC datetimes, purely (the clock is the `now` parameter).

Forums show times in many shapes: ISO attributes, Unix stamps, "Sun Jul 28, 2013 1:34 pm",
"martedì 21 gennaio 2020, 14:24", "10/05/2006, 13h16", "Today, 10:32", "Вчера в 18:05",
"2020年4月24日 10:16", Django's "March 1, 2024, noon". The fast path is a tolerant tokenizer
(month names of several languages, numeric dates in the profile's field order, relative
day words); explicit strptime formats come first when a profile gives them, and dateparser
is the last resort for strings nothing else understands (it is slow, so it stays off the
hot path).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from typing import Iterable, Sequence

# month words -> number, several languages; abbreviations are prefixes handled below
_MONTHS: dict[str, int] = {}
_MONTH_NAMES = {
    "en": "january february march april may june july august september october november december",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    "ru2": "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
}
for _names in _MONTH_NAMES.values():
    for _i, _n in enumerate(_names.split(), start=1):
        _MONTHS[_n] = _i
# common abbreviations that are not plain prefixes of the names above
_MONTHS.update({"sept": 9, "mär": 3, "mrz": 3, "okt": 10, "dez": 12, "déc": 12, "févr": 2, "févr.": 2,
                "juil": 7, "janv": 1, "avr": 4, "mei": 5, "mag": 5, "giu": 6, "lug": 7, "ago": 8, "set": 9,
                "ott": 10, "dic": 12, "gen": 1, "янв": 1, "фев": 2, "мар": 3, "апр": 4, "июн": 6,
                "июл": 7, "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12})

_TODAY = {"today", "oggi", "сегодня", "vandaag", "今天", "heute", "aujourd'hui", "aujourd’hui", "hoy", "hoje", "今日"}
_YESTERDAY = {"yesterday", "ieri", "вчера", "gisteren", "昨天", "gestern", "hier", "ayer", "ontem", "昨日"}
_DAY_BEFORE = {"前天", "позавчера", "eergisteren", "l'altro ieri", "altroieri", "vorgestern"}

_WEEKDAY_LIKE = {"mar", "mer", "gio", "ven", "sab", "dom", "lun", "mai"}

# more languages' day words (Polish, Spanish, Portuguese, French "avant-hier"): the day before
# yesterday is looked for first, so "avant-hier" is not read as "hier"
_TODAY.update({"dzisiaj", "dziś", "сьогодні", "bugün"})
_YESTERDAY.update({"wczoraj", "вчора", "dün"})
_DAY_BEFORE.update({"avant-hier", "anteayer", "antier", "anteontem", "przedwczoraj", "l’altro ieri", "позавчора"})
_WORD_RX = re.compile(r"[^\W\d_]+\.?", re.UNICODE)
_TIME_RX = re.compile(
    r"(?<![\d:./-])(\d{1,2})\s*(?:[:h]|\.(?=\d\d\b))\s*(\d{2})(?![./-]\d)(?:[:.](\d{2}))?(?:\.\d+)?\s*"
    r"(a\.?\s?m\.?|p\.?\s?m\.?|上午|下午|午前|午後)?(?![\d])",
    re.IGNORECASE,
)
_HOUR_AMPM_RX = re.compile(r"(?<![\d:])(\d{1,2})\s*(a\.?\s?m\.?|p\.?\s?m\.?)(?![a-z])", re.IGNORECASE)
_ISO_RX = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?")
_CJK_RX = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*日")
_NUMERIC_RX = re.compile(r"(?<![\d:])(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})(?![\d:])")
_NUMERIC2_RX = re.compile(r"(?<![\d:./-])(\d{1,2})[./-](\d{1,2})(?![\d:./-])")
_YEAR_RX = re.compile(r"(?<!\d)('?\d{2}|\d{4})(?!\d)")
_DAYNUM_RX = re.compile(r"(?<![\d:])(\d{1,2})(?:st|nd|rd|th|er|\.|º)?(?![\d:])")
_AGO_RX = re.compile(
    r"(\d+|an?|one|un[ao]?)\s*(second|sec|minute|min|hour|hr|day|week|month|year|secondi|minut[io]|or[ae]|giorn[io]|"
    r"settiman[ae]|mes[ei]|ann[io]|секунд\w*|минут\w*|час\w*|дн\w*|день|недел\w*|месяц\w*|год\w*|лет|"
    r"seconden|minuten|minuut|uur|uren|dag|dagen|weken|week|maanden|maand|jaar|秒|分钟|小时|天|周|个月|年)\w*\s*"
    r"(ago|fa|назад|geleden|前)",
    re.IGNORECASE,
)
# What every _AGO_RX match ends with, searched alone (same flags): a text without it holds no
# match, and this costs a microsecond where _AGO_RX, trying its number at every place, costs 25.
_AGO_TAIL_RX = re.compile(r"ago|fa|назад|geleden|前", re.IGNORECASE)


def ago_search(s: str) -> re.Match[str] | None:
    """`_AGO_RX.search(s)`, with the cheap necessary test first."""
    return _AGO_RX.search(s) if _AGO_TAIL_RX.search(s) else None
_AGO_UNITS = [
    (("sec", "secondi", "секунд", "seconden", "秒"), 1),
    (("min", "minut", "минут", "minuut", "minuten", "分钟"), 60),
    (("hour", "hr", "or", "час", "uur", "uren", "小时"), 3600),
    (("day", "giorn", "дн", "день", "dag", "天"), 86400),
    (("week", "settiman", "недел", "weken", "周"), 7 * 86400),
    (("month", "mes", "месяц", "maand", "个月"), 30 * 86400),
    (("year", "ann", "год", "лет", "jaar", "年"), 365 * 86400),
]


class DateNotUnderstood(ValueError):
    """No date could be read from a string (the caller decides whether that is a layout problem)."""


def _fold(s: str) -> str:
    s = unicodedata.normalize("NFKC", s).replace("\xa0", " ").replace("\u202f", " ")
    return s.casefold()


@lru_cache(maxsize=8192)
def _month_of(word: str) -> int | None:
    w = word.rstrip(".").casefold()
    if w in _MONTHS:
        return _MONTHS[w]
    if len(w) >= 3:
        for name, num in _MONTHS.items():
            if name.startswith(w):
                return num
    return None


def from_timestamp(value: str | int | float) -> datetime:
    """A Unix timestamp (seconds, or milliseconds when it is that large) as aware UTC."""
    v = float(value)
    if v > 1e11:
        v /= 1000.0
    return datetime.fromtimestamp(v, tz=timezone.utc)


def parse_iso(value: str, tz: tzinfo) -> datetime | None:
    """ISO 8601 (with 'Z', '+0200' or no offset, which means forum-local time)."""
    s = value.strip()
    if not s or not s[0].isdigit():
        return None
    s2 = s.replace("Z", "+00:00")
    s2 = re.sub(r"([+-]\d{2})(\d{2})$", r"\1:\2", s2)
    try:
        dt = datetime.fromisoformat(s2)
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=tz)
    return dt.astimezone(timezone.utc)


def parse_attr_value(value: str, tz: tzinfo) -> datetime | None:
    """A machine-readable attribute: Unix seconds/ms or ISO 8601."""
    v = value.strip()
    if re.fullmatch(r"\d{9,13}(\.\d+)?", v):
        return from_timestamp(v)
    return parse_iso(v, tz)


def _localize(d: date, t: time, tz: tzinfo) -> datetime:
    naive = datetime.combine(d, t)
    return naive.replace(tzinfo=tz).astimezone(timezone.utc)


def _apply_ampm(hour: int, marker: str | None) -> int:
    if not marker:
        return hour
    m = marker.replace(".", "").replace(" ", "").casefold()
    pm = m in ("pm", "下午", "午後")
    am = m in ("am", "上午", "午前")
    if pm and hour < 12:
        return hour + 12
    if am and hour == 12:
        return 0
    return hour


def _find_time(s: str) -> tuple[time | None, str]:
    """The clock time in `s` and `s` with it removed (so its digits don't look like a date)."""
    if "noon" in s or "mezzogiorno" in s:
        return time(12, 0), s.replace("noon", " ")
    if "midnight" in s or "mezzanotte" in s:
        return time(0, 0), s.replace("midnight", " ")
    m = _TIME_RX.search(s)
    if m:
        h, mi, sec = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        h = _apply_ampm(h, m.group(4))
        if h < 24 and mi < 60 and sec < 60:
            return time(h, mi, sec), s[: m.start()] + " " + s[m.end():]
    m = _HOUR_AMPM_RX.search(s)
    if m:
        h = _apply_ampm(int(m.group(1)), m.group(2))
        if h < 24:
            return time(h, 0), s[: m.start()] + " " + s[m.end():]
    return None, s


def _year(y: str, now_year: int) -> int:
    y = y.lstrip("'")
    v = int(y)
    if len(y) <= 2:
        v += 2000 if v <= (now_year % 100) + 1 else 1900
    return v


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _numeric_date(a: str, b: str, c: str, order: str, now_year: int) -> date | None:
    if len(a) == 4:  # Y-M-D whatever the profile says
        return _safe_date(int(a), int(b), int(c))
    if order == "MDY":
        return _safe_date(_year(c, now_year), int(a), int(b))
    if order == "YMD":
        return _safe_date(_year(a, now_year), int(b), int(c))
    return _safe_date(_year(c, now_year), int(b), int(a))


def _find_date(s: str, order: str, local_now: datetime) -> date | None:
    m = _ISO_RX.search(s)
    if m:
        return _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _CJK_RX.search(s)
    if m:
        y = int(m.group(1)) if m.group(1) else local_now.year
        d = _safe_date(y, int(m.group(2)), int(m.group(3)))
        if d and not m.group(1) and d > local_now.date():
            d = _safe_date(y - 1, int(m.group(2)), int(m.group(3)))
        return d
    m = _NUMERIC_RX.search(s)
    if m:
        sep_order = "DMY" if "." in m.group(0) and order == "MDY" else order  # 08.11.2009 is day-first everywhere
        return _numeric_date(m.group(1), m.group(2), m.group(3), sep_order, local_now.year)
    # month written as a word
    month = None
    month_span = None
    found = [(mo, wm.span(), wm.group(0).rstrip(".")) for wm in _WORD_RX.finditer(s)
             if (mo := _month_of(wm.group(0))) is not None]
    if len(found) > 1:  # "Mar 8 Jan 2018": "mar" is Tuesday in it/fr/es, not March
        found = [f for f in found if f[2] not in _WEEKDAY_LIKE] or found
    if found:
        month, month_span = found[0][0], found[0][1]
    if month is not None and month_span is not None:
        rest = s[: month_span[0]] + " | " + s[month_span[1]:]
        years = [y for y in _YEAR_RX.finditer(rest) if len(y.group(1).lstrip("'")) == 4 or y.group(1).startswith("'")]
        year = _year(years[0].group(1), local_now.year) if years else None
        if years:
            rest = rest[: years[0].start()] + " " + rest[years[0].end():]
        bar = rest.index("|")
        adj_before = re.search(r"(?<![\d#])(\d{1,2})(?:st|nd|rd|th|er|\.|º)?\s*(?:de\s+)?$", rest[:bar].rstrip(" ,"))
        adj_after = re.match(r"\s*\|\s*,?\s*(\d{1,2})(?!\d)", rest[bar:])
        day = None
        for cand in (adj_before, adj_after):
            if cand and 1 <= int(cand.group(1)) <= 31:
                day = int(cand.group(1))
                break
        if day is None:
            days = [int(d.group(1)) for d in _DAYNUM_RX.finditer(rest) if 1 <= int(d.group(1)) <= 31]
            if not days:
                return None
            day = days[0]
        if year is None:
            d = _safe_date(local_now.year, month, day)
            if d and d > local_now.date() + timedelta(days=1):
                d = _safe_date(local_now.year - 1, month, day)
            return d
        return _safe_date(year, month, day)
    m = _NUMERIC2_RX.search(s)
    if m:  # day and month without a year (e.g. "24.04 18:10")
        a, b = int(m.group(1)), int(m.group(2))
        dm = (b, a) if order == "MDY" else (a, b)
        d = _safe_date(local_now.year, dm[1], dm[0])
        if d and d > local_now.date() + timedelta(days=1):
            d = _safe_date(local_now.year - 1, dm[1], dm[0])
        return d
    return None


def _relative(s: str, local_now: datetime) -> date | None:
    for w in _DAY_BEFORE:
        if w in s:
            return local_now.date() - timedelta(days=2)
    for w in _TODAY:
        if w in s:
            return local_now.date()
    for w in _YESTERDAY:
        if w in s:
            return local_now.date() - timedelta(days=1)
    return None


def parse_forum_date(
    text: str,
    *,
    tz: tzinfo,
    now: datetime,
    order: str = "DMY",
    formats: Sequence[str] = (),
    languages: Iterable[str] = (),
    allow_dateparser: bool = True,
) -> datetime:
    """The instant a forum string names, as aware UTC; raise DateNotUnderstood if none.

    `order` resolves numeric dates ("04-06-2019": MDY on a US vBulletin, DMY in Europe);
    `now` (aware) anchors "Today", "Ieri", "2 hours ago" and year-less dates.
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    raw = " ".join(text.split())
    if not raw:
        raise DateNotUnderstood("empty date")
    local_now = now.astimezone(tz)
    iso = parse_iso(raw, tz)
    if iso is not None:
        return iso
    for fmt in formats:
        try:
            dt = datetime.strptime(raw, fmt)
        except ValueError:
            continue
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=tz)
        return dt.astimezone(timezone.utc)
    s = _fold(raw)
    m = ago_search(s)
    if m:
        n = m.group(1)
        count = int(n) if n.isdigit() else 1
        unit = m.group(2)
        for prefixes, seconds in _AGO_UNITS:
            if unit.startswith(prefixes):
                return (now - timedelta(seconds=count * seconds)).astimezone(timezone.utc)
    ago = _ago_other_forms(s, now)
    if ago is not None:
        return ago
    t, rest = _find_time(s)
    d = _relative(rest, local_now)
    if d is None:
        d = _find_date(rest, order, local_now)
    if d is None:
        d = _find_date_cldr_months(rest, order, local_now, languages)
    if d is None and t is not None:
        d = _weekday_within_a_week(rest, local_now, languages)
    if d is not None:
        return _localize(d, t or time(0, 0), tz)
    if allow_dateparser:
        dt = _dateparser(raw, tz, now, languages, order)
        if dt is not None:
            return dt
    raise DateNotUnderstood(f"no date in {raw!r}")


# --------------------------------------------------------------------------- more languages
# "vor 2 Stunden", "il y a 2 heures", "hace 2 horas", "há 2 horas", "2 godziny temu", "un'ora fa",
# "час назад", "半小时前", "just now": relative forms _AGO_RX does not know, resolved against `now`
_AGO_NUM = r"(\d+|an?|one|une?|un'|un’|una|uno|ein(?:e[mnr]?)?|uma?|jeden|jedn[aą]|один|одну|een|半)"
_AGO_UNIT = r"(秒钟?|分钟|分鐘|个小时|個小時|小时|小時|天|周|週|星期|个月|個月|年|[^\W\d_]+?)"
_AGO_PRE_RX = re.compile(r"(?<!\w)(?:vor|il y a|hace|há|около)\s+" + _AGO_NUM + r"?\s*" + _AGO_UNIT + r"(?!\w)")
_AGO_POST_RX = re.compile(r"(?<![\w'’])" + _AGO_NUM + r"?\s*" + _AGO_UNIT + r"\s*(?:ago|fa|назад|тому|geleden|temu|前)(?!\w)")
_AGO_TRIGGER = re.compile(r"vor\s|il y a|hace\s|há\s|около|ago\b|fa\b|назад|тому|geleden|temu|前")
_AGO_STEMS = [
    (("秒", "sec", "sek", "seg", "сек"), 1),
    (("分", "min", "мин", "хвилин"), 60),
    (("小时", "小時", "个小时", "個小時", "hour", "hr", "stund", "heure", "hora", "godzin", "час", "годин", "uur", "ora", "ore"), 3600),
    (("天", "day", "tag", "jour", "día", "dia", "dni", "dzie", "giorn", "дн", "день", "дня", "дні", "dag"), 86400),
    (("周", "週", "星期", "week", "woche", "semaine", "semana", "tydzie", "tygod", "settiman", "недел", "тижн"), 7 * 86400),
    (("个月", "個月", "month", "monat", "mois", "mes", "mês", "miesi", "месяц", "місяц", "maand"), 30 * 86400),
    (("年", "year", "jahr", "année", "an", "año", "ano", "rok", "lat", "ann", "год", "лет", "рік", "jaar"), 365 * 86400),
]
_JUST_NOW = ("just now", "moments ago", "a moment ago", "few seconds ago", "刚刚", "剛剛", "только что", "щойно",
             "poco fa", "proprio ora", "zojuist", "gerade eben", "soeben", "à l'instant", "à l’instant", "ahora mismo",
             "agora mesmo", "przed chwilą")


def _ago_other_forms(s: str, now: datetime) -> datetime | None:
    """`now` less the span a relative form names ("vor 2 Stunden"), or None. `s` is folded."""
    if any(w in s for w in _JUST_NOW):
        return now.astimezone(timezone.utc)
    if not _AGO_TRIGGER.search(s):  # most dates are absolute: one cheap search, not the two below
        return None
    for rx in (_AGO_PRE_RX, _AGO_POST_RX):
        m = rx.search(s)
        if not m:
            continue
        unit = m.group(2)
        seconds = next((sec for stems, sec in _AGO_STEMS if unit.startswith(stems)), None)
        if seconds is None:
            continue
        n = m.group(1) or "1"
        count = float(n) if n.isdigit() else (0.5 if n == "半" else 1.0)
        return (now - timedelta(seconds=count * seconds)).astimezone(timezone.utc)
    return None


#: languages whose month words come from CLDR (Babel) when the built-in table has none of a string's words
_CLDR_LANGS = ("it", "ru", "uk", "nl", "de", "fr", "es", "pt", "pl", "cs", "sv", "da", "el", "tr")
_ENGLISH_MONTHS = _MONTH_NAMES["en"].split()


@lru_cache(maxsize=None)
def _merged(words_of) -> dict[str, int]:
    """One table of every `_CLDR_LANGS` language's words (the first language's number wins)."""
    out: dict[str, int] = {}
    for lang in _CLDR_LANGS:
        for w, n in words_of(lang).items():
            out.setdefault(w, n)
    return out


@lru_cache(maxsize=None)
def _cldr_month_words(lang: str) -> dict[str, int]:
    """Every CLDR month name and abbreviation of `lang` (format and stand-alone), folded -> number."""
    try:
        from babel.dates import get_month_names
    except ImportError:  # pragma: no cover - dependency declared in pyproject
        return {}
    out: dict[str, int] = {}
    for width in ("wide", "abbreviated"):
        for context in ("format", "stand-alone"):
            try:
                names = get_month_names(width, context=context, locale=lang)
            except Exception:  # an unknown locale gives no words
                return out
            for num, name in names.items():
                w = _fold(name).rstrip(".")
                if len(w) >= 3 and not w[0].isdigit():
                    out.setdefault(w, num)
    return out


def _find_date_cldr_months(s: str, order: str, local_now: datetime, languages: Iterable[str]) -> date | None:
    """A date whose month word only CLDR knows ("12 mrt 2009", "12 grudnia 2009", "12 Ιαν 2009"):
    the word is replaced by the English name and the date read again; the page's languages first."""
    words = [w for w in _WORD_RX.finditer(s) if len(w.group(0).rstrip(".")) >= 3]
    if not words or not any(ch.isdigit() for ch in s):
        return None
    for table in [*(_cldr_month_words(lang) for lang in languages if lang), _merged(_cldr_month_words)]:
        for w in words:
            num = table.get(w.group(0).rstrip("."))
            if num is not None:
                d = _find_date(s[: w.start()] + " " + _ENGLISH_MONTHS[num - 1] + " " + s[w.end():], order, local_now)
                if d is not None:
                    return d
    return None


@lru_cache(maxsize=None)
def _cldr_weekday_words(lang: str) -> dict[str, int]:
    """CLDR weekday names of `lang` (wide, format and stand-alone), folded -> Monday=0."""
    try:
        from babel.dates import get_day_names
    except ImportError:  # pragma: no cover - dependency declared in pyproject
        return {}
    out: dict[str, int] = {}
    for context in ("format", "stand-alone"):
        try:
            names = get_day_names("wide", context=context, locale=lang)
        except Exception:  # an unknown locale gives no words
            return out
        for num, name in names.items():
            out.setdefault(_fold(name), num)
    return out


def _weekday_within_a_week(s: str, local_now: datetime, languages: Iterable[str]) -> date | None:
    """XenForo and others write a post of the last week as "Monday at 10:47 AM" / "Montag um 10:47":
    the latest such weekday before today (today itself is written "Today")."""
    words = {w.group(0).rstrip(".") for w in _WORD_RX.finditer(s)}
    if not words:
        return None
    for table in [*(_cldr_weekday_words(lang) for lang in languages if lang), _cldr_weekday_words("en"),
                  _merged(_cldr_weekday_words)]:
        day = next((table[w] for w in words if w in table), None)
        if day is not None:
            back = (local_now.weekday() - day) % 7 or 7
            return local_now.date() - timedelta(days=back)
    return None


def _dateparser(raw: str, tz: tzinfo, now: datetime, languages: Iterable[str], order: str) -> datetime | None:
    try:
        import dateparser
    except ImportError:  # pragma: no cover - dependency declared in pyproject
        return None
    langs = [lang for lang in languages if lang] or None
    settings = {
        "RELATIVE_BASE": now.astimezone(tz).replace(tzinfo=None),
        "PREFER_DATES_FROM": "past",
        "RETURN_AS_TIMEZONE_AWARE": False,
        "DATE_ORDER": order,
    }
    try:
        dt = dateparser.parse(raw, languages=langs, settings=settings)
    except Exception:  # dateparser raises assorted errors on garbage; garbage is "not a date"
        return None
    if dt is None:
        return None
    return dt.replace(tzinfo=tz).astimezone(timezone.utc)
