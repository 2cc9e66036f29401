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
    with open_workspace(args, writes=not args.dry_run, reads=args.dry_run,
                        store_check="due" if args.dry_run else "always") as ws:  # a send checks the store first
        if not args.dry_run:
            _secrets_first(ws, args.id)
        say = _batch_progress(ws, args)
        for i, did in enumerate(args.id, 1):
            _warn_second(ws, did)
            say(i, did)
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


def _batch_progress(ws, args):
    """For several drafts at once (a batch of role PMs): how long the forum's flood interval
    makes it, then a line per draft as it goes, on stderr (not with -q or --json)."""
    import sys

    ids = list(args.id)
    if len(ids) < 2 or args.dry_run or args.json or getattr(args, "quiet", 0):
        return lambda i, did: None
    interval = _interval(ws, ids[0])
    if interval:
        total = interval * (len(ids) - 1)
        eta = f"{total / 60:.0f} min" if total >= 90 else f"{total:.0f} s"
        print(f"publishing {len(ids)} drafts; the forum wants {interval:g} s between two posts of the account: "
              f"about {eta} (sites.<name>.flood_interval sets it)", file=sys.stderr, flush=True)

    def say(i: int, did: int) -> None:
        r = ws.store.draft(did)
        what = f"{r.kind} → {r.target}" if r is not None else "?"
        print(f"  [{i}/{len(ids)}] draft {did} ({what})…", file=sys.stderr, flush=True)

    return say


def _interval(ws, did: int) -> float:
    from forummod.forum.registry import find_profile
    from forummod.forum.write import flood_interval

    r = ws.store.draft(did)
    if r is None or r.game not in ws.cfg.games:
        return 0.0
    site = ws.cfg.site_of(r.game)
    prof = find_profile(site.engine, ws.cfg.workspace.adapters_dir)
    if prof is None:
        return float(site.flood_interval or 0)
    return flood_interval(site, prof.pm if r.target.startswith("pm:") else prof.reply)


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
