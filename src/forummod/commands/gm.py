"""`forummod gm ...`: the GM's decisions and overrides, appended to the game's event log.

The engine proposes; these commands decide. Each one appends an event (never edits one), so
`replay` reproduces every decision. Approving a proposal twice changes nothing.
"""

from __future__ import annotations

import sys

from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json
from forummod.errors import UsageError

NAME = "gm"
HELP = "approve or reject proposals; kill, revive, replace players; change votes; extend deadlines"


def add_arguments(p) -> None:
    add_common(p, game=True)
    p.add_argument("--at", metavar="TIME", help="when it happened (default: now)")
    sub = p.add_subparsers(dest="gm_command", metavar="ACTION", required=True)
    a = sub.add_parser("approve", help="approve a proposal (see 'forummod status')")
    a.add_argument("key", help="proposal key, e.g. lynch:D2 or night:N3")
    r = sub.add_parser("reject", help="reject a proposal (then enter what should happen instead)")
    r.add_argument("key")
    for name, hlp in (("kill", "kill a player"), ("modkill", "modkill a player"), ("revive", "bring a player back")):
        k = sub.add_parser(name, help=hlp)
        k.add_argument("player")
        if name == "kill":
            k.add_argument("--cause", default="gm", help="cause shown in the log (default gm)")
    rp = sub.add_parser("replace", help="a new account takes over a seat")
    rp.add_argument("player", help="the seat's current name")
    rp.add_argument("new_name", help="the replacement's forum name")
    sv = sub.add_parser("set-vote", help="record a vote the tool missed or misread")
    sv.add_argument("voter")
    sv.add_argument("target", nargs="?", default="", help="empty = withdraw the vote")
    sr = sub.add_parser("set-role", help="correct a player's role")
    sr.add_argument("player")
    sr.add_argument("role")
    ex = sub.add_parser("extend", help="move a phase's deadline")
    ex.add_argument("phase", help="e.g. D2")
    ex.add_argument("--until", required=True, help="new deadline (ISO 8601)")
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


def run(args) -> int:
    from forummod.service import analyse_game

    with open_workspace(args, writes=True) as ws:
        gid = ws.only_game(args.game)
        game = ws.cfg.game(gid)
        at = parse_time(args.at, game.tz) if args.at else ws.clock()
        cmd = args.gm_command
        players = {p.name for p in game.players}
        if cmd in ("approve", "reject"):
            a = analyse_game(ws, gid, now=at)
            prop = a.run.state.proposal(args.key)
            if prop is None:
                keys = ", ".join(p.key for p in a.run.state.pending()) or "none"
                raise UsageError(f"no proposal {args.key!r} (pending: {keys})")
            if prop.status != "pending":
                print(f"{args.key} is already {prop.status}; nothing to do")
                return 0
            payload = {"key": args.key, "verdict": "approve" if cmd == "approve" else "reject"}
            kind = "decision"
        elif cmd in ("kill", "modkill", "revive"):
            _known(args.player, players)
            payload = {"kind": cmd, "player": args.player, "cause": getattr(args, "cause", cmd)}
            kind = "override"
        elif cmd == "replace":
            _known(args.player, players)
            payload = {"kind": "replace", "player": args.player, "target": args.new_name}
            kind = "override"
        elif cmd == "set-vote":
            _known(args.voter, players)
            payload = {"kind": "set_vote", "player": args.voter, "target": args.target}
            kind = "override"
        elif cmd == "set-role":
            _known(args.player, players)
            payload = {"kind": "set_role", "player": args.player, "role": args.role}
            kind = "override"
        elif cmd == "extend":
            from forummod.engine.types import PhaseId

            try:
                PhaseId.parse(args.phase)
            except ValueError as e:
                raise UsageError(str(e)) from None
            payload = {"phase": args.phase, "until": parse_time(args.until, game.tz).isoformat()}
            kind = "extend"
        elif cmd == "action":
            _known(args.actor, players)
            for t in args.targets:
                _known(t, players)
            extra = dict(a.split("=", 1) for a in args.arg if "=" in a)
            payload = {"actor": args.actor, "action": args.verb, "targets": args.targets, "args": extra}
            kind = "action"
        elif cmd == "revote-deadline":
            payload = {"kind": "revote_deadline", "player": "", "note": parse_time(args.until, game.tz).isoformat(),
                       "target": args.phase}
            kind = "override"
        elif cmd == "override":
            for name in (args.player, args.target):
                if name:
                    _known(name, players)
            payload = {"kind": args.kind, "player": args.player, "target": args.target, "note": args.note}
            kind = "override"
        else:
            payload = {"kind": "note", "note": args.text}
            kind = "override"
        eid = ws.store.append_event(gid, at, kind, payload, actor="gm")
        if args.json:
            print_json({"event": eid, "kind": kind, "payload": payload, "at": at})
        else:
            print(f"recorded #{eid}: {kind} {payload}")
        return 0


def _known(name: str, players: set[str]) -> None:
    if name not in players:
        from forummod.schema import _did_you_mean

        raise UsageError(f"{name!r} is not a player" + _did_you_mean(name, players))
