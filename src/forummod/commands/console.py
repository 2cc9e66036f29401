"""`forummod console`: run the day from one local page (127.0.0.1, a random token in the URL).

Per game: the live vote count with L-1, majority and hammer marked; the phase and its deadlines
with a countdown; pending proposals with Approve / Reject; forms for the GM's corrections (a
vote, an unreadable name, a night action, a replacement, extending or ending the phase, a note,
undo); the GM notes; the night actions received; the prod list; and the drafts with their
Publish, Edit and Discard buttons (`forummod preview` serves the drafts alone). Every button
asks first, then does exactly what the matching command does (`gm ...`, `poll`, `publish`),
taking the workspace lock for that action only, so a cron `tick` keeps running meanwhile.
Runs until Ctrl-C.
"""

from __future__ import annotations

import textwrap

from forummod.cli import add_common
from forummod.commands._common import open_workspace

NAME = "console"
HELP = "serve the GM console: vote count, deadlines, proposals, corrections, night actions, prod list, drafts"
DESCRIPTION = textwrap.fill(" ".join(__doc__.split("\n\n", 1)[1].split()), 88)


def add_arguments(p) -> None:
    add_common(p, json=False, game=True)
    for action in p._actions:
        if action.dest == "game":
            action.help = "show only this game (default: every game of the config, the active ones first)"
    p.add_argument("--port", type=int, default=0, metavar="N", help="port to listen on (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="only print the URL; do not open a browser")


def run(args) -> int:
    from forummod.commands.preview import serve_until_interrupted
    from forummod.console.server import ConsoleServer

    with open_workspace(args) as ws:
        games = [ws.only_game(args.game)] if args.game else None
        serve_until_interrupted(ConsoleServer(ws, port=args.port, games=games).start(), "console",
                                open_browser=not args.no_browser)
        return 0
