"""A pass with nothing new, answered from the last one (issue 30).

A cron `tick` polls every game every few minutes; most polls bring nothing. A pass over a game
whose inputs (input_mark.py), desk (`Store.desk_state`: drafts, renders, publications, alert
deliveries, unreported findings) and settings are what they were at the end of the last full
pass, before the first instant its analysis, checks, drafts or alerts can change with the clock
(horizon.py), would recount, find, draft and send exactly what that pass did: nothing new. So
the last full pass leaves a note in the store (`remember_pass`) and the next one, after its poll,
asks `unchanged_since` first: the note, the input mark and the desk, a few indexed reads.

Only a pass that ended settled leaves a note: no post published on the GM's behalf and no
auto-published kind left open, no alert left to retry, no broken template, no failed poll. A
note is never used after a failed poll (the alerts count failing polls), by a pass with
another `publish` choice, or when the thread's earlier pages are due a re-read for edits at a
phase's start (`pipeline._phase_began_after_recheck`). What the skipped pass would have
rewritten is only time stamps nothing reads: a finding's `last_at`, a draft render's `at`.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Sequence

from forummod.errors import StoreError
from forummod.records import frozen

KEY = "quiet_pass"


@frozen
class KeptPass:
    """What the last full pass reported of the game, for the pass that repeats it."""

    phase: str | None
    findings: int
    drafts: int  # the open drafts a pass renders (`PassReport.drafts_changed` counts them all)
    pending: tuple[str, ...]
    game_over: bool


def settings_digest(ws: Any, game_id: str) -> str:
    """The settings a pass reads beyond the input mark's: the alerts table and channels, the
    user's templates folder (its files' sizes and times) and adapters folder."""
    from forummod.input_mark import canonical, tree_digest

    cfg = ws.cfg
    user = [p for p in (cfg.workspace.templates_dir, cfg.workspace.adapters_dir) if p is not None]
    key = (canonical(cfg.alerts), tree_digest(user) if user else "")
    return hashlib.sha256(repr(key).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def remember_pass(ws: Any, game_id: str, a: Any, ctx: Any, findings: Sequence[Any], out: Any, *,
                  publish: bool) -> None:
    """Leave the note of a full pass that ended settled (`out`: its `PassReport`; `a`, `ctx`,
    `findings`: its analysis, check context and findings); drop the last note otherwise."""
    from forummod.horizon import changes_at

    if not getattr(ws.store, "writable", True):
        return  # a store opened read-only keeps no note
    try:
        if not _settled(ws, game_id, a, out):
            if ws.store.snapshot(game_id, KEY) is not None:
                ws.store.remember(game_id, KEY, None, a.now)
            return
        until = changes_at(ws, a, ctx, findings)
        st = a.run.state
        ws.store.remember(game_id, KEY, {
            "mark": a.mark, "desk": ws.store.desk_state(game_id), "settings": settings_digest(ws, game_id),
            "publish": publish, "now": a.now.isoformat(), "until": until.isoformat() if until else None,
            "phase_start": st.phase.start.isoformat() if st.phase is not None else None,
            "phase": out.phase, "findings": out.findings, "drafts": out.drafts_changed, "pending": list(out.pending),
            "game_over": out.game_over,
        }, a.now)
    except StoreError:
        pass  # a store that cannot be written: every pass is a full one


def _settled(ws: Any, game_id: str, a: Any, out: Any) -> bool:
    if not a.mark or not out.ok or out.published or out.template_errors or out.alert_failures:
        return False
    auto = set(ws.cfg.game(game_id).publish.auto)
    if auto and any(d.kind in auto for d in ws.store.drafts(game_id, status="draft")):
        return False  # auto_publish would try it again
    channels = ws.cfg.alerts.channels
    retries = ws.cfg.alerts.max_attempts
    for (_key, channel), row in ws.store.alert_deliveries(game_id).items():
        if channel in channels and row["state"] in ("pending", "failed") and row["attempts"] < retries:
            return False  # deliver() would try it again
    return True


def unchanged_since(ws: Any, game_id: str, poll: Any, now: datetime, *, publish: bool) -> KeptPass | None:
    """The last full pass's report when a pass now would repeat it (see the module), else None."""
    if poll is not None and not poll.ok:
        return None
    note = ws.store.snapshot(game_id, KEY)
    if not isinstance(note, dict) or note.get("publish") != publish:
        return None
    try:
        since = datetime.fromisoformat(note["now"])
        until = datetime.fromisoformat(note["until"]) if note.get("until") else None
    except (KeyError, TypeError, ValueError):
        return None
    if now < since or (until is not None and now >= until):
        return None
    from forummod.service import game_mark

    if note.get("mark") != game_mark(ws, game_id) or note.get("desk") != ws.store.desk_state(game_id) \
            or note.get("settings") != settings_digest(ws, game_id):
        return None
    if _recheck_due(ws, game_id, note.get("phase_start"), now):
        return None
    return KeptPass(note.get("phase"), int(note.get("findings") or 0), int(note.get("drafts") or 0),
                    tuple(note.get("pending") or ()), bool(note.get("game_over")))


def _recheck_due(ws: Any, game_id: str, phase_start: str | None, now: datetime) -> bool:
    """`pipeline._phase_began_after_recheck` on the kept phase start."""
    site = ws.cfg.sites[ws.cfg.game(game_id).site]
    if site.engine == "archive" or site.recheck_minutes <= 0 or not phase_start:
        return False
    from forummod.service import last_recheck

    last = last_recheck(ws, game_id)
    return last is not None and last < datetime.fromisoformat(phase_start) <= now
