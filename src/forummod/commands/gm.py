"""`forummod gm ...`: the GM's decisions and overrides, appended to the game's event log.

The engine proposes; these commands decide. Each one appends an event (never edits one), so
`replay` reproduces every decision. Approving a proposal twice changes nothing. The GM moves
the game clock too (`extend`, `end`, `start`, `pause`, `resume`, `end-game`), and `undo N`
takes any of these back by appending a reversal.
"""

from __future__ import annotations


from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json

NAME = "gm"
HELP = ("approve or reject proposals; settle a name (alias); kill, revive, replace players; change votes; "
        "extend, end, start, pause, resume phases; end the game; undo")


def add_arguments(p) -> None:
    import argparse

    add_common(p, game=True)
    p.add_argument("--at", metavar="TIME", help="when it happened (default: now)")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    _epilog_when_shown(p, lambda: ruleset_reference() + "\n\n" + (p.epilog or ""))
    sub = p.add_subparsers(dest="gm_command", metavar="ACTION", required=True)
    a = sub.add_parser("approve", help="approve a proposal (see 'forummod status')")
    a.add_argument("key", help="proposal key, e.g. lynch:D2, night:N3 or alias:kts")
    a.add_argument("--player", default="", help="an alias proposal with several candidates: the player meant")
    r = sub.add_parser("reject", help="reject a proposal (then enter what should happen instead; an alias "
                                      "proposal is not asked again)")
    r.add_argument("key")
    al = sub.add_parser("alias", help="settle a name: every vote written SPELLING counts for PLAYER, the "
                                      "earlier ones too")
    al.add_argument("spelling", help="the name as players write it, e.g. KTS")
    al.add_argument("player", help="the player it means")
    for name, hlp in (("kill", "kill a player"), ("modkill", "modkill a player"), ("revive", "bring a player back")):
        k = sub.add_parser(name, help=hlp)
        k.add_argument("player")
        if name == "kill":
            k.add_argument("--cause", default="gm", help="cause shown in the log (default gm)")
    rp = sub.add_parser("replace", help="a new account takes over a seat (--at TIME, default now, or --post N)")
    rp.add_argument("player", help="the seat's current name")
    rp.add_argument("new_name", help="the replacement's forum name")
    rp.add_argument("--post", type=int, metavar="N", help="takes effect right after game-thread post N")
    rp.add_argument("--at", dest="when", metavar="TIME", help="takes effect at TIME (ISO 8601; default: now)")
    sv = sub.add_parser("set-vote", help="record a vote the tool missed or misread")
    sv.add_argument("voter")
    sv.add_argument("target", nargs="?", default="", help="empty = withdraw the vote")
    sr = sub.add_parser("set-role", help="correct a player's role")
    sr.add_argument("player")
    sr.add_argument("role")
    vs = sub.add_parser("set-votes", help="mafia-majority: how many votes a seat casts from now on "
                                           "(2 = a double voter, 0 = none; a replacement keeps it)")
    vs.add_argument("player")
    vs.add_argument("votes", help="the number of votes, e.g. 2")
    ex = sub.add_parser("extend", help="move a phase's deadlines: --until its end (and vote close), --close the "
                                       "vote close / action deadline alone")
    ex.add_argument("phase", help="e.g. D2")
    ex.add_argument("--until", help="new end of the phase (ISO 8601); the vote close moves with it unless --close")
    ex.add_argument("--close", help="new vote close (day) or action deadline (night) only (ISO 8601)")
    en = sub.add_parser("end", help="end a phase now, at --at TIME or right after --post N (the next one starts then)")
    en.add_argument("phase", help="e.g. D2")
    en.add_argument("--at", dest="when", metavar="TIME", help="when it ends (ISO 8601; default: now)")
    en.add_argument("--post", type=int, metavar="N", help="it ends right after game-thread post N")
    sp = sub.add_parser("start", help="open a phase at --at TIME or at --post N (the phase before ends then)")
    sp.add_argument("phase", help="e.g. N2")
    sp.add_argument("--at", dest="when", metavar="TIME", help="when it starts (ISO 8601; default: now)")
    sp.add_argument("--post", type=int, metavar="N", help="it starts with game-thread post N")
    sub.add_parser("pause", help="stop every deadline (a forum outage, a holiday); resume restarts them")
    sub.add_parser("resume", help="restart the deadlines stopped by pause, with the time that was left")
    eg = sub.add_parser("end-game", help="end the game by GM ruling: --winners, --draw or --abandoned")
    how = eg.add_mutually_exclusive_group(required=True)
    how.add_argument("--winners", nargs="+", metavar="PLAYER", help="the players who win")
    how.add_argument("--draw", action="store_true", help="nobody wins: a draw")
    how.add_argument("--abandoned", action="store_true", help="the game is abandoned")
    eg.add_argument("--result", default="", help="with --winners: the winning faction's name (default: gm)")
    eg.add_argument("--note", default="", help="the reason, shown in the log")
    ud = sub.add_parser("undo", help="take back GM event N (see 'forummod status'): appends a reversal")
    ud.add_argument("event", type=int, metavar="N", help="the event number")
    ac = sub.add_parser("action", help="enter or correct a night or day action by hand")
    ac.add_argument("actor")
    ac.add_argument("verb", help="ruleset verb, e.g. check, kill, protect")
    ac.add_argument("targets", nargs="*")
    ac.add_argument("--arg", action="append", default=[], metavar="KEY=VALUE", help="extra argument")
    rd = sub.add_parser("revote-deadline", help="witch-hunt: set the deadline of the current revote round (D11)")
    rd.add_argument("phase", help="the day, e.g. D2")
    rd.add_argument("--until", required=True, help="the revote's deadline (ISO 8601)")
    ov = sub.add_parser("override", help="a ruleset-specific override, e.g. 'shoot' for a Jager's shot the GM enters")
    ov.add_argument("kind", help="override kind understood by the ruleset (shoot, no_lynch, ...)")
    ov.add_argument("--player", default="")
    ov.add_argument("--target", default="")
    ov.add_argument("--note", default="")
    nt = sub.add_parser("note", help="write a note into the log")
    nt.add_argument("text")
    for action_parser in sub.choices.values():  # `gm approve --json` as well as `gm --json approve`
        add_common(action_parser, game=True, nested=True)
        if "--at" not in action_parser._option_string_actions:  # replace/end/start: --at is when it takes effect
            action_parser.add_argument("--at", metavar="TIME", default=argparse.SUPPRESS,
                                       help="when it happened (default: now)")
    ac.formatter_class = argparse.RawDescriptionHelpFormatter
    _epilog_when_shown(ac, lambda: ruleset_reference(roles=False))


def _epilog_when_shown(p, epilog) -> None:
    """The ruleset reference is built from every ruleset: only when the help is shown, so that
    building the command line (every command's parser, a cron `tally` too) imports none."""
    def format_help() -> str:
        p.epilog = epilog()
        p.format_help = lambda: type(p).format_help(p)
        return type(p).format_help(p)

    p.format_help = format_help


def ruleset_reference(*, roles: bool = True) -> str:
    """The action verbs (and role ids) of every ruleset, for the help: built from the rulesets
    alone, before any config is read."""
    from forummod.engine.registry import get_ruleset_class, make_ruleset, ruleset_names
    from forummod.engine import catalog

    lines = ["action verbs" + (" and role ids" if roles else "") + " by ruleset:"]
    for name in ruleset_names():
        lines.append(f"  {name}")
        lines.append("    verbs: " + ", ".join(sorted(make_ruleset(name).actions)))
        if roles:
            cls = get_ruleset_class(name)
            lines.append("    roles: " + ", ".join(sorted(set(catalog.ROLES.get(name, ())) | set(cls.ROLES))))
    return "\n".join(lines)


def run(args) -> int:
    from forummod.gm_actions import plan, record

    with open_workspace(args, writes=True) as ws:
        gid = ws.only_game(args.game)
        game = ws.cfg.game(gid)
        at = parse_time(args.at, game.tz) if args.at else ws.clock()
        cmd = args.gm_command
        params = vars(args)
        done = record(ws, gid, plan(ws, gid, cmd, params, at))
        if done.event_id is None:  # e.g. approving a proposal already decided
            if args.json:
                print_json("gm", {"game": gid, "event": None, "action": cmd, "key": params.get("key"),
                                  "message": done.message})
            else:
                print(done.message)
            return 0
        rec = done.record
        corrections = list(done.corrections)
        if args.json:
            print_json("gm", {"game": gid, "event": {"id": done.event_id, "kind": rec.kind,
                                                     "payload": dict(rec.payload), "at": rec.at},
                              "action": cmd, "message": done.message, "corrections": corrections})
        else:
            print(f"recorded #{done.event_id}: {done.message}")
            if corrections:
                from forummod.gm_actions import correction_lines

                for line in correction_lines(ws.cfg.game(gid), corrections):
                    print(f"  {line}")
        return 0

