"""`forummod poll`: fetch new posts and PMs of every active game (or one) into the store."""

from __future__ import annotations

import sys

from forummod.cli import add_common
from forummod.commands._common import open_workspace, print_json

NAME = "poll"
HELP = "fetch new posts and private messages into the store"


def add_arguments(p) -> None:
    add_common(p, game=True)
    p.add_argument("--no-inbox", action="store_true", help="skip the private-message inbox")


def run(args) -> int:
    from forummod.progress import progress_printer
    from forummod.service import poll_game

    with open_workspace(args, writes=True) as ws:
        reports = []
        for gid in ws.game_ids(args.game, active_only=args.game is None):
            with progress_printer(gid, enabled=not args.json) as prog:
                reports.append(poll_game(ws, gid, progress=prog, inbox=not args.no_inbox))
        if args.json:
            print_json([r.__dict__ | {"issues": [i.message for i in r.issues]} for r in reports])
        else:
            for r in reports:
                if r.ok:
                    print(f"{r.game}: {r.new_posts} new posts, {r.edited_posts} edited, {r.deleted_posts} deleted, "
                          f"{r.new_messages} new PMs ({r.requests} requests, {r.seconds:.1f}s)")
                else:
                    print(f"{r.game}: poll failed: {r.error}", file=sys.stderr)
                for i in r.issues:
                    print(f"  ! {i.message}")
        return 0 if all(r.ok for r in reports) else 1
