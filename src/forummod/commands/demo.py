"""`forummod demo`: run the whole pipeline on the bundled demo game (no setup needed)."""

from __future__ import annotations

from pathlib import Path

NAME = "demo"
HELP = "run the main job on the bundled demo game: a local forum polled over HTTP, counted, checked, drafted"


def add_arguments(p) -> None:
    from forummod.cli import add_global

    add_global(p)  # -v, -q, --config after the command name too
    p.add_argument("--dir", type=Path, default=None,
                   help="workspace folder to keep the demo's config and store (default: a new temporary folder)")


def run(args) -> int:
    from forummod.demo.run import run_demo

    return run_demo(args.dir)
