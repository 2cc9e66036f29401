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
    if rep.get("stalled_at"):
        lines[0] += f"  (stalled since {rep['stalled_at']}: no post for two phase lengths)"
    lines.append(f"  alive ({len(rep['alive'])}): {', '.join(rep['alive'])}")
    for d in rep["dead"]:
        lines.append(f"  dead: {d['player']} — {d['role']} ({d['cause']}, {d['phase']})")
    for p in rep["pending"]:
        lines.append(f"  pending: {p['key']} — {p['summary']}  (approve: forummod gm approve {p['key']})")
    if rep["game_over"]:
        lines.append(f"  GAME OVER: {rep['result']} — winners: {', '.join(rep['winners']) or 'nobody'}")
    lines.extend(format_clock(rep))
    lines += format_night_desk(rep.get("night_desk") or {})
    return "\n".join(lines)


def format_clock(rep) -> list[str]:
    """The phase's real start and end, a pause, and the GM's last events (numbers for `gm undo`)."""
    lines = []
    if rep.get("phase_start_at"):
        lines.append(f"  {rep['phase']}: from {rep['phase_start_at']} to {rep.get('phase_end_at') or '?'}")
    if rep.get("paused_at"):
        lines.append(f"  PAUSED since {rep['paused_at']}: no deadline passes until 'forummod gm resume'")
    events = rep.get("gm_events") or []
    for e in events[-10:]:
        undone = f"  (undone by #{e['undone_by']})" if e.get("undone_by") else ""
        lines.append(f"  gm #{e['id']} {e['at']}: {e['summary']}{undone}")
    return lines


def format_night_desk(desk) -> list[str]:
    """The GM's night view (gamestate_view.NightView as JSON): actions, results, powers, owed."""
    lines = []
    if desk.get("actions"):
        lines.append(f"  night actions ({desk['night']}):")
        for x in desk["actions"]:
            why = f" — {x['reason']}" + (f" [{x['rule']}]" if x["rule"] else "") + \
                (f": {x['message']}" if x["message"] else "") if x["status"] == "rejected" else ""
            lines.append(f"    {x['actor']}: {x['verb']} {', '.join(x['targets'])} ({x['source']}, {x['at']}) "
                         f"{x['status']}{why}")
    for r in desk.get("private_results", ()):
        params = ", ".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, (list, tuple)) else v}"
                           for k, v in r["params"].items())
        lines.append(f"  result for {r['to']} ({r['phase']}{', pending' if r['pending'] else ''}): {r['key']}"
                     + (f" ({params})" if params else ""))
    for n in desk.get("protections", ()):
        lines.append(f"  protection: {n['player']} — {n['what']} {n['detail']}".rstrip())
    for n in desk.get("notes", ()):
        who = f"{n['player']}: " if n["player"] else ""
        lines.append(f"  {n['kind'].replace('_', ' ')}: {who}{n['what']} {n['detail']}".rstrip())
    for o in desk.get("owed", ()):
        lines.append(f"  owed: {' or '.join(o['players'])} — {' / '.join(o['actions'])}"
                     + (f" [{o['rule']}]" if o["rule"] else "") + (f": {o['message']}" if o["message"] else ""))
    return lines
