"""Small print per engine: the vote count's "as of" line is `[size=85]` only where 85 means
85% (phpBB). MyBB reads `[size=N]` as N points (85 is clamped to a 50 pt headline), SMF 2.1
refuses the value and shows the tag raw, vBulletin/XenForo/Discuz! count sizes 1-7. Each
profile's `small_form` says how its engine writes small print; drafts use it only when the game
writes the engine's markup."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from forummod.errors import ConfigError
from forummod.forum.profile import parse_profile
from forummod.forum.registry import profiles
from forummod.freshness import small_form_for
from forummod.render import phrasebook_for, render_post
from tests.render.samples import votecount


def rendered(small_form: str = "") -> str:
    pb = phrasebook_for("en", "mafia-majority", "bbcode")
    return render_post("votecount", votecount(pb), "bbcode", "en", small_form=small_form)


def test_without_a_form_the_count_keeps_phpbbs_percent_size():
    assert "[size=85]Count as of" in rendered()
    assert profiles(None)["phpbb"].small_form == ""


@pytest.mark.parametrize("engine, tag", [("mybb", "[size=small]"), ("smf", "[size=small]"),
                                         ("vbulletin", "[size=2]"), ("xenforo", "[size=2]")])
def test_each_bbcode_engine_gets_small_print_in_a_size_it_understands(engine, tag):
    text = rendered(profiles(None)[engine].small_form)
    assert f"{tag}Count as of" in text and "[size=85]" not in text


def test_an_engine_without_a_size_tag_gets_plain_small_print():
    text = rendered(profiles(None)["fluxbb"].small_form)
    assert "[size" not in text and "Count as of" in text


def _ws(engine: str, markup: str):
    site = SimpleNamespace(engine=engine)
    game = SimpleNamespace(markup=markup)
    cfg = SimpleNamespace(site_of=lambda gid: site, game=lambda gid: game,
                          workspace=SimpleNamespace(adapters_dir=None))
    return SimpleNamespace(cfg=cfg)


def test_a_game_writing_another_markup_than_its_engines_gets_the_markups_default():
    assert small_form_for(_ws("mybb", "bbcode"), "g", "bbcode") == "[size=small]{text}[/size]"
    assert small_form_for(_ws("mybb", "markdown"), "g", "markdown") == ""


@pytest.mark.parametrize("form", ["[size=2][/size]", "{text}{text}"])
def test_a_malformed_small_form_is_refused_naming_the_key(form):
    with pytest.raises(ConfigError) as err:
        parse_profile({"name": "custom", "markup": "bbcode", "small_form": form})
    assert "small_form" in str(err.value) and "{text}" in str(err.value)
