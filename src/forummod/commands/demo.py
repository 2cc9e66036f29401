"""`forummod demo`: not built yet."""

from __future__ import annotations

from forummod.cli import add_common
from forummod.errors import NotImplementedYet

NAME = "demo"
HELP = "(not built yet)"


def add_arguments(p) -> None:
    add_common(p)


def run(args) -> int:
    raise NotImplementedYet("'demo' is not built yet in this version")
