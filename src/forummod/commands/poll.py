"""`forummod poll`: fetch new posts and PMs of every active game (or one) into the store."""

from __future__ import annotations

import sys

from forummod.cli import add_common
from forummod.commands._common import open_workspace, print_json, plural

NAME = "poll"
HELP = "fetch new posts and private messages into the store"


def add_arguments(p) -> None:
    add_common(p, game=True)
    p.add_argument("--no-inbox", action="store_true", help="skip the private-message inbox")
    p.add_argument("--recheck", action="store_true",
                   help="also re-read now the recent pages the polls have moved past, for edits made there "
                        "(done every sites.x.recheck_minutes anyway)")


def run(args) -> int:
    from forummod.progress import progress_printer
    from forummod.service import poll_game

    with open_workspace(args, writes=True) as ws:
        reports = []
        for gid in ws.game_ids(args.game, active_only=args.game is None):
            with progress_printer(gid, enabled=not args.json) as prog:
                reports.append(poll_game(ws, gid, progress=prog, inbox=not args.no_inbox, recheck=args.recheck))
        if args.json:
            print_json("poll", {"polls": [poll_dict(r) for r in reports]})
        else:
            for r in reports:
                if r.ok:
                    print(f"{r.game}: {plural(r.new_posts, 'new post')}, {r.edited_posts} edited, "
                          f"{r.deleted_posts} deleted, {plural(r.new_messages, 'new PM')} "
                          f"({plural(r.requests, 'request')}, {r.seconds:.1f}s)")
                else:
                    print(f"{r.game}: poll failed: {r.error}", file=sys.stderr)
                for i in r.issues:
                    print(f"  ! {i.message}")
        return 0 if all(r.ok for r in reports) else 1


def poll_dict(r) -> dict:
    """One poll report in the documented JSON shape (poll and tick)."""
    from forummod.report import issue_dict

    return {"game": r.game, "ok": r.ok, "new_posts": r.new_posts, "edited_posts": r.edited_posts,
            "deleted_posts": r.deleted_posts, "new_messages": r.new_messages, "requests": r.requests,
            "bytes": r.bytes, "seconds": round(r.seconds, 3), "error": r.error,
            "retry_at": r.retry_at.isoformat() if r.retry_at else None, "issues": [issue_dict(i) for i in r.issues]}
