"""`forummod tick`: one pass over every active game, for crontab.

Exit codes: 0 every game done, 1 a game's poll or pass failed, 2 config error, 75 another
run holds the workspace lock (this run did nothing; cron will try again).
"""

from __future__ import annotations

import sys

from forummod.cli import add_common
from forummod.commands._common import open_workspace, print_json
from forummod.errors import LockBusy

NAME = "tick"
HELP = "one pass for cron: poll, recount, check, draft and publish what the policy allows, for every active game"

EX_TEMPFAIL = 75


def add_arguments(p) -> None:
    add_common(p, game=True)
    p.add_argument("--no-publish", action="store_true", help="draft but do not auto-publish")


def run(args) -> int:
    from forummod.lock import WorkspaceLock
    from forummod.pipeline import game_pass
    from forummod.progress import progress_printer

    with open_workspace(args) as ws:
        cfg = ws.cfg
        try:
            lock = WorkspaceLock(cfg.workspace.store_path(),
                                 stale_after_s=cfg.workspace.lock_stale_after.seconds).acquire()
        except LockBusy as e:
            print(f"forummod tick: {e}", file=sys.stderr)
            return EX_TEMPFAIL
        try:
            if lock.recovered:
                print(f"forummod tick: recovered the lock of a run that died (pid {lock.recovered.get('pid')})",
                      file=sys.stderr)
            reports = []
            for gid in ws.game_ids(args.game, active_only=args.game is None):
                with progress_printer(gid, enabled=not args.json) as prog:
                    reports.append(game_pass(ws, gid, publish=not args.no_publish, progress=prog))
        finally:
            lock.release()
        if args.json:
            print_json([r.__dict__ | {"poll": r.poll.__dict__ if r.poll else None} for r in reports])
        else:
            from forummod.alerts.decide import gm_lines

            for r in reports:  # cron mails output: print only what needs the GM
                for line in gm_lines(r):
                    print(line)
        return 0 if all(r.ok for r in reports) else 1
