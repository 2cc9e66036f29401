"""`forummod status`: phase, who is alive, who died how, pending proposals, winners."""

from __future__ import annotations

from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json

NAME = "status"
HELP = "show the game's state: phase, living and dead players, pending proposals, winners"


def add_arguments(p) -> None:
    add_common(p, game=True, now=True)
    p.add_argument("--approve-all", action="store_true", help="approve every proposal (what-if view)")


def run(args) -> int:
    from forummod.service import analyse_game

    with open_workspace(args) as ws:
        gid = ws.only_game(args.game)
        now = parse_time(args.now, ws.cfg.game(gid).tz) if args.now else None
        show_status(analyse_game(ws, gid, now=now, approve_all=args.approve_all), as_json=args.json)
        return 0


def show_status(a, *, as_json: bool, command: str = "status") -> None:
    """Print an analysed game's status as JSON or as text (status and replay)."""
    from forummod.report import status_report

    rep = status_report(a)
    if as_json:
        print_json(command, rep)
    else:
        print(format_status(rep))


def format_status(rep) -> str:
    lines = [f"{rep['game']} ({rep['ruleset']}) — {rep['phase'] or 'not started'}"]
    lines.append(f"  alive ({len(rep['alive'])}): {', '.join(rep['alive'])}")
    for d in rep["dead"]:
        lines.append(f"  dead: {d['player']} — {d['role']} ({d['cause']}, {d['phase']})")
    for p in rep["pending"]:
        lines.append(f"  pending: {p['key']} — {p['summary']}  (approve: forummod gm approve {p['key']})")
    if rep["game_over"]:
        lines.append(f"  GAME OVER: {rep['result']} — winners: {', '.join(rep['winners']) or 'nobody'}")
    return "\n".join(lines)
