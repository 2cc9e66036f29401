"""`forummod init`: write a starter config to fill in (never overwrites one)."""

from __future__ import annotations

from pathlib import Path

from forummod.cli import add_common
from forummod.errors import UsageError

NAME = "init"
HELP = "write a starter config file (forummod.toml) to fill in"

STARTER = """# forummod config — written by 'forummod init'. Every setting, its default and a comment
# are in config.example.toml (shipped with forummod); only the ones you need are here.

[workspace]
store = ""                      # empty = your user data dir (forummod keeps posts, votes, drafts there)

[sites.myforum]
engine = "{engine}"             # phpbb, vbulletin, xenforo, discourse, smf, invision, mybb, forumfree, discuz, flaskbb, spirit, archive
base_url = "https://forum.example.org/"
timezone = "{timezone}"         # the timezone the forum shows times in
language = "{language}"         # language of the forum's date words
username = "YourGMAccount"
password_env = "FORUMMOD_MYFORUM_PASSWORD"   # the NAME of an environment variable, not the password

[games.game1]
site = "myforum"
thread = "https://forum.example.org/viewtopic.php?t=12345"
graveyard = ""                  # the cemetery/graveyard thread, if any
ruleset = "{ruleset}"           # lupus-eresia, witch-hunt, one-night, village, mafia-majority
timezone = "{timezone}"
gm = ["YourGMAccount"]
roles_file = ""                 # keep secret roles in a separate file: Name = "role"

[[games.game1.players]]
name = "FirstPlayer"
aliases = ["first"]

[[games.game1.players]]
name = "SecondPlayer"

[games.game1.schedule]
start = "2026-12-01T21:00:00+01:00"   # the GM's opening post

[games.game1.votes]
forms = []                      # empty = the ruleset's: bold 'VOTE: X', [vote]X[/vote] (one-night: and PM votes, ON-V1); or list them, e.g. ["bold", "tag", "plain"]
"""

DEFAULTS = {"lupus-eresia": ("it", "Europe/Rome"), "witch-hunt": ("ru", "Europe/Moscow"),
            "one-night": ("nl", "Europe/Amsterdam"), "village": ("zh", "Asia/Shanghai"),
            "mafia-majority": ("en", "UTC")}


def add_arguments(p) -> None:
    p.add_argument("path", nargs="?", type=Path, default=Path("forummod.toml"), help="where to write (default ./forummod.toml)")
    p.add_argument("--ruleset", default="mafia-majority", choices=sorted(DEFAULTS))
    p.add_argument("--engine", default="phpbb")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.add_argument("-v", "--verbose", action="store_true", help=argparse_hidden())


def argparse_hidden():
    import argparse

    return argparse.SUPPRESS


def run(args) -> int:
    if args.path.exists() and not args.force:
        raise UsageError(f"{args.path} exists; use --force to overwrite it")
    lang, tz = DEFAULTS[args.ruleset]
    text = STARTER.format(engine=args.engine, ruleset=args.ruleset, language=lang, timezone=tz)
    args.path.write_text(text, encoding="utf-8")
    print(f"wrote {args.path}: fill in the forum, the thread and the players, then run 'forummod poll'")
    return 0
