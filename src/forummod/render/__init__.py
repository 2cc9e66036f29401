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

from pathlib import Path
from typing import Any

from forummod.render.env import render_template, template_name
from forummod.render.escape import Safe, escape, escape_bbcode, escape_markdown
from forummod.render.models import GM_KINDS, KINDS, PM_KINDS, PUBLIC_KINDS
from forummod.render.phrases import LANGUAGES, Phrasebook, load_phrasebook
from forummod.render.plan import PlannedDraft, plan_drafts, plan_kind
from forummod.render.view import GameView, game_view
from forummod.resources import search_path

MARKUPS = ("bbcode", "markdown")


def render_post(kind: str, post: Any, markup: str, lang: str, user_dir: Path | None = None, *,
                small_form: str = "") -> str:
    """The text of one post: `post` (a view model of `kind`) through its template; `small_form`
    is the engine's small print (`{text}`), "" the markup's default."""
    return render_template(kind, markup, lang, post, user_dir, small_form=small_form)


def phrasebook_for(lang: str, ruleset: str, markup: str, user_dir: Path | None = None) -> Phrasebook:
    return load_phrasebook(lang, ruleset, markup, search_path("templates", user_dir))


__all__ = [
    "GM_KINDS", "KINDS", "LANGUAGES", "MARKUPS", "PM_KINDS", "PUBLIC_KINDS", "GameView", "Phrasebook",
    "PlannedDraft", "Safe", "escape", "escape_bbcode", "escape_markdown", "game_view", "load_phrasebook",
    "phrasebook_for", "plan_drafts", "plan_kind", "render_post", "template_name",
]
