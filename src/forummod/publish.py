"""Publish a draft exactly once: a reply in the game thread or a PM, through the adapter.

The order of operations is what makes it exactly once:

1. record the publication (state "sending", with a fresh marker) BEFORE anything is sent;
2. send the post with the marker in it (hidden where the markup allows, `render.marker`);
3. record the remote id (state "sent"), which also marks the draft published.

If the process dies between 2 and 3, the record says "sending". The next attempt first asks
the adapter whether a post with that marker exists (`find_published`) and records it instead
of posting again. A failed send is recorded as "failed" and never retried on its own: the
next `publish` of that draft looks for the post first, and only sends again when the forum
shows it is not there. Nothing is published automatically unless the game's
`publish.auto` lists the draft's kind (`auto_publish`, for the scheduler).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Iterable, Literal

from forummod.errors import ForumError, PublishError, UsageError
from forummod.forum.base import ThreadRef
from forummod.render.marker import embed_marker
from forummod.render.models import GM_KINDS

log = logging.getLogger("forummod.publish")

#: A "sending" record younger than this may belong to a send still in flight (another
#: process); if the forum does not show the post yet, wait rather than send a second copy.
SENDING_GRACE = timedelta(minutes=2)

Status = Literal["sent", "already_sent", "recovered", "dry_run"]


@dataclass(frozen=True)
class Outgoing:
    """Exactly what would be sent for a draft."""

    draft_id: int
    game: str
    kind: str
    channel: Literal["reply", "pm"]
    thread: str  # the game thread (replies)
    to: str  # the recipient (PMs)
    subject: str  # PM subject (prefix included); replies carry none
    body: str  # the draft's text with the marker in it
    marker: str | None

    def describe(self) -> str:
        where = f"reply in thread {self.thread}" if self.channel == "reply" else f"PM to {self.to}"
        head = [f"draft {self.draft_id} ({self.kind}) → {where}"]
        if self.channel == "pm":
            head.append(f"subject: {self.subject}")
        if self.marker:
            head.append(f"marker: {self.marker}")
        return "\n".join(head) + "\n\n" + self.body


@dataclass(frozen=True)
class PublishResult:
    draft_id: int
    status: Status
    outgoing: Outgoing
    remote_id: str | None = None
    url: str | None = None

    @property
    def sent_now(self) -> bool:
        return self.status == "sent"


def new_marker(draft_id: int) -> str:
    return f"fm-{draft_id}-{secrets.token_hex(5)}"


def outgoing(ws: Any, draft: Any, marker: str | None) -> Outgoing:
    """What publishing `draft` sends (pure apart from reading the config)."""
    if draft.kind in GM_KINDS or draft.target == "gm":
        raise UsageError(f"draft {draft.id} ({draft.kind}) is the GM's own notes; it is never posted")
    game = ws.cfg.game(draft.game)
    body = embed_marker(draft.body, marker, draft.markup) if marker and game.publish.marker else draft.body
    if draft.target.startswith("pm:"):
        prefix = game.publish.pm_subject_prefix
        subject = f"{prefix} {draft.title}".strip() if prefix else draft.title
        return Outgoing(draft.id, draft.game, draft.kind, "pm", "", draft.target[3:], subject, body, marker)
    if draft.target != "thread":
        raise UsageError(f"draft {draft.id} has an unknown target {draft.target!r}")
    return Outgoing(draft.id, draft.game, draft.kind, "reply", game.thread, "", "", body, marker)


def _open_draft(ws: Any, draft_id: int) -> Any:
    d = ws.store.draft(draft_id)
    if d is None:
        raise UsageError(f"no draft {draft_id} (see 'forummod drafts')")
    if d.status == "discarded":
        raise UsageError(f"draft {draft_id} was discarded; render a new one with 'forummod draft {d.kind}'")
    return d


def publish(ws: Any, draft_id: int, dry_run: bool = False, *, resend: bool = False) -> PublishResult:
    """Publish one draft exactly once (see the module docstring for how).

    `dry_run`: return what would be sent and touch nothing. `resend`: the GM checked the
    forum and the post is not there, for an adapter that cannot search (`find_published`).
    """
    d = _open_draft(ws, draft_id)
    pub = ws.store.publication(draft_id)
    marker = pub.marker if pub is not None else new_marker(draft_id)
    out = outgoing(ws, d, marker)
    if pub is not None and pub.state == "sent":
        return PublishResult(draft_id, "already_sent", out, pub.remote_id, pub.url)
    if dry_run:
        return PublishResult(draft_id, "dry_run", out)
    adapter = ws.adapter(ws.cfg.game(d.game).site)
    if pub is None:
        pub = ws.store.begin_publication(draft_id, d.game, marker, ws.clock())
        if pub.marker != marker:  # another run recorded its own attempt between our read and write
            raise PublishError(f"draft {draft_id} is being published by another run; nothing sent")
    else:
        found = _look_for(adapter, out, pub, resend)
        if found is not None:
            ws.store.finish_publication(draft_id, ws.clock(), remote_id=found.remote_id, url=found.url)
            log.info("draft %s was already on the forum (%s); recorded, not sent again", draft_id, found.remote_id)
            return PublishResult(draft_id, "recovered", out, found.remote_id, found.url)
        if pub.state == "sending" and not resend and ws.clock() - pub.started_at < SENDING_GRACE:
            raise PublishError(f"draft {draft_id}: a send started at {pub.started_at:%H:%M:%S} may still be "
                               "running and the forum does not show it yet; try again in a few minutes")
        ws.store.retry_publication(draft_id, ws.clock())
    return _send(ws, adapter, out)


def _look_for(adapter: Any, out: Outgoing, pub: Any, resend: bool) -> Any:
    """The earlier attempt's post if the forum has it; None only when the forum says it has not."""
    thread = ThreadRef(out.thread, "game") if out.channel == "reply" else None
    try:
        return adapter.find_published(pub.marker, thread, since=pub.started_at)
    except (NotImplementedError, ForumError) as e:
        if resend:
            return None
        raise PublishError(
            f"draft {out.draft_id}: an earlier attempt ({pub.state}, {pub.started_at:%Y-%m-%d %H:%M}) may have "
            f"reached the forum and it cannot be checked ({e}). Look for marker {pub.marker} in "
            f"{'the thread' if thread else 'your sent PMs'}; if the post is not there, run "
            f"'forummod publish {out.draft_id} --resend'") from None


def _send(ws: Any, adapter: Any, out: Outgoing) -> PublishResult:
    try:
        if out.channel == "reply":
            res = adapter.reply(ThreadRef(out.thread, "game"), out.body, out.marker)
        else:
            res = adapter.send_pm(out.to, out.subject, out.body, out.marker)
    except Exception as e:  # recorded, never retried blindly: the next publish looks for it first
        ws.store.finish_publication(out.draft_id, ws.clock(), remote_id=None, url=None, state="failed",
                                    error=str(e)[:500])
        raise PublishError(f"draft {out.draft_id} ({out.kind}) was not confirmed: {e}. Nothing is retried "
                           f"automatically; 'forummod publish {out.draft_id}' first checks whether it went "
                           "through") from e
    ws.store.finish_publication(out.draft_id, ws.clock(), remote_id=res.remote_id, url=res.url)
    log.info("published draft %s (%s) as %s", out.draft_id, out.kind, res.remote_id)
    return PublishResult(out.draft_id, "sent", out, res.remote_id, res.url)


def auto_publish(ws: Any, game_id: str, draft_ids: Iterable[int]) -> list[PublishResult]:
    """Publish the drafts whose kind the game's `publish.auto` lists (for the scheduler).

    Open drafts only; a draft with an earlier failed or unfinished attempt is left to the GM
    (the warning is logged), so a flaky forum never gets the same post twice from a cron loop.
    """
    auto = set(ws.cfg.game(game_id).publish.auto)
    results = []
    for did in draft_ids:
        d = ws.store.draft(did)
        if d is None or d.game != game_id or d.kind not in auto or d.kind in GM_KINDS or d.status != "draft":
            continue
        pub = ws.store.publication(did)
        if pub is not None and pub.state != "sent":
            log.warning("draft %s (%s): an earlier publish is %s; not retried automatically (run "
                        "'forummod publish %s')", did, d.kind, pub.state, did)
            continue
        try:
            results.append(publish(ws, did))
        except PublishError as e:
            log.warning("auto-publish of draft %s (%s) failed: %s", did, d.kind, e)
    return results
