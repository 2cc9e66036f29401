"""The ruleset registry: a game's ruleset is imported alone (issue 17: a cron `tally`)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from forummod.engine import registry
from forummod.errors import ConfigError


def test_each_ruleset_is_found_by_its_name_the_same_as_by_listing_them_all():
    listed = registry._discover()
    assert listed, "no rulesets found"
    for name, cls in listed.items():
        assert registry.get_ruleset_class(name) is cls
        assert registry._by_module_name(name) is cls  # every bundled ruleset's module is named after it
        assert registry.is_ruleset(name)


def test_an_unknown_ruleset_is_refused_with_the_known_names():
    assert not registry.is_ruleset("no-such-rules")
    assert "no-such-rules" not in registry.RulesetNames()
    with pytest.raises(ConfigError, match="mafia-majority"):
        registry.get_ruleset_class("no-such-rules")
    assert list(registry.RulesetNames()) == registry.ruleset_names()


def _imported_after(code: str) -> set[str]:
    src = os.path.join(os.path.dirname(registry.__file__), "..", "..")
    env = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, env=env, check=True).stdout
    return {m for m in out.split() if m.startswith("forummod.engine.rulesets.")}


def test_a_game_of_one_ruleset_imports_no_other_ruleset():
    mods = _imported_after("from forummod.engine.registry import make_ruleset\nmake_ruleset('mafia-majority')")
    assert mods == {"forummod.engine.rulesets.mafia_majority"}


def test_building_the_command_line_for_a_tally_imports_no_ruleset():
    mods = _imported_after("from forummod.cli import build_parser, command_named\n"
                           "build_parser(command_named(['--config', 'x.toml', 'tally']))\nbuild_parser()")
    assert mods == set()  # the gm and init help list every ruleset only when shown
