"""config.example.toml shows every setting with its default and a comment, and still loads."""

import dataclasses
import tomllib
from pathlib import Path
from typing import get_type_hints

from forummod import config as C
from forummod.config import load_config
from forummod.config_doc import example_config
from forummod.engine.registry import get_ruleset_class, ruleset_names
from forummod.schema import ClockOrDuration, Duration, defaults_of, fields_of

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config.example.toml"


def test_example_is_the_generated_one():
    assert EXAMPLE.read_text(encoding="utf-8") == example_config(), (
        "config.example.toml is out of date: run  python -m forummod.config_doc > config.example.toml")


def test_example_loads_as_a_valid_config():
    cfg = load_config(EXAMPLE)
    assert {"lupus", "mafia_majority", "one_night", "village", "witch_hunt"} <= set(cfg.games)


def _keys_with_comments(cls, table: dict, text: str, path: str) -> None:
    hints = get_type_hints(cls)
    for f in fields_of(cls):
        if f.metadata.get("internal"):
            continue
        tp = hints[f.name]
        nested = dataclasses.is_dataclass(tp) and tp not in (Duration, ClockOrDuration)
        args = getattr(tp, "__args__", ())
        array_of_tables = bool(args) and dataclasses.is_dataclass(args[0])
        if len(args) == 2 and dataclasses.is_dataclass(args[1]):  # named sub-tables, e.g. alerts.channels
            continue
        if nested or array_of_tables or f.name in ("options", "sites", "games"):
            continue
        assert f.name in table, f"{path}.{f.name} missing from config.example.toml"
        assert any(line.startswith(f"{f.name} =") and "#" in line for line in text.splitlines()), \
            f"{path}.{f.name} has no comment"


def test_every_setting_appears_with_a_comment():
    text = EXAMPLE.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    game = data["games"]["lupus"]
    _keys_with_comments(C.WorkspaceConfig, data["workspace"], text, "workspace")
    _keys_with_comments(C.SiteConfig, data["sites"]["forum"], text, "sites.forum")
    _keys_with_comments(C.GameConfig, game, text, "games.lupus")
    for sub, cls in (("setup", C.SetupConfig), ("schedule", C.ScheduleConfig), ("votes", C.VoteConfig),
                     ("checks", C.ChecksConfig), ("publish", C.PublishConfig)):
        _keys_with_comments(cls, game[sub], text, f"games.lupus.{sub}")
    _keys_with_comments(C.PlayerConfig, game["players"][0], text, "players")
    _keys_with_comments(C.PhasePin, game["phases"][0], text, "phases")
    _keys_with_comments(C.GmEventConfig, game["events"][0], text, "events")
    _keys_with_comments(C.ResumeConfig, game["resume"], text, "games.lupus.resume")
    _keys_with_comments(C.AlertsConfig, data["alerts"], text, "alerts")
    _keys_with_comments(C.AlertChannelConfig, data["alerts"]["channels"]["discord"], text, "alerts.channels.discord")


def _same_defaults(opts_cls, table: dict, path: str) -> None:
    hints = get_type_hints(opts_cls)
    for f in fields_of(opts_cls):
        assert f.name in table, f"{path}.{f.name} missing"
        tp = hints[f.name]
        if dataclasses.is_dataclass(tp) and tp not in (Duration, ClockOrDuration):
            _same_defaults(tp, table[f.name], f"{path}.{f.name}")
            continue
        default = defaults_of(opts_cls)[f.name]
        value = table[f.name]
        if isinstance(default, tuple):
            default = list(default)
        if isinstance(default, (Duration, ClockOrDuration)):
            default = str(default)
        assert value == default, f"{path}.{f.name}: example shows {value!r}, default is {default!r}"


def test_every_ruleset_option_appears_at_its_default():
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    for name in ruleset_names():
        gid = "lupus" if name == "lupus-eresia" else name.replace("-", "_")
        _same_defaults(get_ruleset_class(name).Options, data["games"][gid]["options"], f"games.{gid}.options")
