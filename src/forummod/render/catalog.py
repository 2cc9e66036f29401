"""The gettext catalogs: every word a GM or player reads in a draft, one `.po` file per language.

    src/forummod/locale/<lang>/LC_MESSAGES/forummod.po   the translator's file (in the repository)
    src/forummod/locale/<lang>/LC_MESSAGES/forummod.mo   compiled by the wheel's build hook

A wheel carries the compiled `.mo`; an editable checkout compiles the `.po` on first use (Babel,
imported only then) and keeps the result in memory, recompiling when the `.po` changes, so a
translator sees an edit on the next render without a build step.

Messages come in two families:

- Template sentences: the English text is the msgid (`{% trans %}` in `templates/<kind>/*.j2`,
  `%(name)s` placeholders, Jinja's convention), msgctxt the post kind where a word is
  ambiguous.
- Phrasebook entries (facts, role and faction names, rejection reasons, titles, formats): the
  msgctxt names the entry, `<scope>:<path>`, where scope is `common` or the ruleset
  (`mafia-majority:roles.cop.name`) and a `[param=value]` step picks the variant of a sentence
  that depends on a parameter (`common:facts.death[cause=wolves]`, `[cause=other]` the
  fallback); the msgid is the English text. Placeholders there are the phrasebook's own
  (`{player|b}`, `{votes:plural:vote}`, see `phrases.py`). Counts are plural entries
  (`common:plurals.vote`, `%(n)s vote` / `%(n)s votes`); date and time formats are CLDR
  patterns (`common:format.deadline`, `EEE d MMM 'alle' HH:mm (z)`).

English is itself a catalog (msgstr = msgid), so the English text of every entry is known at
run time and a language without an entry falls back to it.
"""

from __future__ import annotations

import gettext
import io
import os
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from forummod.records import frozen

DOMAIN = "forummod"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
SOURCE_LANG = "en"
_EOT = "\x04"  # gettext's separator between msgctxt and msgid in a compiled catalog


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def available_languages(locale_dir: Path = LOCALE_DIR) -> tuple[str, ...]:
    """Languages with a catalog, English first."""
    langs = sorted(p.name for p in locale_dir.iterdir() if po_path(p.name, locale_dir).is_file()) \
        if locale_dir.is_dir() else []
    return tuple(sorted(langs, key=lambda lang: lang != SOURCE_LANG))


def compile_po(po: Path) -> bytes:
    """The `.mo` bytes of a `.po` file (Babel, imported here only)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        cat = read_po(f, domain=DOMAIN)  # the language and its plural rule come from the header
    out = io.BytesIO()
    write_mo(out, cat)
    return out.getvalue()


def _stamp(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1


def translations(lang: str, locale_dir: Path = LOCALE_DIR) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (a `NullTranslations` when there is none)."""
    po = po_path(lang, locale_dir)
    mo = po.with_suffix(".mo")
    return _load(str(po), _stamp(po), _stamp(mo))


@lru_cache(maxsize=32)
def _load(po: str, po_stamp: int, mo_stamp: int) -> gettext.NullTranslations:
    if mo_stamp >= 0 and mo_stamp >= po_stamp:
        with open(Path(po).with_suffix(".mo"), "rb") as f:
            return gettext.GNUTranslations(f)
    if po_stamp >= 0:
        return gettext.GNUTranslations(io.BytesIO(_compiled(Path(po), po_stamp)))
    return gettext.NullTranslations()


def _compiled(po: Path, po_stamp: int) -> bytes:
    """The `.mo` bytes of a checkout's `.po`: from the user cache when this version of the file
    was compiled before (so a cron tick does not load Babel), else compiled and cached."""
    cached = None
    try:
        import hashlib

        from platformdirs import user_cache_dir

        key = hashlib.sha256(f"{po.resolve()}:{po_stamp}".encode()).hexdigest()[:24]
        cached = Path(user_cache_dir("forummod")) / "locale" / f"{po.parent.parent.name}-{key}.mo"
        return cached.read_bytes()
    except OSError:
        pass
    data = compile_po(po)
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, cached)
        except OSError:
            pass  # a read-only home: compile again next time
    return data


def entries(lang: str, locale_dir: Path = LOCALE_DIR) -> dict[tuple[str, str], str | tuple[str, ...]]:
    """Every translated message of `lang`: (msgctxt, msgid) -> msgstr, or the plural forms."""
    t = translations(lang, locale_dir)
    raw = getattr(t, "_catalog", {})  # GNUTranslations keeps the compiled catalog here
    out: dict[tuple[str, str], str | tuple[str, ...]] = {}
    plurals: dict[tuple[str, str], dict[int, str]] = {}
    for key, value in raw.items():
        if key == "" or key == ("", 0):
            continue  # the header
        if isinstance(key, tuple):
            msg, index = key
            ctxt, _, msgid = msg.rpartition(_EOT)
            plurals.setdefault((ctxt, msgid), {})[index] = value
        else:
            ctxt, _, msgid = key.rpartition(_EOT)
            out[(ctxt, msgid)] = value
    for k, forms in plurals.items():
        out[k] = tuple(forms[i] for i in sorted(forms))
    return out


@frozen
class Catalog:
    """The messages of one language, English where it has none. Pure lookups."""

    lang: str
    own: dict[tuple[str, str], str | tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    source: dict[tuple[str, str], str | tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    plural_index: object = field(default=None, compare=False, repr=False)  # n -> form index
    trees: dict = field(default_factory=dict, compare=False, repr=False)  # phrase trees, built once

    def has(self, msgid: str, context: str = "") -> bool:
        """Whether this language itself translates the message (not through English)."""
        return (context, msgid) in self.own

    def gettext(self, msgid: str, context: str = "") -> str:
        value = self.own.get((context, msgid))
        return value if isinstance(value, str) and value else msgid

    def ngettext(self, singular: str, plural: str, n: float, context: str = "") -> str:
        """The form for `n`; a fraction takes the last form (CLDR "other", Russian "many")."""
        forms = self.own.get((context, singular))
        if isinstance(forms, tuple) and forms:
            fraction = float(n) != int(float(n))
            index = len(forms) - 1 if fraction else int(self.plural_index(int(float(n))))  # type: ignore[operator]
            return forms[min(index, len(forms) - 1)] or (singular if n == 1 else plural)
        return singular if float(n) == 1 else plural

    def scoped(self, scope: str) -> Iterator[tuple[str, str | tuple[str, ...]]]:
        """(path, English msgid) of every entry whose msgctxt is `<scope>:<path>`."""
        prefix = scope + ":"
        for (ctxt, msgid) in self.source:
            if ctxt.startswith(prefix):
                yield ctxt[len(prefix):], msgid


def catalog(lang: str, locale_dir: Path = LOCALE_DIR) -> Catalog:
    """The catalog of `lang`, recompiled when its `.po` changes."""
    po = po_path(lang, locale_dir)
    src = po_path(SOURCE_LANG, locale_dir)
    return _catalog(lang, str(locale_dir), _stamp(po), _stamp(po.with_suffix(".mo")), _stamp(src),
                    _stamp(src.with_suffix(".mo")))


@lru_cache(maxsize=32)
def _catalog(lang: str, locale_dir: str, *_stamps: int) -> Catalog:
    d = Path(locale_dir)
    t = translations(lang, d)
    plural = getattr(t, "plural", None) or (lambda n: int(n != 1))
    return Catalog(lang, entries(lang, d), entries(SOURCE_LANG, d), plural)


def compile_all(out_dir: Path, locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write `<lang>/LC_MESSAGES/forummod.mo` under `out_dir` for every catalog (the build hook)."""
    written = []
    for lang in available_languages(locale_dir):
        mo = out_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        os.makedirs(mo.parent, exist_ok=True)
        mo.write_bytes(compile_po(po_path(lang, locale_dir)))
        written.append(mo)
    return written
