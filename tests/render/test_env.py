"""The Jinja environment: strict, escaping per markup, user templates over the bundled ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from forummod.errors import TemplateFailure

from forummod.render import KINDS, LANGUAGES, MARKUPS, phrasebook_for, render_post
from forummod.render.env import make_env, render_template, template_name
from forummod.render.escape import Safe
from forummod.resources import bundled_dir

from tests.render.samples import votecount


def test_every_kind_and_markup_has_one_bundled_template_for_all_languages():
    """Issue 20: `<kind>/<markup>.j2` with its sentences in the catalogs, no per-language copies."""
    root = bundled_dir("templates")
    missing = [template_name(k, m) for k in KINDS for m in MARKUPS if not (root / template_name(k, m)).is_file()]
    copies = [template_name(k, m, lang) for k in KINDS for m in MARKUPS for lang in LANGUAGES
              if (root / template_name(k, m, lang)).is_file()]
    assert missing == [] and copies == []


def test_a_misspelt_field_is_an_error_not_an_empty_string(tmp_path: Path):
    (tmp_path / "votecount").mkdir()
    (tmp_path / "votecount" / "bbcode.en.j2").write_text("{{ post.wagonz }}", encoding="utf-8")
    pb = phrasebook_for("en", "mafia-majority", "bbcode")
    with pytest.raises(TemplateFailure, match="wagonz") as e:  # the template's file and line, for the GM
        render_template("votecount", "bbcode", "en", votecount(pb), tmp_path)
    assert e.value.line == 1 and e.value.template.endswith("votecount/bbcode.en.j2")


def test_values_are_escaped_for_the_markup_and_safe_ones_are_not():
    env = make_env("markdown")
    t = env.from_string("{{ a }}|{{ b }}|{{ names|join(', ') }}|{% macro m(x) %}**{{ x }}**{% endmacro %}{{ m(a) }}")
    out = t.render(a="*x*", b=Safe("**ok**"), names=["_a_", "b"])
    assert out == r"\*x\*|**ok**|\_a\_, b|**\*x\***"


def test_a_user_template_replaces_the_bundled_one(tmp_path: Path):
    (tmp_path / "votecount").mkdir()
    (tmp_path / "votecount" / "bbcode.en.j2").write_text("Count for {{ post.head.phase }}\n", encoding="utf-8")
    pb = phrasebook_for("en", "mafia-majority", "bbcode")
    assert render_post("votecount", votecount(pb), "bbcode", "en", tmp_path) == "Count for Day 2\n"


def test_a_user_template_can_extend_the_default_and_override_one_block(tmp_path: Path):
    (tmp_path / "votecount").mkdir()
    (tmp_path / "votecount" / "bbcode.it.j2").write_text(
        '{% extends "default:votecount/bbcode.it.j2" %}\n{% block footer %}Votate con giudizio, {{ post.head.game }}!\n'
        '{% endblock %}\n', encoding="utf-8")
    pb = phrasebook_for("it", "mafia-majority", "bbcode")
    default = render_post("votecount", votecount(pb), "bbcode", "it")
    mine = render_post("votecount", votecount(pb), "bbcode", "it", tmp_path)
    assert mine.startswith("[b]Votazione — Giorno 2[/b]")
    assert mine.rstrip().endswith("Votate con giudizio, Valfonda #7!")
    assert "Il rogo si chiude" in default and "Il rogo si chiude" not in mine
    assert mine.split("[b]Non hanno votato")[0] == default.split("[b]Non hanno votato")[0]
