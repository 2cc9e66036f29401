"""Issue 15 items 2 and 6: each engine profile says what markup its forum renders and how long a
post and a PM may be; a game whose markup differs from its engine's gets a warning (never an
error) naming both keys; `sites.x.max_post_chars` / `max_pm_chars` are checked."""

from __future__ import annotations

import pytest

from forummod.cli import main
from forummod.config import config_warnings, parse_config
from forummod.errors import ConfigError
from forummod.forum.profile import parse_profile
from forummod.forum.registry import profiles

MARKDOWN_ENGINES = {"spirit", "discourse", "flaskbb", "vanilla"}


def test_every_bundled_profile_states_its_markup_and_length_limits():
    profs = profiles(None)
    for name, prof in profs.items():
        assert prof.markup in ("bbcode", "markdown"), name
        assert prof.max_post_chars >= 0 and prof.max_pm_chars >= 0, name
        assert ("markdown" if name in MARKDOWN_ENGINES else "bbcode") == prof.markup, name
    assert profs["spirit"].max_post_chars == 3000  # Spirit refuses a longer comment
    assert profs["discourse"].max_post_chars == 32000 and profs["phpbb"].max_post_chars == 60000


def test_a_profile_with_an_unknown_markup_or_a_negative_limit_names_the_key():
    with pytest.raises(ConfigError, match="markup"):
        parse_profile({"name": "x", "markup": "html"})
    with pytest.raises(ConfigError, match="max_post_chars"):
        parse_profile({"name": "x", "max_post_chars": -1})


def _cfg(engine: str, markup: str, site_lines: str = "") -> str:
    return f"""
[sites.f]
engine = "{engine}"
base_url = "http://127.0.0.1:9/"
{site_lines}
[games.g]
site = "f"
thread = "1"
ruleset = "mafia-majority"
markup = "{markup}"
players = [{{name = "Ann"}}, {{name = "Bob"}}, {{name = "Cat"}}, {{name = "Dan"}}, {{name = "Eve"}}]
"""


def test_bbcode_game_on_a_markdown_engine_warns_naming_both_keys():
    (w,) = config_warnings(parse_config(_cfg("spirit", "bbcode")))
    assert "games.g.markup" in w and "sites.f.engine" in w and 'markup = "markdown"' in w
    assert config_warnings(parse_config(_cfg("spirit", "markdown"))) == []
    assert config_warnings(parse_config(_cfg("phpbb", "bbcode"))) == []


def test_the_markup_warning_is_printed_by_commands_that_load_the_config(tmp_path, capsys):
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(f'[workspace]\nstore = "{tmp_path / "s.sqlite"}"\n' + _cfg("spirit", "bbcode"), encoding="utf-8")
    main(["drafts", "--config", str(cfg)])
    err = capsys.readouterr().err
    assert "warning" in err and "games.g.markup" in err and "sites.f.engine" in err


def test_site_length_limits_are_read_and_a_negative_one_names_the_key():
    cfg = parse_config(_cfg("spirit", "markdown", "max_post_chars = 2500\nmax_pm_chars = 1200\n"))
    assert (cfg.sites["f"].max_post_chars, cfg.sites["f"].max_pm_chars) == (2500, 1200)
    with pytest.raises(ConfigError, match="max_post_chars"):
        parse_config(_cfg("spirit", "markdown", "max_post_chars = -5\n"))
