"""Every sentence the engine, the checks and the alerts word in Python is a catalog entry of
every language (issue 20, item 1): extracted from the sources as `catalog_tools extract` does."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from forummod.render.catalog import catalog
from forummod.render.catalog_tools import _KEYWORDS
from forummod.render.phrases import LANGUAGES

SRC = Path(__file__).resolve().parents[2] / "src" / "forummod"
GM_SOURCES = sorted([SRC / "i18n.py", *(SRC / "engine").rglob("*.py"), *(SRC / "checks").rglob("*.py"),
                     *(SRC / "alerts").rglob("*.py"), *(SRC / "extract").rglob("*.py"),
                     SRC / "commands" / "status.py", SRC / "commands" / "tally.py"])
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdgr]")


@lru_cache(maxsize=1)
def gm_messages() -> tuple[tuple[str, str | tuple[str, str], str], ...]:
    """(context, msgid or (singular, plural), where) of every gm-* message in the sources."""
    out = []
    for path in GM_SOURCES:
        for lineno, msg, _comments, context in extract_from_file("python", str(path), keywords=_KEYWORDS):
            if context and context.startswith("gm-"):
                out.append((context, msg, f"{path.relative_to(SRC)}:{lineno}"))
    return tuple(out)


def test_the_sources_hold_the_gm_messages():
    contexts = {c for c, _, _ in gm_messages()}
    assert {"gm-note", "gm-rejection", "gm-proposal", "gm-finding", "gm-alert", "gm-code",
            "gm-issue", "gm-status", "gm-tally"} <= contexts
    assert len(gm_messages()) > 300


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_gm_message_of_the_engine_checks_and_alerts_is_in_every_catalog(lang):
    cat = catalog(lang)
    entries = cat.own if lang != "en" else cat.source
    missing = [(ctx, msg, where) for ctx, msg, where in gm_messages()
               if (ctx, msg if isinstance(msg, str) else msg[0]) not in entries]
    assert missing == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_translation_uses_only_the_placeholders_of_its_english_text(lang):
    own = catalog(lang).own
    bad = []
    for ctx, msg, where in gm_messages():
        english = msg if isinstance(msg, str) else msg[1]
        allowed = set(PLACEHOLDER.findall(english)) | {"n"}
        forms = own.get((ctx, msg if isinstance(msg, str) else msg[0]))
        for form in (forms,) if isinstance(forms, str) else forms or ():
            if set(PLACEHOLDER.findall(form)) - allowed:
                bad.append((where, form))
    assert bad == []


def test_the_english_catalog_is_the_source_text():
    src = catalog("en").source
    assert all(src[(ctx, msg)] == msg for ctx, msg, _ in gm_messages() if isinstance(msg, str))
