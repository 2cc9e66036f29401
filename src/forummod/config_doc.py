"""Write `config.example.toml` from the config schema, so the example can never drift.

Every setting comes out with its default and its one-line doc; required keys get an example
value. `python -m forummod.config_doc > config.example.toml` regenerates the file and
`tests/config/test_config_example.py` fails when the committed file differs.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from typing import Any, get_args, get_origin, get_type_hints

from forummod import config as C
from forummod.schema import ClockOrDuration, Duration, fields_of, to_toml_value

HEADER = """\
# forummod — every setting, its default and what it does.
#
# Copy the parts you need into your own forummod.toml ('forummod init' writes a starter).
# Keys left out take the default shown here. Secrets never go in this file: a site names the
# environment variable that holds its password or API key.
# This file is generated from the code: python -m forummod.config_doc > config.example.toml
"""

EXAMPLES: dict[tuple[str, str], Any] = {
    ("SiteConfig", "engine"): "phpbb",
    ("SiteConfig", "base_url"): "https://forum.example.org/",
    ("SiteConfig", "timezone"): "Europe/Rome",
    ("SiteConfig", "language"): "it",
    ("SiteConfig", "username"): "Narratore",
    ("SiteConfig", "password_env"): "FORUMMOD_FORUM_PASSWORD",
    ("GameConfig", "site"): "forum",
    ("GameConfig", "thread"): "https://forum.example.org/viewtopic.php?t=12345",
    ("GameConfig", "graveyard"): "https://forum.example.org/viewtopic.php?t=12346",
    ("GameConfig", "ruleset"): "lupus-eresia",
    ("GameConfig", "timezone"): "Europe/Rome",
    ("GameConfig", "gm"): ("Narratore",),
    ("PlayerConfig", "name"): "Aldo",
    ("PlayerConfig", "aliases"): ("aldino",),
    ("ReplacementConfig", "name"): "Alberto",
    ("ReplacementConfig", "at_post"): 120,
    ("PhasePin", "name"): "D1",
    ("PhasePin", "start_post"): 2,
    ("PhasePin", "end_post"): 57,
    ("GmEventConfig", "kind"): "modkill",
    ("GmEventConfig", "at_post"): 88,
    ("GmEventConfig", "player"): "Zeno",
    ("ScheduleConfig", "start"): "2026-12-01T21:00:00+01:00",
    ("AlertChannelConfig", "kind"): "apprise",
    ("AlertChannelConfig", "url_env"): "FORUMMOD_DISCORD_URL",
    ("AlertChannelConfig", "private"): False,
}

# small but playable setups for the other rulesets' example games
GAME_SNIPPETS: dict[str, list[str]] = {
    "one-night": [
        'language = "nl"',
        'players = [{ name = "Berber" }, { name = "Bobdebouwer" }, { name = "Kraken" }, { name = "Legioen" }, '
        '{ name = "Tetmiera" }]',
        'setup = { deal = "random", roles = { tanner = 1, hunter = 1, werewolf = 2, seer = 1, robber = 1, '
        'troublemaker = 1, insomniac = 1 } }',
    ],
    "witch-hunt": [
        'players = [{ name = "Маша", role = "witch" }, { name = "Саша", role = "witch" }, '
        '{ name = "Петя", role = "herbalist" }, { name = "Игорь", role = "inquisitor" }, '
        '{ name = "Оля", role = "gossip" }, { name = "Ваня" }, { name = "Лена" }]',
    ],
    "village": [
        'players = [{ name = "小明", building = "farm" }, { name = "小红", building = "tavern" }, '
        '{ name = "阿强", role = "werewolf" }, { name = "阿花", building = "school" }, { name = "老王", role = "seer" }, '
        '{ name = "老李", role = "werewolf" }]',
    ],
}

# keys shown as examples although their default is different (documented in the comment)
EXAMPLE_NOTE = "example; default "


def _is_table(tp: Any) -> bool:
    return dataclasses.is_dataclass(tp) and tp not in (Duration, ClockOrDuration)


def _is_array_of_tables(tp: Any) -> bool:
    return get_origin(tp) is tuple and get_args(tp) and dataclasses.is_dataclass(get_args(tp)[0])


def _is_table_map(tp: Any) -> bool:
    """`Mapping[str, SomeConfig]`: named sub-tables ([alerts.channels.<name>]), shown separately."""
    args = get_args(tp)
    return len(args) == 2 and dataclasses.is_dataclass(args[1])


def key_lines(cls: type, *, use_examples: bool = True, overrides: dict[str, Any] | None = None) -> list[str]:
    """`key = value  # doc` for every scalar field of a section (sub-tables come separately)."""
    hints = get_type_hints(cls)
    rows = []
    for f in fields_of(cls):
        if f.metadata.get("internal"):
            continue
        tp = hints[f.name]
        if _is_table(tp) or _is_array_of_tables(tp) or _is_table_map(tp) or f.name == "options":
            continue
        doc = f.metadata.get("doc", "")
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else None)  # type: ignore[misc]
        value = default
        if overrides and f.name in overrides:
            value = overrides[f.name]
        elif use_examples and (cls.__name__, f.name) in EXAMPLES:
            value = EXAMPLES[(cls.__name__, f.name)]
        if f.metadata.get("required"):
            doc = "(required) " + doc
        elif value is not default and value != default:
            doc = f"{doc} [{EXAMPLE_NOTE}{to_toml_value(default)}]"
        rows.append((f"{f.name} = {to_toml_value(value)}", doc))
    width = max((len(k) for k, _ in rows), default=0)
    return [f"{k.ljust(width)}  # {d}" for k, d in rows]


def options_lines(opts_cls: type, prefix: str) -> list[str]:
    """An Options dataclass as `[prefix]` plus nested `[prefix.sub]` tables."""
    out = [f"[{prefix}]"] + key_lines(opts_cls, use_examples=False)
    hints = get_type_hints(opts_cls)
    for f in fields_of(opts_cls):
        tp = hints[f.name]
        if _is_table(tp):
            out.append("")
            out.extend(options_lines(tp, f"{prefix}.{f.name}"))
    return out


def example_config() -> str:
    from forummod.engine.registry import get_ruleset_class, ruleset_names

    L: list[str] = [HEADER]
    L += ["[workspace]"] + key_lines(C.WorkspaceConfig) + [""]
    L += ["# Alerts to the GM (README, 'Alerts'). The name after 'channels.' is yours to choose.",
          "[alerts]"] + key_lines(C.AlertsConfig) + [""]
    L += ["[alerts.channels.discord]"] + key_lines(C.AlertChannelConfig) + [""]
    L += ["# A forum. The name after 'sites.' is yours to choose.", "[sites.forum]"] + key_lines(C.SiteConfig) + [""]
    L += ["# An archived game read from local files (engine 'archive'; see README, 'Archive files').",
          "[sites.archive]",
          'engine = "archive"',
          'posts_file = "archive/posts.jsonl"',
          'messages_file = "archive/messages.jsonl"', ""]
    g = "games.lupus"
    L += ["# A game. The name after 'games.' is its id (forummod tally --game lupus).", f"[{g}]"]
    L += key_lines(C.GameConfig) + [""]
    L += ["# Players in seat order; the first shows every key."]
    L += [f"[[{g}.players]]"] + key_lines(C.PlayerConfig)
    L += [f"[[{g}.players.replaces]]"] + key_lines(C.ReplacementConfig) + [""]
    for name in ("Bianca", "Carlo"):
        L += [f"[[{g}.players]]", f'name = "{name}"', ""]
    L += [f"[{g}.setup]"] + key_lines(C.SetupConfig) + [""]
    L += [f"[{g}.schedule]"] + key_lines(C.ScheduleConfig) + [""]
    L += ["# Phase pins override the schedule (archived games pin phases to post numbers).",
          f"[[{g}.phases]]"] + key_lines(C.PhasePin) + [""]
    L += [f"[{g}.votes]"] + key_lines(C.VoteConfig) + [""]
    L += [f"[{g}.checks]"] + key_lines(C.ChecksConfig) + [""]
    L += [f"[{g}.publish]"] + key_lines(C.PublishConfig) + [""]
    L += [f"[{g}.drafts]"] + key_lines(C.DraftsConfig) + [""]
    L += ["# GM events replayed for archived games (live games record them with 'forummod gm').",
          f"[[{g}.events]]"] + key_lines(C.GmEventConfig) + [""]
    L += ["# Join a game already under way: the tool takes over at this phase (README, 'Joining a game under way').",
          f"[{g}.resume]"] + key_lines(C.ResumeConfig) + [""]
    for rs_name in ruleset_names():
        cls = get_ruleset_class(rs_name)
        gid = "lupus" if rs_name == "lupus-eresia" else rs_name.replace("-", "_")
        if gid != "lupus":
            L += [f"# A {cls.title or rs_name} game: only the keys that differ from the defaults.",
                  f"[games.{gid}]", 'site = "archive"', 'thread = "game"', f'ruleset = "{rs_name}"']
            L += GAME_SNIPPETS.get(rs_name, ['players = [{ name = "P1" }, { name = "P2" }, { name = "P3" }]'])
            L += [""]
        L += [f"# Options of the {rs_name} ruleset, all at their defaults."]
        L += options_lines(cls.Options, f"games.{gid}.options") + [""]
    return "\n".join(L).rstrip() + "\n"


def main() -> int:
    sys.stdout.write(example_config())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
