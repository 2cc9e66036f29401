"""`forummod publish ID`: post a draft (reply or PM) exactly once; `--dry-run` shows what would be sent."""

from __future__ import annotations

from forummod.cli import add_common
from forummod.commands._common import open_workspace, print_json

NAME = "publish"
HELP = "publish a draft exactly once (reply in the game thread or PM); --dry-run shows what would be sent"


def add_arguments(p) -> None:
    add_common(p)
    p.add_argument("id", type=int, nargs="+", help="draft id(s) from 'forummod drafts'")
    p.add_argument("--dry-run", action="store_true", help="print target, subject and text; send nothing")
    p.add_argument("--resend", action="store_true",
                   help="after checking the forum yourself: send again although an earlier attempt cannot be "
                        "verified (only for forums whose adapter cannot search for the marker)")
    p.add_argument("--stale-ok", action="store_true",
                   help="publish a stale draft as it stands (newer posts or events would render it differently)")


def run(args) -> int:
    from forummod.publish import publish

    results = []
    with open_workspace(args, writes=not args.dry_run) as ws:
        if not args.dry_run:
            _secrets_first(ws, args.id)
        for did in args.id:
            _warn_second(ws, did)
            r = publish(ws, did, dry_run=args.dry_run, resend=args.resend, stale_ok=args.stale_ok)
            results.append(r)
            if args.json:
                continue
            if r.status == "dry_run":
                stale = r.state.refusal() if r.state is not None else None
                print("DRY RUN — nothing sent\n" + (f"WARNING: {stale}\n" if stale else "") + r.outgoing.describe())
            elif r.status == "already_sent":
                print(f"draft {did} was already published ({r.remote_id or '?'}{', ' + r.url if r.url else ''}); "
                      "nothing sent")
            elif r.status == "recovered":
                print(f"draft {did} was found on the forum ({r.remote_id}); recorded, not sent again")
            else:
                print(f"draft {did} published ({r.remote_id}{', ' + r.url if r.url else ''})")
    if args.json:
        print_json("publish", {"publications": [
            {"draft_id": r.draft_id, "game": r.outgoing.game, "kind": r.outgoing.kind, "status": r.status, "remote_id": r.remote_id, "url": r.url,
             "channel": r.outgoing.channel, "thread": r.outgoing.thread, "to": r.outgoing.to,
             "subject": r.outgoing.subject, "marker": r.outgoing.marker, "body": r.outgoing.body,
             "draft_state": r.state.to_json() if r.state is not None else None}
            for r in results]})
    return 0


def _warn_second(ws, did: int) -> None:
    """Say so before a second day-end (dawn, night result, game over) of a phase goes out."""
    import sys

    from forummod.commands.draft import second_of_kind

    r = ws.store.draft(did)
    if r is not None and r.status == "draft":
        again = second_of_kind(ws, r.game, r.kind, r.phase, r.slot, did)
        if again:
            print(again, file=sys.stderr)


def _secrets_first(ws, draft_ids) -> None:
    """An unset password is reported before anything is read or sent."""
    from forummod.service import check_secret

    for did in draft_ids:
        r = ws.store.draft(did)
        if r is None or r.status != "draft" or r.game not in ws.cfg.games:
            continue  # publish() gives the precise error for these
        name = ws.cfg.game(r.game).site
        site = ws.cfg.sites[name]
        if site.engine != "archive":
            check_secret(name, site)
