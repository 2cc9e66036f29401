"""Drafts: view models of the eight post kinds, rendered by one Jinja template per markup, in the
language of the game's gettext catalog.

    gv = game_view(analysis, findings)                  # what the builders read
    pb = load_phrasebook(lang, ruleset, markup, dirs)   # facts -> sentences, names, dates
    for d in plan_drafts(gv, pb):                        # which drafts apply now (pure)
        body = render_post(d.kind, d.post, markup, lang, user_dir)

Modules: `escape` (markup escaping), `catalog` (the gettext catalogs), `catalog_tools`
(extract / update / init for translators), `phrases` (the phrasebook), `models` (view models),
`view` (`GameView`), `build` (view-model builders), `plan` (which drafts apply), `env` (the
Jinja environment and loader stack), `marker` (the hidden publication marker).
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forummod.render.phrases import Phrasebook

MARKUPS = ("bbcode", "markdown")

#: The package's names and the module each comes from, imported when first asked for (PEP 562):
#: importing `forummod.render.marker` (a site's profile checks its marker form) or `escape`
#: then loads neither Jinja nor the builders (issue 30: 30 ms of a cron poll).
_LAZY = {
    "render_template": "env", "template_name": "env",
    "Safe": "escape", "escape": "escape", "escape_bbcode": "escape", "escape_markdown": "escape",
    "GM_KINDS": "models", "KINDS": "models", "PM_KINDS": "models", "PUBLIC_KINDS": "models",
    "LANGUAGES": "phrases", "Phrasebook": "phrases", "load_phrasebook": "phrases",
    "PlannedDraft": "plan", "plan_drafts": "plan", "plan_kind": "plan",
    "GameView": "view", "game_view": "view",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def render_post(kind: str, post: Any, markup: str, lang: str, user_dir: Path | None = None, *,
                small_form: str = "") -> str:
    """The text of one post: `post` (a view model of `kind`) through its template; `small_form`
    is the engine's small print (`{text}`), "" the markup's default."""
    from forummod.render.env import render_template

    return render_template(kind, markup, lang, post, user_dir, small_form=small_form)


def phrasebook_for(lang: str, ruleset: str, markup: str, user_dir: Path | None = None) -> Phrasebook:
    from forummod.render.phrases import load_phrasebook
    from forummod.resources import search_path

    return load_phrasebook(lang, ruleset, markup, search_path("templates", user_dir))


__all__ = [
    "GM_KINDS", "KINDS", "LANGUAGES", "MARKUPS", "PM_KINDS", "PUBLIC_KINDS", "GameView", "Phrasebook",
    "PlannedDraft", "Safe", "escape", "escape_bbcode", "escape_markdown", "game_view", "load_phrasebook",
    "phrasebook_for", "plan_drafts", "plan_kind", "render_post", "template_name",
]
