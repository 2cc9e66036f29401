"""`forummod discard ID`: drop a draft the GM does not want (kept in the history)."""

from __future__ import annotations

from forummod.cli import add_common
from forummod.commands._common import open_workspace, print_json
from forummod.errors import UsageError

NAME = "discard"
HELP = "discard a draft (it stays in the history and is not drafted again unless it changes)"


def add_arguments(p) -> None:
    add_common(p)
    p.add_argument("id", type=int, nargs="+", help="draft id(s) from 'forummod drafts'")


def run(args) -> int:
    with open_workspace(args, writes=True) as ws:
        done = []
        for did in args.id:
            discard(ws, did)
            done.append(did)
            if not args.json:
                print(f"draft {did} discarded")
        if args.json:
            print_json("discard", {"discarded": done})
        return 0


def discard(ws, draft_id: int) -> None:
    """Refuses drafts that are published or have a publication under way (its outcome matters)."""
    r = ws.store.draft(draft_id)
    if r is None:
        raise UsageError(f"no draft {draft_id}")
    if r.status == "published":
        raise UsageError(f"draft {draft_id} is already published")
    pub = ws.store.publication(draft_id)
    if pub is not None and pub.state != "sent":
        raise UsageError(f"draft {draft_id} has a publish attempt recorded as {pub.state}; settle it with "
                         f"'forummod publish {draft_id}' first (it checks whether the post went through)")
    if r.status != "discarded":
        ws.store.set_draft_status(draft_id, "discarded", ws.clock(), note="discarded by the GM")
