"""`forummod tick`: one pass over every active game, for crontab.

Quiet when nothing needs the GM (cron mails whatever a job prints): a line on stdout per game
that has a failed poll or pass, new findings, changed drafts or a new pending proposal; `-v`
prints every game's line. Exit codes: 0 every game done, 1 a game's poll or pass failed,
2 config error, 75 another run holds the workspace lock (this run did nothing; cron will try
again).
"""

from __future__ import annotations

import sys

from forummod.cli import add_common
from forummod.commands._common import open_workspace, print_json
from forummod.errors import LockBusy

NAME = "tick"
HELP = "one pass for cron: poll, recount, check, draft and publish what the policy allows; quiet unless the GM is needed"

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
            if not getattr(args, "quiet", 0):  # -q: only errors; a busy workspace is none (cron retries)
                print(f"forummod tick: {e}", file=sys.stderr)
            return EX_TEMPFAIL
        try:
            if lock.recovered:
                print(f"forummod tick: recovered the lock of a run that died (pid {lock.recovered.get('pid')})",
                      file=sys.stderr)
            reports = []
            for gid in ws.game_ids(args.game, active_only=args.game is None):
                # a progress bar on a terminal only: under cron, progress lines would be mailed
                with progress_printer(gid, enabled=not args.json and sys.stderr.isatty()) as prog:
                    r = game_pass(ws, gid, publish=not args.no_publish, progress=prog, log_line=False)
                reports.append((r, needs_gm(r, *_news(ws, gid, r))))
        finally:
            lock.release()
        if args.json:
            print_json("tick", {"passes": [pass_dict(r, need) for r, need in reports]})
        else:
            from forummod.alerts.decide import gm_lines

            for r, need in reports:  # cron mails output: print only what needs the GM
                lines = gm_lines(r)  # the pass line with its alerts, when there are any
                if not lines and (need or getattr(args, "verbose", 0)):
                    lines = [r.line()]
                if lines:
                    lines += r.finding_lines()  # "2 new findings" says which
                for line in lines:
                    print(line)
        return 0 if all(r.ok for r, _ in reports) else 1


def _news(ws, gid: str, r) -> tuple[bool, bool]:
    """(a proposal not pending at the last tick, a draft new or changed since the last tick)."""
    now = ws.clock()
    pending = ws.store.remember(gid, "tick_pending", sorted(r.pending), now) and bool(r.pending)
    open_drafts = sorted([d.id, d.updated_at.isoformat()] for d in ws.store.drafts(gid, status="draft"))
    drafts = ws.store.remember(gid, "tick_drafts", open_drafts, now) and bool(open_drafts)
    return pending, drafts


def needs_gm(r, new_pending: bool, new_drafts: bool) -> bool:
    """Whether a pass has something for the GM: a failure, new findings, a draft to read that
    was not there (or read differently) at the last tick, a new pending proposal, or posts
    published on the GM's behalf."""
    return ((not r.ok) or r.new_findings > 0 or r.published > 0 or new_pending or new_drafts
            or bool(getattr(r, "alerts", ())) or bool(getattr(r, "alert_failures", ())))


def pass_dict(r, need: bool) -> dict:
    from forummod.commands.poll import poll_dict

    return {"game": r.game, "ok": r.ok, "needs_gm": need, "phase": r.phase, "votes_changed": r.votes_changed,
            "new_findings": r.new_findings, "findings": r.findings, "drafts_changed": r.drafts_changed,
            "published": r.published, "pending": list(r.pending), "game_over": r.game_over,
            "seconds": round(r.seconds, 3), "error": r.error, "template_errors": list(r.template_errors),
            "new": [{"code": f.code, "message": f.message, "rule": f.rule, "player": f.player}
                    for f in r.new_finding_list],
            "poll": poll_dict(r.poll) if r.poll else None}
