"""A bad config gets one clear error naming the key path (and the closest valid key)."""

import pytest

from forummod.config import parse_config
from forummod.errors import ConfigError

BASE = """
[sites.f]
engine = "archive"
posts_file = "posts.jsonl"

[games.g1]
site = "f"
thread = "game"
ruleset = "mafia-majority"
timezone = "Europe/Rome"
gm = ["Mod"]
players = [{ name = "Ann", role = "mafia" }, { name = "Bob", aliases = ["Bobby"] }, { name = "Cat" }]
"""


def err(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        parse_config(text)
    return e.value


def test_valid_config_loads_into_frozen_dataclasses():
    cfg = parse_config(BASE)
    g = cfg.game("g1")
    assert g.players[1].aliases == ("Bobby",)
    assert g.roster().slot_of_account("bob").name == "Bob"
    with pytest.raises(Exception):
        g.site = "x"  # frozen


def test_typo_in_a_key_names_the_path_and_suggests_the_right_key():
    e = err(BASE.replace('ruleset = "mafia-majority"', 'rulset = "mafia-majority"'))
    assert e.path == "games.g1.rulset"
    assert "did you mean 'ruleset'?" in str(e)


def test_wrong_type_is_reported_with_the_key_path():
    e = err(BASE + "\n[games.g1.votes]\nfuzzy_margin = \"ten\"\n")
    assert e.path == "games.g1.votes.fuzzy_margin" and "integer" in e.message


def test_unknown_ruleset_lists_the_known_ones():
    e = err(BASE.replace('"mafia-majority"', '"mafia-majorty"'))
    assert e.path == "games.g1.ruleset" and "did you mean 'mafia-majority'" in str(e)


def test_unknown_timezone_suggests_a_real_one():
    e = err(BASE.replace("Europe/Rome", "Europe/Rom"))
    assert e.path == "games.g1.timezone" and "Europe/Rome" in e.message


def test_player_listed_twice_is_refused():
    e = err(BASE.replace('{ name = "Cat" }', '{ name = "cat" }, { name = "Cat" }'))
    assert "listed twice" in e.message


def test_alias_matching_two_players_is_refused():
    e = err(BASE.replace('{ name = "Cat" }', '{ name = "Cat", aliases = ["bobby"] }'))
    assert "matches two players" in e.message


def test_unknown_role_suggests_the_closest():
    e = err(BASE.replace('role = "mafia"', 'role = "mafai"'))
    assert "unknown role 'mafai'" in e.message and "did you mean 'mafia'" in e.message


def test_role_counts_that_do_not_add_up_are_refused():
    text = BASE + '\n[games.g1.setup]\ndeal = "random"\nroles = { mafia = 1, town = 1 }\n'
    e = err(text.replace('role = "mafia"', 'role = ""'))
    assert e.path == "games.g1.setup.roles" and "add up to 2" in e.message


def test_unknown_site_reference():
    e = err(BASE.replace('site = "f"', 'site = "ff"'))
    assert e.path == "games.g1.site" and "did you mean 'f'" in str(e)


def test_missing_required_key():
    e = err(BASE.replace('thread = "game"\n', ""))
    assert e.path == "games.g1.thread" and "missing required key" in e.message


def test_bad_duration_and_bad_deadline():
    e = err(BASE.replace('timezone = "Europe/Rome"', 'timezone = "Europe/Rome"\npoll_interval = "5 parsecs"'))
    assert e.path == "games.g1.poll_interval" and "not a duration" in e.message
    e = err(BASE + "\n[games.g1.schedule]\nvote_close = \"25:00\"\n")
    assert e.path == "games.g1.schedule.vote_close" and "not a valid clock time" in e.message


def test_not_toml_reports_the_line():
    e = err("[sites.f\nengine=1")
    assert "not valid TOML" in e.message and "line" in e.message


def test_engine_needs_base_url_and_a_known_engine():
    e = err(BASE.replace('engine = "archive"\nposts_file = "posts.jsonl"', 'engine = "phpbb"'))
    assert e.path == "sites.f.base_url"


def test_gm_cannot_also_be_a_player():
    e = err(BASE.replace('gm = ["Mod"]', 'gm = ["Ann"]'))
    assert e.path == "games.g1.gm"


def test_relative_paths_are_relative_to_the_config_file(tmp_path):
    p = tmp_path / "forummod.toml"
    p.write_text(BASE, encoding="utf-8")
    from forummod.config import load_config

    cfg = load_config(p)
    assert cfg.sites["f"].posts_file == tmp_path / "posts.jsonl"
