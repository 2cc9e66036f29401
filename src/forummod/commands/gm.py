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
    import argparse

    add_common(p, game=True)
    p.add_argument("--at", metavar="TIME", help="when it happened (default: now)")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = ruleset_reference() + "\n\n" + (p.epilog or "")
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
    for action_parser in sub.choices.values():  # `gm approve --json` as well as `gm --json approve`
        add_common(action_parser, game=True, nested=True)
        action_parser.add_argument("--at", metavar="TIME", default=argparse.SUPPRESS,
                                   help="when it happened (default: now)")
    ac.formatter_class = argparse.RawDescriptionHelpFormatter
    ac.epilog = ruleset_reference(roles=False)


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
    from forummod.engine.registry import get_ruleset_class, make_ruleset
    from forummod.service import analyse_game

    with open_workspace(args) as ws:
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
                if args.json:
                    print_json("gm", {"game": gid, "event": None, "action": cmd, "key": args.key,
                                      "message": f"{args.key} is already {prop.status}; nothing to do"})
                else:
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
            rs = get_ruleset_class(game.ruleset)
            role = rs.canonical_role(args.role)  # as the rules write it: 'Lupo Mannaro', 'guardia_gemella'
            if role not in rs.role_ids():
                from forummod.schema import _did_you_mean

                raise UsageError(f"unknown role {args.role!r} for {game.ruleset}" + _did_you_mean(args.role, rs.role_ids())
                                 + f" (roles: {', '.join(sorted(rs.role_ids() - set(_aliases(game.ruleset))))})")
            payload = {"kind": "set_role", "player": args.player, "role": role}
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
            verbs = make_ruleset(game.ruleset, game.options).actions
            if verbs and args.verb not in verbs:
                from forummod.schema import _did_you_mean

                raise UsageError(f"unknown action {args.verb!r} for {game.ruleset}" + _did_you_mean(args.verb, verbs)
                                 + f" (actions: {', '.join(sorted(verbs))})")
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
        message = describe(cmd, payload)
        if args.json:
            print_json("gm", {"game": gid, "event": {"id": eid, "kind": kind, "payload": payload, "at": at},
                              "action": cmd, "message": message})
        else:
            print(f"recorded #{eid}: {message}")
        return 0


def _aliases(ruleset: str):
    from forummod.engine import catalog

    return catalog.ROLE_ALIASES.get(ruleset, {})


def describe(cmd: str, p: dict) -> str:
    """A GM decision in words, for the confirmation line."""
    if cmd in ("approve", "reject"):
        return f"{p['key']} {'approved' if cmd == 'approve' else 'rejected'}"
    if cmd == "kill":
        return f"{p['player']} killed" + (f" (cause: {p['cause']})" if p.get("cause") not in ("", "gm", None) else "")
    if cmd == "modkill":
        return f"{p['player']} modkilled"
    if cmd == "revive":
        return f"{p['player']} revived"
    if cmd == "replace":
        return f"{p['target']} replaces {p['player']}"
    if cmd == "set-vote":
        return f"{p['player']} now votes {p['target']}" if p["target"] else f"{p['player']}'s vote withdrawn"
    if cmd == "set-role":
        return f"{p['player']}'s role set to {p['role']}"
    if cmd == "extend":
        return f"{p['phase']} deadline moved to {p['until']}"
    if cmd == "action":
        targets = " and ".join(p["targets"])
        extra = "".join(f", {k}={v}" for k, v in p["args"].items())
        return f"{p['actor']}: {p['action']}" + (f" {targets}" if targets else "") + extra
    if cmd == "revote-deadline":
        return f"revote deadline of {p['target']} set to {p['note']}"
    if cmd == "override":
        who = " → ".join(x for x in (p.get("player"), p.get("target")) if x)
        return f"override {p['kind']}" + (f": {who}" if who else "") + (f" ({p['note']})" if p.get("note") else "")
    return f"note: {p.get('note', '')}"


def _known(name: str, players: set[str]) -> None:
    if name not in players:
        from forummod.schema import _did_you_mean

        raise UsageError(f"{name!r} is not a player" + _did_you_mean(name, players))
