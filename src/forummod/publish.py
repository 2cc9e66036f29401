"""Publish a draft exactly once: a reply in the game thread or a PM, through the adapter.

The order of operations is what makes it exactly once:

1. record the publication (state "sending", with a fresh marker) BEFORE anything is sent;
2. send the post with the marker in it (hidden where the markup allows, `render.marker`);
3. record the remote id (state "sent"), which also marks the draft published.

If the process dies between 2 and 3, the record says "sending". A send whose outcome is
unknown (no answer before the timeout, a 5xx after the forum applied it, an answer that does
not say) is recorded as "uncertain": forums do apply a POST after the client gave up, and
show it only later. An uncertain (or interrupted) publication stays so until a marker search
finds the post, which records it as sent with its link, or has positively ruled it out: a
search at or after the last point of `SEARCH_SCHEDULE` (+30 s, +2 min, +10 min after the send;
the thread's last pages back to the send, or the sent folder) that finds nothing. `publish`
searches when run, a later `poll`/`tick` searches when a point of the schedule is due
(`settle_uncertain`), and until the post is ruled out `publish` refuses to send again unless
`--resend`, telling the GM what to look for. A send the forum refused is recorded as "failed":
the next `publish` looks for the post first, and sends again when the forum shows it is not
there. Nothing is published automatically unless the game's `publish.auto` lists the draft's
kind (`auto_publish`, for the scheduler).

Before a first send (or a send after a refused one) the draft is rendered again from what the
store knows now (`freshness.draft_state_of`): a stale draft — its re-render differs from the
render its text comes from — is refused unless `stale_ok` (`--stale-ok`), the message saying
what changed. The states and the flag each refusal names are `draft_state.State`'s.
"""

from __future__ import annotations

import logging
import re
import secrets
from datetime import datetime, timedelta
from typing import Any, Iterable, Literal

from forummod.draft_state import SEARCH_SCHEDULE  # when an uncertain send is searched for
from forummod.draft_state import render_command, sent_not_recorded
from forummod.errors import ForumError, PublishError, StoreError, UsageError
from forummod.forum.base import ThreadRef
from forummod.forum.write import PublishUncertain
from forummod.records import frozen
from forummod.render.marker import embed_marker
from forummod.render.models import GM_KINDS

log = logging.getLogger("forummod.publish")

#: A "sending" record younger than this may belong to a send still in flight (another
#: process); if the forum does not show the post yet, wait rather than send a second copy.
SENDING_GRACE = timedelta(minutes=2)

_ADVICE = re.compile(r"[;.:]?\s*(?:it may have been posted: )?look for it(?: \(find_published\))?"
                     r"(?: before sending again)?", re.IGNORECASE)

#: Publication states whose outcome is not known yet.
UNSETTLED = ("sending", "uncertain")

Status = Literal["sent", "already_sent", "recovered", "dry_run"]


@frozen
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


@frozen
class PublishResult:
    draft_id: int
    status: Status
    outgoing: Outgoing
    remote_id: str | None = None
    url: str | None = None
    state: Any = None  # the draft's `draft_state.DraftState` when publish checked it

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
    from forummod.publish_parts import marker_form_for

    form = marker_form_for(ws, draft) if marker and game.publish.marker else ""
    body = embed_marker(draft.body, marker, draft.markup, form) if marker and game.publish.marker else draft.body
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
        again = render_command(d.kind, d.phase, d.slot)
        raise UsageError(f"draft {draft_id} was discarded; render a new one with '{again}'")
    return d


def publish(ws: Any, draft_id: int, dry_run: bool = False, *, resend: bool = False,
            stale_ok: bool = False, analysis: Any = None) -> PublishResult:
    """Publish one draft exactly once (see the module docstring for how).

    `dry_run`: return what would be sent and touch nothing. `resend`: the GM checked the
    forum and the post is not there, for an adapter that cannot search (`find_published`).
    `stale_ok`: send a stale draft as it stands (the GM read what changed). `analysis`: the
    game's analysis just made (a poll pass), to render the draft again from.
    """
    d = _open_draft(ws, draft_id)
    pub = ws.store.publication(draft_id)
    marker = pub.marker if pub is not None else new_marker(draft_id)
    out = outgoing(ws, d, marker)
    if pub is not None and pub.state == "sent":
        return PublishResult(draft_id, "already_sent", out, pub.remote_id, pub.url)
    st = None
    if pub is None or pub.state == "failed":  # a new send: never one of a stale text unless the GM says so
        from forummod.freshness import draft_state_of

        st = draft_state_of(ws, d, analysis if analysis is not None and analysis.game_id == d.game else None)
    from forummod import publish_parts

    parts = publish_parts.plan(ws, d)  # PostTooLong: the GM is told before anything is sent
    if parts.split and dry_run:
        return PublishResult(draft_id, "dry_run", _parts_preview(out, parts), state=st)
    if dry_run:
        return PublishResult(draft_id, "dry_run", out, state=st)
    if st is not None and st.refusal() and not stale_ok:
        raise PublishError(st.refusal())
    adapter = ws.adapter(ws.cfg.game(d.game).site)
    if parts.split:
        remote_id, url = publish_parts.publish_split(ws, d, pub, adapter, parts, marker, resend=resend)
        log.info("published draft %s (%s) in %d parts, the first as %s", draft_id, d.kind, len(parts.parts), remote_id)
        return PublishResult(draft_id, "sent", out, remote_id, url, st)
    if pub is None:
        pub = ws.store.begin_publication(draft_id, d.game, marker, ws.clock())
        if pub.marker != marker:  # another run recorded its own attempt between our read and write
            raise PublishError(f"draft {draft_id} is being published by another run; nothing sent")
    else:
        found = _look_for(adapter, out, pub, resend)
        if found is not None:
            _record_found(ws, pub, found)
            log.info("draft %s was already on the forum (%s); recorded, not sent again", draft_id, found.remote_id)
            return PublishResult(draft_id, "recovered", out, found.remote_id, found.url)
        if pub.state in UNSETTLED:
            _note_not_found(ws, pub)
        if pub.state == "sending" and not resend and ws.clock() - pub.started_at < SENDING_GRACE:
            raise PublishError(f"draft {draft_id}: a send started at {pub.started_at:%H:%M:%S} may still be "
                               "running and the forum does not show it yet; try again in a few minutes")
        if pub.state in UNSETTLED and not resend and not ruled_out(ws, pub):
            raise PublishError(_still_uncertain(ws, out, pub))
        ws.store.retry_publication(draft_id, ws.clock())
    res = _send(ws, adapter, out)
    return PublishResult(res.draft_id, res.status, res.outgoing, res.remote_id, res.url, st)


def _parts_preview(out: Outgoing, parts: Any) -> Outgoing:
    """What a split draft sends: its parts in order (each gets its own marker when sent)."""
    from dataclasses import replace

    n = len(parts.parts)
    body = f"[published in {n} parts: the forum accepts {parts.limit} characters per post]\n\n" + "".join(
        f"----- part {i}/{n} ({len(p)} characters) -----\n{p}\n" for i, p in enumerate(parts.parts, 1))
    return replace(out, body=body, marker=None)


# ------------------------------------------------------------------ uncertain publications


def _searches_key(draft_id: int) -> str:
    return f"publication-searches:{draft_id}"


def searches(ws: Any, pub: Any) -> list[datetime]:
    """When the marker of `pub`'s current attempt was searched for and not found."""
    got = ws.store.snapshot(pub.game, _searches_key(pub.draft_id)) or {}
    if got.get("started_at") != pub.started_at.isoformat():
        return []  # searches of an earlier attempt say nothing about this one
    return [datetime.fromisoformat(t) for t in got.get("not_found", [])]


def _note_not_found(ws: Any, pub: Any) -> None:
    """Record a search for `pub`'s marker that found nothing (the schedule counts them)."""
    done = [t.isoformat() for t in searches(ws, pub)] + [ws.clock().isoformat()]
    ws.store.remember(pub.game, _searches_key(pub.draft_id),
                      {"started_at": pub.started_at.isoformat(), "not_found": done}, ws.clock())


def _by_hand_key(draft_id: int) -> str:
    return f"publication-by-hand:{draft_id}"


def by_hand(ws: Any, pub: Any) -> datetime | None:
    """When the GM took this attempt's text to post it by hand (None: forummod sends it)."""
    got = ws.store.snapshot(pub.game, _by_hand_key(pub.draft_id)) or {}
    return pub.started_at if got.get("started_at") == pub.started_at.isoformat() else None


def record_by_hand(ws: Any, draft_id: int, *, stale_ok: bool = False) -> Outgoing:
    """The GM posts this draft by hand (a forum forummod cannot post to, or a browser at hand):
    record the attempt with its marker first, as `publish` does, and return the exact text to
    paste, marker included. Every later `poll`/`tick` searches for the marker until the post is
    found (then the draft is published, with its link); `publish` never sends it a second time
    unless `--resend` (the GM did not post it after all). A stale draft is refused as `publish`
    refuses it; a draft longer than the forum takes is refused (only `publish` splits)."""
    d = _open_draft(ws, draft_id)
    pub = ws.store.publication(draft_id)
    if d.status == "published" or (pub is not None and pub.state == "sent"):
        raise UsageError(f"draft {draft_id} is already published; nothing to post")
    if not ws.cfg.game(d.game).publish.marker:
        raise UsageError(f"draft {draft_id}: the game's publish.marker is off, so a post made by hand cannot be "
                         "recognised; copy the raw text, post it, then discard the draft")
    if pub is not None:  # an attempt exists (copied before, or a send that went wrong): the same marker
        return outgoing(ws, d, pub.marker)
    from forummod import publish_parts
    from forummod.freshness import draft_state_of

    st = draft_state_of(ws, d)
    if st.refusal() and not stale_ok:
        raise PublishError(st.refusal())
    if publish_parts.plan(ws, d).split:
        raise UsageError(f"draft {draft_id} is longer than one post on this forum: publish it from forummod, "
                         "which sends it in numbered parts")
    pub = ws.store.begin_publication(draft_id, d.game, new_marker(draft_id), ws.clock())
    ws.store.remember(d.game, _by_hand_key(draft_id), {"started_at": pub.started_at.isoformat()}, ws.clock())
    ws.store.finish_publication(draft_id, ws.clock(), remote_id=None, url=None, state="uncertain",
                                error="copied to post by hand")
    return outgoing(ws, d, pub.marker)


def ruled_out(ws: Any, pub: Any) -> bool:
    """A search at or after the schedule's last point found nothing: the post is not there.
    A post made by hand may come any time: only the GM rules it out (`--resend`)."""
    if by_hand(ws, pub):
        return False
    last = pub.started_at + SEARCH_SCHEDULE[-1]
    return any(t >= last for t in searches(ws, pub))


def search_due(ws: Any, pub: Any) -> bool:
    """A point of the schedule has passed with no search since it (a post made by hand: every poll)."""
    if by_hand(ws, pub):
        return True
    now, done = ws.clock(), searches(ws, pub)
    due = [pub.started_at + step for step in SEARCH_SCHEDULE if pub.started_at + step <= now]
    return bool(due) and not any(t >= due[-1] for t in done)


def _still_uncertain(ws: Any, out: Outgoing, pub: Any) -> str:
    done = searches(ws, pub)
    where = "the game thread's last pages" if out.channel == "reply" else f"your sent messages (to {out.to})"
    if by_hand(ws, pub):
        return (f"draft {out.draft_id} ({out.kind}): you took its text at {pub.started_at:%Y-%m-%d %H:%M} to post "
                f"by hand, and {where} show no post carrying its marker {pub.marker} yet. Once you posted it "
                "(marker line included), 'forummod poll' records it as published. If you did not post it, "
                f"'forummod publish {out.draft_id} --resend' sends it from here.")
    nxt = next((pub.started_at + step for step in SEARCH_SCHEDULE
                if not any(t >= pub.started_at + step for t in done)), None)
    plan = ", ".join(f"+{_fmt(step)}" for step in SEARCH_SCHEDULE)
    lines = [
        f"draft {out.draft_id} ({out.kind}): the attempt at {pub.started_at:%Y-%m-%d %H:%M:%S} "
        + ("got no clear answer" if pub.state == "uncertain" else "was interrupted before its answer came")
        + (f" ({pub.error})" if pub.error else "") + "; the forum may still show the post. Nothing was sent again.",
        f"Searched {where} for marker {pub.marker} {len(done)} time(s), not found yet; forummod searches at "
        f"{plan} after the attempt (publish, poll and tick look)"
        + (f", next at {nxt:%H:%M:%S}" if nxt else "") + ".",
        f"Check {where} for a post carrying {pub.marker}. If it is there, run 'forummod poll' or "
        f"'forummod publish {out.draft_id}' to record it; if you are sure it is not, "
        f"'forummod publish {out.draft_id} --resend' sends it again.",
    ]
    return "\n".join(lines)


def _fmt(step: timedelta) -> str:
    s = int(step.total_seconds())
    return f"{s} s" if s < 120 else f"{s // 60} min"


def _record_found(ws: Any, pub: Any, found: Any) -> None:
    ws.store.finish_publication(pub.draft_id, ws.clock(), remote_id=found.remote_id, url=found.url)


def settle_uncertain(ws: Any, game_id: str, adapter: Any | None = None) -> list[int]:
    """After a poll: look for the post of every unsettled publication of the game whose search
    is due (see SEARCH_SCHEDULE); record what is found as sent. Returns the drafts settled.
    A failed search is logged and changes nothing (the next poll looks again)."""
    settled = []
    for pub in ws.store.publications(game_id, UNSETTLED):
        if not search_due(ws, pub):
            continue
        d = ws.store.draft(pub.draft_id)
        if d is None:
            continue
        try:
            out = outgoing(ws, d, pub.marker)
            adapter = adapter or ws.adapter(ws.cfg.game(d.game).site)
            thread = ThreadRef(out.thread, "game") if out.channel == "reply" else None
            found = adapter.find_published(pub.marker, thread, since=pub.started_at)
        except (NotImplementedError, ForumError, UsageError) as e:
            log.info("draft %s: the search for its uncertain post failed (%s); the next poll looks again",
                     pub.draft_id, e)
            continue
        if found is not None:
            _record_found(ws, pub, found)
            log.info("draft %s: its uncertain post is on the forum (%s); recorded as published",
                     pub.draft_id, found.url or found.remote_id)
            settled.append(pub.draft_id)
        else:
            _note_not_found(ws, pub)
    return settled


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
    except PublishUncertain as e:  # it may be on the forum, or appear there later
        said = _ADVICE.sub("", str(e))  # the adapter's advice to its caller: what follows is the GM's
        plan = ", ".join(f"+{_fmt(step)}" for step in SEARCH_SCHEDULE)
        _record_outcome(ws, out, "uncertain", said[:500], f"may have been posted ({said})")
        raise PublishError(f"draft {out.draft_id} ({out.kind}) may have been posted: {said}. It is recorded as "
                           f"uncertain and is not sent again until a search for its marker {out.marker} has "
                           f"ruled it out (searches at {plan}: 'forummod publish {out.draft_id}', poll and "
                           "tick look)") from e
    except Exception as e:  # recorded, never retried blindly: the next publish looks for it first
        _record_outcome(ws, out, "failed", str(e)[:500], f"was not confirmed ({e})")
        raise PublishError(f"draft {out.draft_id} ({out.kind}) was not confirmed: {e}. Nothing is retried "
                           f"automatically; 'forummod publish {out.draft_id}' first checks whether it went "
                           "through") from e
    try:
        ws.store.finish_publication(out.draft_id, ws.clock(), remote_id=res.remote_id, url=res.url)
    except StoreError as e:
        marker = out.marker if ws.cfg.game(out.game).publish.marker else None
        raise sent_not_recorded(out.draft_id, out.kind, marker, res.remote_id, res.url, e) from None
    log.info("published draft %s (%s) as %s", out.draft_id, out.kind, res.remote_id)
    return PublishResult(out.draft_id, "sent", out, res.remote_id, res.url)


def _record_outcome(ws: Any, out: Outgoing, state: str, error: str, what: str) -> None:
    """Record a send that went wrong; when the store cannot take even that, the GM is told
    what happened to the post (the attempt stays "sending": the next publish looks first)."""
    try:
        ws.store.finish_publication(out.draft_id, ws.clock(), remote_id=None, url=None, state=state, error=error)
    except StoreError as e:
        raise PublishError(f"draft {out.draft_id} ({out.kind}) {what}, and that could not be recorded: {e}. "
                           f"The attempt stays on record as started: 'forummod publish {out.draft_id}' looks "
                           f"for its marker {out.marker} on the forum before it sends anything") from None


def auto_publish(ws: Any, game_id: str, draft_ids: Iterable[int], analysis: Any = None) -> list[PublishResult]:
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
            results.append(publish(ws, did, analysis=analysis))  # a stale (edited) draft is refused
        except PublishError as e:
            log.warning("auto-publish of draft %s (%s) failed: %s", did, d.kind, e)
    return results
