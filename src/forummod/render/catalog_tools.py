"""The translator's tools for forummod's gettext catalogs (run from the project root):

    python -m forummod.render.catalog_tools extract      # src/forummod/locale/forummod.pot
    python -m forummod.render.catalog_tools update       # merge it into every <lang>/.../forummod.po
    python -m forummod.render.catalog_tools init de      # start a new language
    python -m forummod.render.catalog_tools compile DIR  # .mo files (the wheel's build hook does this)

`babel.cfg` says where the template and code messages are; the phrasebook entries (facts, role
names, formats: `<scope>:<path>` msgctxt) have the English catalog as their source.
"""

from __future__ import annotations

import copy
from pathlib import Path

from forummod.render.catalog import DOMAIN, LOCALE_DIR, SOURCE_LANG, available_languages, compile_all, po_path

def extract(root: Path, locale_dir: Path = LOCALE_DIR):
    """The message template (`.pot`): every `{% trans %}` / `_()` of the templates and the render
    code (`babel.cfg`), plus every phrasebook entry of the English catalog (the source of the
    facts, role names and formats, which no code spells out)."""
    from babel.messages.catalog import Catalog as BabelCatalog
    from babel.messages.extract import extract_from_dir
    try:
        from babel.messages.frontend import parse_mapping_cfg
    except ImportError:  # Babel < 2.14 names it parse_mapping
        from babel.messages.frontend import parse_mapping as parse_mapping_cfg

    with open(root / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, str(root / "babel.cfg"))
    pot = BabelCatalog(domain=DOMAIN, project="forummod", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=_KEYWORDS, comment_tags=("NOTE:",), strip_comment_tags=True):
        pot.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    from babel.messages.pofile import read_po

    with po_path(SOURCE_LANG, locale_dir).open("rb") as f:
        english = read_po(f, locale=SOURCE_LANG, domain=DOMAIN)
    for m in english:
        if m.id and m.context and ":" in m.context:
            pot.add(m.id, None, auto_comments=m.auto_comments, context=m.context, flags=m.flags)
    return pot


#: The message functions of the templates, the render code and `forummod.i18n` (the GM's sentences
#: of the engine, checks and alerts; `pgettext_noop` marks a code that is translated later).
_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
             "npgettext": ((1, "c"), 2, 3), "pgettext_noop": ((1, "c"), 2)}


def update(root: Path, locale_dir: Path = LOCALE_DIR) -> list[str]:
    """Merge the fresh template into every language's catalog: new messages appear untranslated
    (English keeps msgstr = msgid), translations of unchanged messages stay, removed ones become
    obsolete (`#~`). Returns the languages written."""
    from babel.messages.pofile import read_po, write_po

    pot = extract(root, locale_dir)
    done = []
    for lang in available_languages(locale_dir):
        path = po_path(lang, locale_dir)
        with path.open("rb") as f:
            cat = read_po(f, locale=lang, domain=DOMAIN)
        cat.update(copy.deepcopy(pot), no_fuzzy_matching=True)  # update keeps the template's Message
        # objects: English's msgstr = msgid below must not leak into the next language's new entries
        if lang == SOURCE_LANG:
            for m in cat:
                if m.id and not m.string or (isinstance(m.string, tuple) and not any(m.string)):
                    m.string = m.id
        with path.open("wb") as f:
            write_po(f, cat, width=0, sort_output=False, ignore_obsolete=False)
        done.append(lang)
    return done


def new_language(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Start the catalog of a new language: every message of the English catalog, untranslated,
    with the language's plural rule (Babel, from CLDR) in the header."""
    from babel.messages.catalog import Catalog as BabelCatalog
    from babel.messages.pofile import read_po, write_po

    path = po_path(lang, locale_dir)
    if path.exists():
        raise FileExistsError(f"{path} exists already")
    with po_path(SOURCE_LANG, locale_dir).open("rb") as f:
        english = read_po(f, locale=SOURCE_LANG, domain=DOMAIN)
    cat = BabelCatalog(locale=lang, domain=DOMAIN, project="forummod", version=english.version, fuzzy=False)
    for m in english:
        if m.id:
            cat.add(m.id, ("",) * cat.num_plurals if m.pluralizable else "", auto_comments=m.auto_comments,
                    context=m.context, flags=m.flags)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, cat, width=0, sort_output=False)
    return path


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m forummod.render.catalog_tools",
                                     description="forummod's gettext catalogs (run from the project root)")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("extract", help="write src/forummod/locale/forummod.pot")
    sub.add_parser("update", help="merge new and changed messages into every <lang>/LC_MESSAGES/forummod.po")
    init = sub.add_parser("init", help="start a new language's catalog")
    init.add_argument("lang")
    comp = sub.add_parser("compile", help="write the .mo files under DIR (the wheel's build hook does this)")
    comp.add_argument("dir", type=Path)
    args = parser.parse_args(argv)
    root = Path.cwd()
    if args.cmd == "extract":
        from babel.messages.pofile import write_po

        out = LOCALE_DIR / f"{DOMAIN}.pot"
        with out.open("wb") as f:
            write_po(f, extract(root), width=0, sort_output=False)
        print(out)
    elif args.cmd == "update":
        print("updated:", ", ".join(update(root)))
    elif args.cmd == "init":
        print(new_language(args.lang))
    else:
        for mo in compile_all(args.dir):
            print(mo)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
