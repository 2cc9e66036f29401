"""The phrasebook: facts, role and faction names, dates and plurals in the game's language.

The engine never writes prose: it emits `Fact(key, params)`. The phrasebook turns each fact
into a sentence in one language, from the language's gettext catalog (`catalog.py`,
`src/forummod/locale/<lang>/LC_MESSAGES/forummod.po`): every entry's msgctxt is
`<scope>:<path>`, scope `common` (death, lynched, no_lynch, nobody_died, game_over, formats,
rejection reasons, titles) or the ruleset (its roles, factions and facts); the msgid is the
English text, which also fills any entry a language has not translated.

A ruleset's entries are merged over the common ones, and an override file in the GM's templates
folder (`phrases/common.<lang>.toml`, `phrases/<ruleset>.<lang>.toml`) over both, key by key:
its keys are the entries' paths (`[facts.no_lynch] tie = "..."` for
`common:facts.no_lynch[reason=tie]`), so a GM can reword one phrase. Counts are the catalog's
plural entries (`common:plurals.vote`, ngettext); dates its CLDR patterns (`common:format.*`),
formatted by Babel.

A phrase is text with placeholders, written markup-neutral (the literal text is escaped too):

    {player}               a parameter: text escaped for the markup; numbers formatted for the
                           language; a tuple of names joined ("A, B e C")
    {role:role}            a role id -> its localized name      ({cards:roles} for a tuple)
    {side:faction}         a faction key -> its localized name
    {verdict:word}         the value looked up in [words.verdict] ({x:word:table} names the table)
    {votes:plural:vote}    a number with the plural form of `common:plurals.vote` ("3 голоса")
    {night:phase}          a phase name ("N2") -> its label ("Notte 2")
    {until:when}           a time (datetime or ISO text) in the game's timezone, in the
                           `common:format.deadline` pattern ({at:when:datetime} names another)
    {xs:each:item}         a tuple, one [items] phrase per element, joined as a list: the phrase
                           `item` is filled with the fact's params, each tuple param of the same
                           length standing for its element at that position (parallel tuples:
                           buildings=("hovel", "farm"), holders=("P2", "P6") with
                           [items] building_of = "the {buildings:word:building} of {holders}"
                           gives "the hovel of P2 and the farm of P6")
    {player|b}, {x:role|i} bold / italic in the post's markup
    {{ and }}              literal braces

A fact whose wording depends on a parameter has one entry per value of that parameter
(`common:facts.no_lynch[reason=tie]`), `[reason=other]` the fallback; in an override file that
is a table where `by` names the parameter:

    no_lynch = { by = "reason", tie = "Parità: ...", other = "Nessun rogo oggi." }
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import field, replace
from datetime import datetime, timezone, tzinfo
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from forummod.engine.types import Fact, PhaseId
from forummod.records import frozen
from forummod.render.catalog import Catalog, catalog
from forummod.render.escape import Safe, bold, escape, escape_literal, italic, one_line

#: The languages drafts are written in (each has a catalog; German only partly, see README).
LANGUAGES = ("en", "it", "ru", "nl", "zh", "de")
#: Fact keys the engine core emits for every ruleset (phrased in phrases/common.<lang>.toml).
GENERIC_FACTS = ("death", "lynched", "no_lynch", "nobody_died", "game_over")

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z_][a-z0-9_]*)((?::[a-z_][a-z0-9_]*)*)(?:\|([a-z]+))?\}")


class PhraseError(KeyError):
    """A phrase, role or word the phrasebook has no entry for (the caller falls back)."""


# --------------------------------------------------------------------------- loading (I/O)


def phrase_file_names(lang: str, ruleset: str) -> tuple[str, str]:
    return (f"phrases/common.{lang}.toml", f"phrases/{ruleset}.{lang}.toml")


_STEP = re.compile(r"\.?([^.\[\]]+)|\[([^=\]]*)=([^\]]*)\]")


def entry_path(path: str) -> list[tuple[str, str | None]]:
    """A catalog entry's path as steps: ("facts", None), ("death", None), ("cause", "wolves")...

    `facts.death[cause=wolves]` is the `wolves` variant of the table `facts.death` chosen by the
    parameter `cause` (the phrase-table form `{ by = "cause", wolves = "..." }`).
    """
    steps: list[tuple[str, str | None]] = []
    pos = 0
    for m in _STEP.finditer(path):
        if m.start() != pos:
            raise ValueError(f"bad catalog entry path {path!r}")
        pos = m.end()
        steps.append((m.group(1), None) if m.group(1) is not None else (m.group(2), m.group(3)))
    if pos != len(path) or not steps:
        raise ValueError(f"bad catalog entry path {path!r}")
    return steps


def _put(tree: dict[str, Any], path: str, value: str) -> None:
    steps = entry_path(path)
    node = tree
    for i, (name, variant) in enumerate(steps):
        last = i == len(steps) - 1
        if variant is None:
            key = name
        else:
            node["by"] = name
            key = variant
        if last:
            node[key] = value
        else:
            nxt = node.get(key)
            if not isinstance(nxt, dict):
                nxt = node[key] = {}
            node = nxt


def catalog_data(cat: Catalog, scope: str, own: bool = True) -> dict[str, Any]:
    """The phrase tree of `scope` ("common" or a ruleset) from a catalog: this language's own
    translations (`own`), or the English text of every entry."""
    cached = cat.trees.get((scope, own))
    if cached is not None:
        return cached
    tree: dict[str, Any] = {}
    source = cat.own if own else cat.source
    prefix = scope + ":"
    for (ctxt, msgid), value in source.items():
        if ctxt.startswith(prefix) and isinstance(value, str) and value:
            _put(tree, ctxt[len(prefix):], value)
    cat.trees[(scope, own)] = tree
    return tree


def load_phrase_data(lang: str, ruleset: str, dirs: Sequence[Path], cat: Catalog | None = None,
                     own: bool = True) -> dict[str, Any]:
    """The phrases of (lang, ruleset): the catalog, then the override files found in `dirs`.

    Later wins: catalog common, override common, catalog ruleset, override ruleset. An override
    file (`phrases/<scope>.<lang>.toml` in the GM's templates folder) maps each key onto the
    catalog entry of the same path (`[facts.death] wolves = "..."` rewords
    `common:facts.death[cause=wolves]`).
    """
    cat = cat if cat is not None else catalog(lang)
    data: dict[str, Any] = {}
    for scope, name in zip(("common", ruleset), phrase_file_names(lang, ruleset)):
        data = deep_merge(data, catalog_data(cat, scope, own))
        for d in reversed(list(dirs)):
            path = Path(d) / name
            if path.is_file():
                data = deep_merge(data, _read_toml(path, path.stat().st_mtime_ns))
    return data


@lru_cache(maxsize=128)
def _read_toml(path: Path, mtime_ns: int) -> dict[str, Any]:
    """Cached by modification time, so a long-running preview sees a GM's edits."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        from forummod.errors import ConfigError

        raise ConfigError("", f"phrase file {path} is not valid TOML: {e}") from None


def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def load_phrasebook(lang: str, ruleset: str, markup: str, dirs: Sequence[Path]) -> "Phrasebook":
    """The phrasebook for a game; English fills any phrase missing in `lang`."""
    cat = catalog(lang)
    data = load_phrase_data(lang, ruleset, dirs, cat)
    fallback = load_phrase_data("en", ruleset, dirs, cat, own=False) if lang != "en" else {}
    return Phrasebook(lang, data, markup, fallback, catalog=cat)


# --------------------------------------------------------------------------- plurals


def plural_category(lang: str, n: float) -> str:
    """CLDR cardinal category of `n` (one / few / many / other), for the forms an override file
    gives as a table; the catalog's own plural entries use its Plural-Forms rule instead."""
    if n != int(n):
        return "other"
    i = abs(int(n))
    if lang == "zh":
        return "other"
    if lang == "ru":
        if i % 10 == 1 and i % 100 != 11:
            return "one"
        if 2 <= i % 10 <= 4 and not 12 <= i % 100 <= 14:
            return "few"
        return "many"
    return "one" if i == 1 else "other"


# --------------------------------------------------------------------------- the phrasebook


@frozen
class Phrasebook:
    """Pure: phrase data in, escaped markup out. One per (language, ruleset, markup)."""

    lang: str
    data: Mapping[str, Any]
    markup: str = "bbcode"
    fallback: Mapping[str, Any] = field(default_factory=dict)
    tz: tzinfo | None = None  # the game's timezone, for {deadline:when}
    catalog: Catalog | None = None  # plural forms and date patterns of the language

    def with_markup(self, markup: str) -> "Phrasebook":
        return replace(self, markup=markup)

    def with_tz(self, tz: tzinfo | None) -> "Phrasebook":
        return replace(self, tz=tz)

    # ---- catalog messages (sentences the render code words itself)
    def gettext(self, message: str, context: str = "") -> str:
        """A message of the catalog in this language (English when it has none)."""
        return self.catalog.gettext(message, context) if self.catalog is not None else message

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message, context)

    def ngettext(self, singular: str, plural: str, n: float, context: str = "") -> str:
        """The plural form for `n` (`%(num)s` in it is left for the caller)."""
        if self.catalog is not None:
            return self.catalog.ngettext(singular, plural, n, context)
        return singular if n == 1 else plural

    # ---- lookups
    def _get(self, *path: str) -> Any:
        for src in (self.data, self.fallback):
            node: Any = src
            for p in path:
                if not isinstance(node, Mapping) or p not in node:
                    node = None
                    break
                node = node[p]
            if node is not None:
                return node
        raise PhraseError(".".join(path))

    def has(self, *path: str) -> bool:
        """True when this language's own data (not the English fallback) has the entry."""
        node: Any = self.data
        for p in path:
            if not isinstance(node, Mapping) or p not in node:
                return False
            node = node[p]
        return True

    def fmt(self, name: str, default: str = "") -> str:
        try:
            return str(self._get("format", name))
        except PhraseError:
            return default

    # ---- facts and phrases
    def fact(self, fact: Fact) -> Safe:
        """The sentence for a fact; an unknown key shows its key and params, never crashes."""
        params = dict(fact.params)
        try:
            return self.render(self._get("facts", fact.key), params)
        except (PhraseError, KeyError, ValueError, TypeError):
            return self._raw(fact.key, params)

    def text(self, key: str, **params: Any) -> Safe:
        """A phrase of the [text] table (sentences the builders need besides facts)."""
        try:
            return self.render(self._get("text", key), params)
        except (PhraseError, KeyError, ValueError, TypeError):
            return self._raw(key, params)

    def title(self, kind: str, **params: Any) -> str:
        """A draft's title / PM subject: plain text."""
        plain = self.with_markup("plain")
        try:
            return str(plain.render(plain._get("titles", kind), params)).strip().rstrip(",—:;").strip()
        except (PhraseError, KeyError, ValueError, TypeError):
            return " — ".join(str(v) for v in params.values() if v) or kind

    def _raw(self, key: str, params: Mapping[str, Any]) -> Safe:
        inner = ", ".join(f"{k}={_plain_value(v)}" for k, v in sorted(params.items()))
        return escape(f"⟨{key}{': ' + inner if inner else ''}⟩", self.markup)

    def render(self, entry: Any, params: Mapping[str, Any]) -> Safe:
        """Choose the variant of `entry` for `params`, then fill its placeholders."""
        return self._fill(self._choose(entry, params), params)

    def shows(self, fact: Fact, *names: str) -> bool:
        """Whether the sentence for `fact` puts one of the params `names` in its text (e.g. a
        death line that already shows the card, so no second line has to)."""
        try:
            text = self._choose(self._get("facts", fact.key), dict(fact.params))
        except (PhraseError, TypeError):
            return False
        return any(m.group(1) in names for m in _PLACEHOLDER.finditer(text))

    @staticmethod
    def _choose(entry: Any, params: Mapping[str, Any]) -> str:
        """The variant of a phrase table for `params` (`by` names the param, `other` falls back)."""
        while isinstance(entry, Mapping):
            by = entry.get("by")
            value = params.get(by) if by else None
            key = "" if value is None else str(value)
            if key in entry and key != "by":
                entry = entry[key]
            elif "other" in entry:
                entry = entry["other"]
            else:
                raise PhraseError(f"no variant {key!r} for {by!r}")
        if not isinstance(entry, str):
            raise TypeError(f"phrase must be text, not {type(entry).__name__}")
        return entry

    def _fill(self, template: str, params: Mapping[str, Any]) -> Safe:
        out: list[str] = []
        pos = 0
        for m in _PLACEHOLDER.finditer(template):
            out.append(escape_literal(template[pos:m.start()], self.markup))
            pos = m.end()
            tok = m.group(0)
            if tok in ("{{", "}}"):
                out.append(escape_literal(tok[0], self.markup))
                continue
            name, convs, style = m.group(1), m.group(2), m.group(3)
            if name not in params:
                raise KeyError(name)
            value = self._convert(name, params[name], [c for c in convs.split(":") if c], params)
            out.append(self._style(value, style))
        out.append(escape_literal(template[pos:], self.markup))
        return Safe("".join(out))

    def _convert(self, name: str, value: Any, convs: list[str], params: Mapping[str, Any]) -> Safe:
        conv = convs[0] if convs else ""
        arg = convs[1] if len(convs) > 1 else ""
        if conv == "each":
            return self._each(value, arg, params)
        if conv == "role":
            return escape(self.role(str(value)), self.markup)
        if conv == "roles":
            return self.join(self.role(str(v)) for v in _items(value))
        if conv == "faction":
            return escape(self.faction(str(value)), self.markup)
        if conv == "word":
            return escape(self.word(arg or name, value), self.markup)
        if conv == "plural":
            return escape(self.plural(value, arg or name), self.markup)
        if conv == "phase":
            return escape(self.phase(str(value)), self.markup)
        if conv == "when":
            dt = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
            return escape(self.when(dt, self.tz or timezone.utc, arg or "deadline"), self.markup)
        if conv in ("", "names"):
            if isinstance(value, (tuple, list, frozenset, set)):
                return self.join(one_line(str(v)) for v in _items(value))
            if isinstance(value, bool):
                return escape(self.word("bool", value), self.markup)
            if isinstance(value, (int, float)):
                return escape(self.number(value), self.markup)
            return escape(one_line(str(value)), self.markup)
        raise ValueError(f"unknown conversion {conv!r}")

    def _each(self, value: Any, item: str, params: Mapping[str, Any]) -> Safe:
        """One [items] phrase per element of `value`, with parallel tuples bound element-wise."""
        items = _items(value)
        entry = self._get("items", item)
        parts = []
        for i in range(len(items)):
            bound = {k: (v[i] if isinstance(v, (tuple, list)) and len(v) == len(items) else v)
                     for k, v in params.items()}
            parts.append(self.render(entry, bound))
        return self.join(parts)

    def _style(self, value: Safe, style: str | None) -> Safe:
        if style == "b":
            return bold(value, self.markup)
        if style == "i":
            return italic(value, self.markup)
        if style:
            raise ValueError(f"unknown style {style!r}")
        return value

    # ---- words
    def role(self, role_id: str) -> str:
        try:
            entry = self._get("roles", role_id)
        except PhraseError:
            return role_id
        return str(entry.get("name", role_id)) if isinstance(entry, Mapping) else str(entry)

    def role_entry(self, role_id: str) -> Mapping[str, Any]:
        try:
            entry = self._get("roles", role_id)
        except PhraseError:
            return {}
        return entry if isinstance(entry, Mapping) else {"name": str(entry)}

    def role_desc(self, role_id: str, **params: Any) -> Safe:
        desc = self.role_entry(role_id).get("desc")
        if not desc:
            return Safe("")
        try:
            return self.render(desc, params)
        except (PhraseError, KeyError, ValueError, TypeError):
            return escape(str(desc), self.markup)

    def faction(self, key: str) -> str:
        try:
            return str(self._get("factions", key))
        except PhraseError:
            return key

    def word(self, table: str, value: Any) -> str:
        key = str(value).lower() if isinstance(value, bool) else str(value)
        try:
            return str(self._get("words", table, key))
        except PhraseError:
            if table == "result":  # an outcome is usually a faction key
                return self.faction(key)
            return key

    def rejection(self, code: str) -> str:
        try:
            return str(self._get("rejections", code))
        except PhraseError:
            return code.replace("_", " ")

    # ---- numbers, lists, phases, dates
    def number(self, x: float) -> str:
        if isinstance(x, float) and x != int(x):
            return f"{x:g}".replace(".", self.fmt("decimal", "."))
        return str(int(x))

    def plural(self, n: Any, noun: str) -> str:
        """"3 votes", "3 голоса": the catalog's plural entry `common:plurals.<noun>` (ngettext).

        A GM's override file may still give the forms as a table (`[plurals] vote = { one =
        "vote", other = "votes" }`, CLDR categories); that wins over the catalog.
        """
        num = float(n)
        try:
            forms = self._get("plurals", noun)
        except PhraseError:
            forms = None
        if isinstance(forms, Mapping):
            cat = plural_category(self.lang, num)
            form = forms.get(cat) or forms.get("other") or forms.get("many") or ""
            pattern = self.fmt("count", "{n} {form}")
            return pattern.format(n=self.number(num), form=form).strip()
        entry = self._plural_entry(noun)
        if entry is None:
            return self.number(num)
        (ctxt, singular), english = entry
        text = self.catalog.ngettext(singular, english[-1], num, ctxt)  # type: ignore[union-attr]
        return text.replace("%(n)s", self.number(num)).strip()

    def _plural_entry(self, noun: str) -> tuple[tuple[str, str], tuple[str, ...]] | None:
        if self.catalog is None:
            return None
        ctxt = f"common:plurals.{noun}"
        for key, value in self.catalog.source.items():
            if key[0] == ctxt and isinstance(value, tuple):
                return key, value
        return None

    def join(self, items: Iterable[Any]) -> Safe:
        parts = [escape(i, self.markup) for i in items]
        if not parts:
            return Safe("")
        if len(parts) == 1:
            return parts[0]
        sep = escape(self.fmt("list_sep", ", "), self.markup)
        last = escape(self.fmt("list_last", " and "), self.markup)
        return Safe(sep.join(parts[:-1]) + last + parts[-1])

    def phase(self, name: str) -> str:
        """"D2" -> "Giorno 2"; unknown names (e.g. "setup") are looked up or kept."""
        try:
            pid = PhaseId.parse(name)
        except ValueError:
            return self.fmt(name, name)
        pattern = self.fmt(pid.kind, "Day {n}" if pid.kind == "day" else "Night {n}")
        return pattern.format(n=pid.number)

    def when(self, dt: datetime | None, tz: tzinfo, style: str = "datetime") -> str:
        """A time in the game's timezone: the catalog's CLDR pattern for `style`
        (`common:format.deadline`), names from CLDR for the language (Babel); a language
        without its own pattern gets Babel's format for the style's skeleton. The zone is the
        timezone's abbreviation (`tzname()`, "CET"), as forum players write it."""
        if dt is None:
            return ""
        local = dt.astimezone(tz)
        own = self.has("format", style)
        pattern = self.fmt(style, "") if own or self.lang == "en" else ""
        if "{" in pattern:  # an override file's pattern in the old str.format style
            return _legacy_when(pattern, local, self.lang)
        return format_when(local, self.lang, pattern, style)

#: The CLDR skeletons (fields, no order) of each style for a language without its own pattern:
#: a date part and a time part, joined by the locale's own date-time pattern ("{1}, {0}").
DATE_SKELETONS = {"datetime": ("MMMEd", "Hm"), "vote_time": ("", "EHm"), "deadline": ("MMMEd", "Hm")}
#: Styles that show the time zone.
ZONED_STYLES = frozenset({"deadline"})


def format_when(local: datetime, lang: str, pattern: str, style: str = "datetime") -> str:
    """`local` (already in the game's zone) in a CLDR `pattern`, or in the locale's formats for
    the style's skeletons when `pattern` is empty. `z` in a pattern stands for `tzname()`."""
    from babel.dates import format_datetime, format_skeleton, get_datetime_format  # only when a date is shown

    zone = local.tzname() or ""
    naive = local.replace(tzinfo=None)
    loc = _babel_locale(lang)
    if pattern:
        return format_datetime(naive, _zone_literal(pattern, zone), locale=loc)
    date_sk, time_sk = DATE_SKELETONS.get(style, DATE_SKELETONS["datetime"])
    time = format_skeleton(time_sk, naive, locale=loc)
    text = time if not date_sk else str(get_datetime_format("medium", locale=loc)).replace(
        "{1}", format_skeleton(date_sk, naive, locale=loc)).replace("{0}", time)
    return f"{text} ({zone})" if style in ZONED_STYLES and zone else text


def _babel_locale(lang: str) -> str:
    return lang.replace("-", "_")


def _zone_literal(pattern: str, zone: str) -> str:
    """Replace each unquoted run of `z` in a CLDR pattern with the zone as quoted text."""
    out: list[str] = []
    quoted = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            quoted = not quoted
            out.append(c)
        elif c == "z" and not quoted:
            while i + 1 < len(pattern) and pattern[i + 1] == "z":
                i += 1
            out.append("'" + zone.replace("'", "''") + "'" if zone else "")
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _legacy_when(pattern: str, local: datetime, lang: str) -> str:
    """An override's `{weekday} {day} {month_name} {hour:02d}:{minute:02d} ({tz})` pattern,
    with the weekday and month names from CLDR."""
    from babel.dates import format_datetime

    loc = _babel_locale(lang)
    naive = local.replace(tzinfo=None)
    return pattern.format(weekday=format_datetime(naive, "EEE", locale=loc), day=local.day, month=local.month,
                          month_name=format_datetime(naive, "MMM", locale=loc), year=local.year,
                          hour=local.hour, minute=local.minute, tz=local.tzname() or "")


def _items(value: Any) -> list[Any]:
    if isinstance(value, (tuple, list)):
        return list(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return [value]


def _plain_value(v: Any) -> str:
    if isinstance(v, (tuple, list)):
        return "/".join(str(x) for x in v)
    return str(v)
