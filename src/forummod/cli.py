# PYTHON_ARGCOMPLETE_OK  (lets argcomplete complete the console script; see cli._complete)
"""`forummod` command line: one module per command in `forummod.commands`.

Each command module defines `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`.
Every command accepts the global options (`--config`, `-v`, `-q`, `--adopt`) before or after
its name; reporting commands accept `--json` and `--now`. Exit codes: 0 ok,
1 findings or a failed operation, 2 usage or configuration error.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sqlite3
import sys
from pathlib import Path
from typing import Sequence

from forummod import __version__
from forummod.errors import ForummodError
from forummod.logsafe import redact

COMMANDS = (
    "init", "doctor", "demo", "poll", "tally", "status", "check", "draft", "drafts", "console", "preview", "publish",
    "discard", "gm", "tick", "run", "replay", "parse", "profile", "store", "history", "export",
)

EPILOG = """exit codes: 0 ok, 1 findings or a failed operation, 2 usage or config error,
75 (tick) another run holds the workspace lock.
config: --config PATH, else $FORUMMOD_CONFIG, else ./forummod.toml
global options (--config, -v, -q, --adopt) go before or after the command."""


def add_global(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    """Options accepted before and after the command. Below the top level their default is
    SUPPRESS, so a subcommand never resets a value given before it (`forummod --config X tally`)."""
    d = (lambda v: v) if top else (lambda v: argparse.SUPPRESS)
    p.add_argument("--config", type=Path, default=d(None), metavar="PATH",
                   help="config file (default: $FORUMMOD_CONFIG or ./forummod.toml)")
    p.add_argument("-v", "--verbose", action="count", default=d(0),
                   help="more log output on stderr: -v progress and retries, -vv HTTP detail")
    p.add_argument("-q", "--quiet", action="count", default=d(0), help="only errors on stderr (-qq: nothing but fatal ones)")
    p.add_argument("--adopt", action="store_true", default=d(False),
                   help="let this config take over a game id the store knows for another site or thread")


def add_common(p: argparse.ArgumentParser, *, json: bool = True, game: bool = False, now: bool = False,
               nested: bool = False) -> None:
    """Options shared by most commands (`nested`: a sub-action such as `gm approve`, whose
    defaults must not reset what its command already parsed)."""
    add_global(p)
    if json:
        p.add_argument("--json", action="store_true", default=argparse.SUPPRESS if nested else False,
                       help="print machine-readable JSON (docs/json.md)")
    if game:
        p.add_argument("--game", metavar="ID", default=argparse.SUPPRESS if nested else None,
                       help="game id from the config (default: the only game)")
    if now:
        p.add_argument("--now", metavar="TIME", default=argparse.SUPPRESS if nested else None,
                       help="analyse the game as it stood at TIME (ISO 8601; default: now)")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with `only` (a command name) just that command's parser:
    a cron `tally` or `tick` then builds one parser, not nineteen (a tenth of its process)."""
    parser = argparse.ArgumentParser(
        prog="forummod",
        description="Counts votes, checks rules and drafts moderator posts for forum Werewolf/Mafia games.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"forummod {__version__}")
    add_global(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (only,) if only in COMMANDS else COMMANDS:
        mod = importlib.import_module(f"forummod.commands.{name}")
        p = sub.add_parser(name, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP), epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.add_argument("--version", action="version", version=f"forummod {__version__}")
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run, _log_level=getattr(mod, "LOG_LEVEL", logging.WARNING))
    return parser


def log_level(args: argparse.Namespace) -> int:
    """-v/-q around the command's default (WARNING; the daemon's is INFO)."""
    base = getattr(args, "_log_level", logging.WARNING)
    steps = int(getattr(args, "verbose", 0) or 0) - int(getattr(args, "quiet", 0) or 0)
    return min(max(base - 10 * steps, logging.DEBUG), logging.CRITICAL)


def setup_logging(level: int) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    logging.getLogger().setLevel(level)
    if level > logging.DEBUG:
        for noisy in ("urllib3", "apscheduler", "tzlocal"):
            logging.getLogger(noisy).setLevel(max(level, logging.WARNING))
    from forummod.logsafe import install_redaction

    install_redaction()


def command_named(argv: Sequence[str]) -> str | None:
    """The command an argument list runs: its first word that is neither an option nor the
    value of `--config` (or an abbreviation of it), when that word is a command; else None."""
    args = iter(argv)
    for a in args:
        if a == "--":
            return None
        if a.startswith("-"):
            if a.startswith("--c") and "=" not in a:
                next(args, None)  # --config PATH
            continue
        return a if a in COMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Everything it prints or logs reaches the terminal through
    `termsafe.visible`: forum text cannot retitle the window, write the clipboard or erase a line."""
    from forummod.termsafe import safe_streams

    with safe_streams():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    _complete()
    parser = build_parser(command_named(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    setup_logging(log_level(args))
    try:
        return int(args._run(args) or 0)
    except ForummodError as e:
        print(f"forummod {args.command}: {redact(str(e))}", file=sys.stderr)
        return e.exit_code
    except sqlite3.DatabaseError as e:  # damage found after the store's opening checks (see store_file)
        why = "".join(ch if ch.isprintable() else "?" for ch in str(e))[:200]  # damaged bytes: one readable line
        path = _store_path(args)
        from forummod.store_file import damage_advice

        advice = damage_advice(path) + "." if path is not None else ""
        print(f"forummod {args.command}: the store{f' {path}' if path else ''} is damaged or unreadable ({why})."
              f"{advice}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `forummod drafts --json | head`: the reader left; no traceback
        _silence_stdout()
        return 141
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _complete() -> None:
    """Shell completion (optional `argcomplete`): only when the shell asks for it, so cron's
    `forummod tick` never imports it."""
    if "_ARGCOMPLETE" not in os.environ:
        return
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(build_parser())


def _store_path(args: argparse.Namespace) -> Path | None:
    """The configured store, for messages (None when the config cannot say)."""
    try:
        from forummod.commands._common import config_path
        from forummod.config import load_config

        return Path(load_config(config_path(args)).workspace.store_path())
    except Exception:
        return None
