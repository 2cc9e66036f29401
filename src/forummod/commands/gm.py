"""`forummod gm`: not built yet."""

from __future__ import annotations

from forummod.cli import add_common
from forummod.errors import NotImplementedYet

NAME = "gm"
HELP = "(not built yet)"


def add_arguments(p) -> None:
    add_common(p)


def run(args) -> int:
    raise NotImplementedYet("'gm' is not built yet in this version")
