"""`forummod replay CONFIG`: rebuild a game from its stored posts and messages.

For an `archive` site the files are loaded first. `--approve-all` approves every proposal
as the engine makes it, and every alias proposal with one candidate (issue 27): the way to run a
whole archived game through a ruleset.
"""

from __future__ import annotations

from pathlib import Path

from forummod.cli import add_common
from forummod.commands._common import config_path, parse_time

NAME = "replay"
HELP = "rebuild a game from stored posts and PMs (archives are loaded first) and print its status"


def add_arguments(p) -> None:
    p.add_argument("config_file", nargs="?", type=Path, metavar="CONFIG", help="config file (or use --config)")
    add_common(p, game=True, now=True)
    p.add_argument("--approve-all", action="store_true", help="approve every proposal as it is made")

    p.add_argument("--memory", action="store_true", help="use a throw-away in-memory store (archives only)")
    p.add_argument("--save", action="store_true",
                   help="with --approve-all: record its approvals as decision (and alias) events (actor 'replay', "
                        "each reversible with 'gm undo'), so later commands see the replayed game")


def run(args) -> int:
    from forummod.config import load_config
    from forummod.commands.status import show_status
    from forummod.service import Workspace, analyse_game, poll_game
    from forummod.store import Store

    path = args.config_file or config_path(args)
    cfg = load_config(path)
    store = Store(":memory:") if args.memory else None
    with Workspace(cfg, store, adopt=bool(getattr(args, "adopt", False))) as ws:
        gid = ws.only_game(args.game)
        site = cfg.sites[cfg.game(gid).site]
        if site.engine == "archive":
            rep = poll_game(ws, gid)
            if not rep.ok:
                raise SystemExit(f"forummod replay: could not load the archive: {rep.error}")
        now = parse_time(args.now, cfg.game(gid).tz) if args.now else None
        a = analyse_game(ws, gid, now=now, approve_all=args.approve_all)
        if args.save:
            if not args.approve_all:
                from forummod.errors import UsageError

                raise UsageError("replay --save records the approvals of --approve-all: give both")
            saved = save_approvals(ws, gid, a)
            if not args.json:
                print(f"saved {len(saved)} approvals as decision events" +
                      (f" #{saved[0]}-#{saved[-1]}" if saved else ""))
        show_status(a, as_json=args.json, command="replay")
        return 0


def save_approvals(ws, gid: str, a) -> list[int]:
    """Every proposal --approve-all approved and the log has no decision for: one decision
    event each, at the instant it was approved, by actor `replay`."""
    from forummod.service import effective_events

    decided = {e.payload.get("key") for e in effective_events(ws.store.events(gid)) if e.kind == "decision"}
    ids = []
    for prop in a.run.state.proposals:
        if prop.status == "approved" and prop.key not in decided and not prop.key.startswith("gm:"):
            at = prop.decided_at or prop.created_at
            ids.append(ws.store.append_event(gid, at, "decision", {"key": prop.key, "verdict": "approve",
                                                                    "note": "replay --approve-all"},
                                             actor="replay"))
    for n in getattr(a, "names", ()):
        if n.status == "approved" and n.event is None and n.player:  # accepted by --approve-all, not in the log
            ids.append(ws.store.append_event(gid, n.first_at or a.now, "alias", {
                "key": n.key, "spelling": n.spelling, "player": n.player, "verdict": "approve",
                "candidates": list(n.candidates), "rules": sorted({e.rule for e in n.evidence}),
                "note": "replay --approve-all"}, actor="replay"))
    return ids
