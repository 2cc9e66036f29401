"""`forummod` command line: one module per command in `forummod.commands`.

Each command module defines `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`.
Every command accepts `--config`; reporting commands accept `--json`. Exit codes: 0 ok,
1 findings or a failed operation, 2 usage or configuration error.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sqlite3
import sys
from pathlib import Path
from typing import Sequence

from forummod import __version__
from forummod.errors import ForummodError
from forummod.logsafe import redact

COMMANDS = (
    "init", "demo", "poll", "tally", "status", "check", "draft", "drafts", "preview", "publish",
    "discard", "gm", "tick", "run", "replay", "parse", "profile",
)

EPILOG = """exit codes: 0 ok, 1 findings or a failed operation, 2 usage or config error.
config: --config PATH, else $FORUMMOD_CONFIG, else ./forummod.toml"""


def add_common(p: argparse.ArgumentParser, *, json: bool = True, game: bool = False) -> None:
    """Options shared by most commands."""
    p.add_argument("--config", type=Path, default=None, metavar="PATH",
                   help="config file (default: $FORUMMOD_CONFIG or ./forummod.toml)")
    if json:
        p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    if game:
        p.add_argument("--game", metavar="ID", help="game id from the config (default: the only game)")
    p.add_argument("-v", "--verbose", action="store_true", help="log HTTP detail")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="forummod",
        description="Counts votes, checks rules and drafts moderator posts for forum Werewolf/Mafia games.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"forummod {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        mod = importlib.import_module(f"forummod.commands.{name}")
        p = sub.add_parser(name, help=mod.HELP, description=mod.HELP, epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def setup_logging(verbose: bool) -> None:
    level = logging.DEBUG if verbose else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    if not verbose:
        for noisy in ("urllib3", "apscheduler", "tzlocal"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
    from forummod.logsafe import install_redaction

    install_redaction()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    setup_logging(getattr(args, "verbose", False))
    try:
        return int(args._run(args) or 0)
    except ForummodError as e:
        print(f"forummod {args.command}: {redact(str(e))}", file=sys.stderr)
        return e.exit_code
    except sqlite3.DatabaseError as e:  # damage the store's opening checks could not see
        why = "".join(ch if ch.isprintable() else "?" for ch in str(e))[:200]  # damaged bytes: one readable line
        print(f"forummod {args.command}: the store{_store_path(args)} is damaged or unreadable ({why}); "
              "restore a backup or move it away to start a new one", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _store_path(args: argparse.Namespace) -> str:
    """' <path>' of the configured store, for messages (empty when the config cannot say)."""
    try:
        from forummod.commands._common import config_path
        from forummod.config import load_config

        return f" {load_config(config_path(args)).workspace.store_path()}"
    except Exception:
        return ""
