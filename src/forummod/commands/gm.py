"""`forummod gm ...`: the GM's decisions and overrides, appended to the game's event log.

The engine proposes; these commands decide. Each one appends an event (never edits one), so
`replay` reproduces every decision. Approving a proposal twice changes nothing. The GM moves
the game clock too (`extend`, `end`, `start`, `pause`, `resume`, `end-game`), and `undo N`
takes any of these back by appending a reversal.
"""

from __future__ import annotations

import sys

from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json
from forummod.errors import UsageError

NAME = "gm"
HELP = ("approve or reject proposals; kill, revive, replace players; change votes; extend, end, start, "
        "pause, resume phases; end the game; undo")


def add_arguments(p) -> None:
    import argparse

    add_common(p, game=True)
    p.add_argument("--at", metavar="TIME", help="when it happened (default: now)")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    _epilog_when_shown(p, lambda: ruleset_reference() + "\n\n" + (p.epilog or ""))
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
    from forummod.engine.registry import get_ruleset_class, make_ruleset
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
            if args.when and args.post is not None:
                raise UsageError("gm replace: give --at TIME or --post N, not both")
            if args.when:
                at = parse_time(args.when, game.tz)
            payload = _replacement(ws, gid, game, args, at)
            if args.post is not None:
                at = _post_time(ws, gid, args.post)
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
            _phase_id(args.phase)
            if not args.until and not args.close:
                raise UsageError("gm extend needs --until TIME (the phase end) and/or --close TIME (the vote close)")
            payload = {"phase": args.phase}
            if args.until:
                payload["until"] = parse_time(args.until, game.tz).isoformat()
            if args.close:
                payload["close"] = parse_time(args.close, game.tz).isoformat()
            kind = "extend"
        elif cmd in ("end", "start"):
            pid = _phase_id(args.phase)
            if args.when and args.post is not None:
                raise UsageError(f"gm {cmd}: give --at TIME or --post N, not both")
            payload = {"action": cmd, "phase": str(pid)}
            if args.post is not None:
                at = _post_time(ws, gid, args.post)
                payload["post"] = args.post
            else:
                at = parse_time(args.when, game.tz) if args.when else at
                payload["at"] = at.isoformat()
            kind = "phase"
        elif cmd in ("pause", "resume"):
            a = analyse_game(ws, gid, now=at)
            paused = a.run.paused_since
            if cmd == "pause" and paused is not None:
                raise UsageError(f"the game is already paused since {paused.isoformat()}")
            if cmd == "resume" and paused is None:
                raise UsageError("the game is not paused")
            payload, kind = {"action": cmd}, "phase"
        elif cmd == "end-game":
            winners = list(args.winners or ())
            for w in winners:
                _known(w, players)
            result = "draw" if args.draw else "abandoned" if args.abandoned else (args.result or "gm")
            payload = {"action": "end_game", "result": result, "winners": winners, "note": args.note}
            kind = "phase"
        elif cmd == "undo":
            payload, kind = _undo(ws, gid, args.event), "undo"
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
        corrections = _corrections(ws, gid) if kind == "undo" else []
        message = describe(cmd, payload)
        if args.json:
            print_json("gm", {"game": gid, "event": {"id": eid, "kind": kind, "payload": payload, "at": at},
                              "action": cmd, "message": message, "corrections": corrections})
        else:
            print(f"recorded #{eid}: {message}")
            for c in corrections:
                print(f"  published {c['kind']} {c['phase']} no longer matches the game: correction draft {c['draft']}")
        return 0


def _phase_id(text: str):
    from forummod.engine.types import PhaseId

    try:
        return PhaseId.parse(text)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _post_time(ws, gid: str, number: int):
    from forummod.service import load_inputs

    for p in load_inputs(ws, gid).posts.get("game", ()):
        if p.number == number:
            return p.created_at
    raise UsageError(f"no game-thread post number {number} in the store (poll first?)")


def _replacement(ws, gid: str, game, args, at) -> dict:
    """A replacement at a post or a time; refused when the seat is not the old player's now
    (a second identical `gm replace`, or one the config already has)."""
    from forummod.service import roster_with_events

    roster = roster_with_events(game.roster(), ws.store.events(gid))
    seats = {s.name: s for s in roster.players}
    for s in roster.players:
        if args.player in (r.previous for r in s.replacements) and s.name == args.new_name:
            raise UsageError(f"{args.new_name} already replaced {args.player}; nothing to do")
    if args.player not in seats:
        held = next((s.name for s in roster.players if args.player in (r.previous for r in s.replacements)), None)
        if held is not None:
            raise UsageError(f"{args.player} was already replaced: the seat is {held}'s now "
                             f"(replace {held} instead, or 'gm undo' that replacement)")
        _known(args.player, set(seats))
    if args.new_name in seats or any(args.new_name in s.all_accounts for s in roster.players):
        raise UsageError(f"{args.new_name} already holds a seat")
    payload = {"kind": "replace", "player": args.player, "target": args.new_name}
    if args.post is not None:
        _post_time(ws, gid, args.post)
        payload["at_post"] = args.post
    return payload


def _undo(ws, gid: str, number: int) -> dict:
    from forummod.service import undone_by

    stored = ws.store.events(gid)
    ev = next((e for e in stored if e.id == number), None)
    if ev is None:
        raise UsageError(f"no event #{number} in the log of {gid} (see 'forummod status')")
    by = undone_by(stored).get(number)
    if by is not None:
        raise UsageError(f"event #{number} is already undone by #{by} (undo #{by} to restore it)")
    return {"event": number, "kind": ev.kind, "what": ev.payload}


def _corrections(ws, gid: str) -> list[dict]:
    """Published one-shot posts (day end, dawn, game over) that the game no longer supports
    after an undo: each gets a correction draft for the GM to read and publish."""
    from forummod.drafting import ONE_SHOT, draft_now

    out = []
    published = [r for r in ws.store.drafts(gid, status="published") if r.kind in ONE_SHOT and r.kind != "role_pm"]
    if not published:
        return out
    from forummod.service import analyse_game

    a = analyse_game(ws, gid)
    for r in published:
        fresh = draft_now(ws, gid, r.kind, analysis=a, phase=r.phase, store=False)
        bodies = [body for _, d, body in fresh if d.slot == r.slot]
        if bodies and bodies[0] != r.body or not bodies:
            did = _store_correction(ws, gid, r, bodies[0] if bodies else None)
            out.append({"kind": r.kind, "phase": r.phase, "draft": did, "published": r.id})
    return out


def _store_correction(ws, gid: str, r, body: str | None) -> int:
    text = ("[b]Correction[/b] to the earlier post: " + ("" if body else "it no longer applies.")) + \
           ("\n\n" + body if body else "")
    did, _ = ws.store.upsert_draft(game=gid, kind=r.kind, phase=r.phase, slot=f"{r.slot}:correction" if r.slot
                                   else "correction", target=r.target, markup=r.markup, lang=r.lang,
                                   title=f"Correction: {r.title}", body=text, at=ws.clock())
    return did


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
        moved = [f"end moved to {p['until']}"] if p.get("until") else []
        moved += [f"vote close moved to {p['close']}"] if p.get("close") else []
        return f"{p['phase']}: " + " and ".join(moved)
    if cmd in ("end", "start"):
        when = f"after post {p['post']}" if cmd == "end" and p.get("post") is not None else \
            f"with post {p['post']}" if p.get("post") is not None else f"at {p.get('at')}"
        return f"{p['phase']} {'ends' if cmd == 'end' else 'starts'} {when}"
    if cmd == "pause":
        return "game paused: no deadline passes until 'forummod gm resume'"
    if cmd == "resume":
        return "game resumed: the deadlines keep the time they had left"
    if cmd == "end-game":
        winners = ", ".join(p.get("winners") or ()) or "nobody named"
        return f"game ended by ruling: {p['result']} (winners: {winners})"
    if cmd == "undo":
        return f"event #{p['event']} ({p['kind']}) undone"
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
