"""`forummod check`: run the moderation checks and print what the GM has not been told yet.

Each finding is shown once: the store remembers what was reported, so the next run prints
only new or changed findings (`--all` prints every current finding, with `new` telling which
ones are). With `--now` the game is checked as it stood at that time and nothing is recorded.
Exit codes: 0 nothing to show, 1 findings shown, 2 usage or config error.
"""

from __future__ import annotations

import argparse

from forummod.cli import EPILOG, add_common
from forummod.commands._common import open_workspace, parse_time, print_json

NAME = "check"
HELP = "run the moderation checks (activity, prod list, conduct rules, missing actions); exit 1 on findings"


def add_arguments(p) -> None:
    add_common(p, game=True, now=True)
    for action in p._actions:
        if action.dest == "game":
            action.help = "game id from the config (default: every active game)"
        if action.dest == "now":
            action.help = "check the game as of TIME (ISO 8601); records nothing"
    p.add_argument("--all", action="store_true", help="show every current finding, not only new or changed ones")
    p.add_argument("--approve-all", action="store_true",
                   help="approve every proposal as it is made (what-if view); records nothing")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.format_help = lambda: _help_with_codes(p)  # the codes come from the checks, imported only for this help


def _help_with_codes(p) -> str:
    from forummod.checks.rules import CODES

    p.epilog = ("finding codes (checks.disabled in the config turns codes off):\n"
                + "\n".join(f"  {c:<22} {doc}" for c, doc in CODES.items()) + "\n\n" + EPILOG)
    return type(p).format_help(p)


def run(args) -> int:
    from forummod.check_store import new_findings, run_checks_saving, unreported
    from forummod.service import analyse_game

    rows = []
    with open_workspace(args) as ws:
        for gid in ws.game_ids(args.game, active_only=True):
            game = ws.cfg.game(gid)
            now = parse_time(args.now, game.tz) if args.now else None
            a = analyse_game(ws, gid, now=now, approve_all=args.approve_all)
            site = ws.cfg.sites[game.site]
            _, findings = run_checks_saving(ws.store, a, gm_accounts=(site.username,) if site.username else ())
            fresh = (unreported(ws.store, gid, findings) if now is not None or args.approve_all
                     else new_findings(ws.store, gid, findings, a.now))
            fresh_keys = {f.key for f in fresh}
            shown = findings if args.all else [f for f in findings if f.key in fresh_keys]
            rows.extend((gid, f, f.key in fresh_keys) for f in shown)
    if args.json:
        print_json("check", {"findings": [dict(f.to_dict(new=new), game=gid) for gid, f, new in rows]})
    else:
        print(format_findings(rows, show_new=args.all))
    return 1 if rows else 0


def format_findings(rows, show_new: bool = False) -> str:
    if not rows:
        return "no new findings" if not show_new else "no findings"
    lines = []
    for gid, f, new in rows:
        rule = f" [{f.rule}]" if f.rule else ""
        mark = "" if not show_new or new else " (reported)"
        where = f"\n      {f.link}" if f.link else ""
        lines.append(f"{gid} {f.severity:<7} {f.code}{rule}{mark}: {f.message}{where}")
    return "\n".join(lines)
