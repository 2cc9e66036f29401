"""The [alerts] table: thresholds with defaults, channels whose URLs live in the environment."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from forummod.config import parse_config
from forummod.errors import ConfigError

from tests.archive_game import archive_config, players_toml, write_posts
from tests.config.test_config_errors import BASE


def err(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        parse_config(text)
    return e.value


def test_thresholds_have_defaults():
    a = parse_config(BASE).alerts
    assert (a.deadline_warning.seconds, a.poll_failing.seconds) == (7200, 1800)
    assert a.channels == {} and a.disabled == ()


def test_thresholds_and_channels_load():
    a = parse_config(BASE + '[alerts]\ndeadline_warning = "45m"\npoll_failing = "1h"\n'
                            '[alerts.channels.discord]\nkind = "apprise"\nurl_env = "FORUMMOD_DISCORD_URL"\n'
                            'private = false\n').alerts
    assert a.deadline_warning.seconds == 2700 and a.poll_failing.seconds == 3600
    assert a.channels["discord"].url_env == "FORUMMOD_DISCORD_URL" and a.channels["discord"].private is False


def test_a_misspelt_threshold_is_named_with_the_right_key():
    e = err(BASE + '[alerts]\ndeadline_warnings = "1h"\n')
    assert e.path == "alerts.deadline_warnings" and "deadline_warning" in e.message


def test_a_channel_must_say_whether_it_is_private():
    e = err(BASE + '[alerts.channels.d]\nkind = "apprise"\nurl_env = "X_URL"\n')
    assert e.path == "alerts.channels.d.private" and "missing" in e.message


def test_a_url_written_instead_of_a_variable_name_is_refused_without_echoing_it():
    e = err(BASE + '[alerts.channels.d]\nkind = "apprise"\nurl_env = "discord://1234/secret-token"\nprivate = false\n')
    assert "environment variable" in e.message and "secret-token" not in str(e)


def test_an_unknown_alert_kind_suggests_the_closest():
    e = err(BASE + '[alerts]\ndisabled = ["hamer"]\n')
    assert e.path == "alerts.disabled[0]" and "hammer" in e.message


def test_a_channel_for_an_unknown_game_is_refused():
    e = err(BASE + '[alerts.channels.d]\nkind = "forum_pm"\nprivate = true\ngames = ["g2"]\n')
    assert e.path == "alerts.channels.d.games" and "g1" in e.message


def test_tick_without_an_apprise_channel_never_imports_apprise(tmp_path):
    from datetime import datetime, timezone

    write_posts(tmp_path, [("Mod", "Day 1 begins")], datetime.now(timezone.utc))
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat"], {"Ann": "mafia"})), encoding="utf-8")
    code = ("import sys; from forummod.cli import main; rc = main(['tick', '--config', sys.argv[1]]); "
            "print('apprise' in sys.modules, rc)")
    out = subprocess.run([sys.executable, "-c", code, str(cfg)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert out.stdout.strip().splitlines()[-1] == "False 0", out.stderr
