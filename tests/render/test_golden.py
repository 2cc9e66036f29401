"""Golden tests: every post kind × markup × language, fixed view models in, expected text out.

Regenerate after a deliberate template change with `FORUMMOD_UPDATE_GOLDEN=1` and review the
diff of `tests/render/golden/` like code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forummod.render import KINDS, LANGUAGES, MARKUPS, phrasebook_for, render_post

from tests.render.samples import CASES, RULESET

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("FORUMMOD_UPDATE_GOLDEN") == "1"


def test_every_kind_has_a_golden_case():
    assert {kind for _, kind, _ in CASES} == set(KINDS)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
@pytest.mark.parametrize("case,kind,build", CASES, ids=[c[0] for c in CASES])
def test_rendered_post_matches_golden_file(case, kind, build, markup, lang):
    pb = phrasebook_for(lang, RULESET, markup)
    text = render_post(kind, build(pb), markup, lang)
    path = GOLDEN / f"{case}.{markup}.{lang}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with FORUMMOD_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.stem)
def test_golden_post_renders_cleanly_as_the_forum_would_show_it(path: Path):
    """No unbalanced bold or stray tag is left as text, and no injected name became markup."""
    import html
    import re

    from forummod.preview.html import render_markup

    markup = path.name.split(".")[1]
    shown = render_markup(path.read_text(encoding="utf-8"), markup)
    text = html.unescape(re.sub(r"<[^>]+>", "", shown))
    assert "<script" not in shown and "evil.example" not in re.sub(r">[^<]*<", "><", shown)  # only as text
    if markup == "markdown":
        assert "**" not in text
    else:
        assert not re.search(r"\[/?(b|i|url|list|quote|size|code|\*)\]", text)
