"""One pass over one game: poll → recount → check → draft → publish what the policy allows.

`tick` runs it for every active game; the daemon runs it on a schedule and at deadlines. A
pass is idempotent: proposals are keyed, drafts are updated in place, findings are reported
once and publishing is exactly-once, so running it twice (or after downtime) does no harm.
"""

from __future__ import annotations

import logging
import time
from dataclasses import field
from datetime import datetime
from typing import Any

from forummod.errors import ForummodError
from forummod.records import frozen
from forummod.service import (
    GameFetch, PollReport, Workspace, analyse_game, last_recheck, poll_game, skipped_poll, store_fetch,
)

log = logging.getLogger("forummod")


@frozen
class PassReport:
    game: str
    poll: PollReport | None
    phase: str | None = None
    votes_changed: bool = False
    new_findings: int = 0
    findings: int = 0
    drafts_changed: int = 0
    published: int = 0
    pending: tuple[str, ...] = ()
    game_over: bool = False
    seconds: float = 0.0
    error: str | None = None
    template_errors: tuple[str, ...] = ()  # broken post templates: the GM's finding, the pass went on
    alerts: tuple = ()  # alerts.decide.Alert not shown before (what needs the GM)
    alert_failures: tuple[str, ...] = ()  # sends that failed (retried at the next pass)
    new_finding_list: tuple = ()  # the new findings themselves (checks.findings.Finding), for `tick` to name
    analysis: Any = field(default=None, repr=False, compare=False)  # service.GameAnalysis: the daemon plans from it

    @property
    def ok(self) -> bool:
        return self.error is None and (self.poll is None or self.poll.ok)

    def finding_lines(self) -> list[str]:
        """One line per new finding, naming it: "  new finding activity_missed: Dan has not posted ..."."""
        return [f"  new finding {f.code}: {f.message}" for f in self.new_finding_list]

    def line(self) -> str:
        """The one log line per poll per game."""
        p = self.poll
        parts = [f"{self.game}: {self.phase or '-'}"]
        if p is not None:
            parts.append(_n(p.new_posts, "new post") + (f" ({p.edited_posts} edited)" if p.edited_posts else ""))
            parts.append(_n(p.new_messages, "new PM"))
            if p.error:
                parts.append(f"poll failed: {p.error}")
        parts.append("votes changed" if self.votes_changed else "votes unchanged")
        parts.append(f"{_n(self.new_findings, 'new finding')} ({self.findings} open)")
        if self.drafts_changed:
            parts.append(f"{_n(self.drafts_changed, 'draft')} updated")
        if self.published:
            parts.append(f"{self.published} published")
        if self.pending:
            parts.append("pending: " + ", ".join(self.pending))
        if self.error:
            parts.append(f"error: {self.error}")
        parts.extend(f"{e}; fix the template (drafts keep their last text)" for e in self.template_errors)
        parts.append(f"{self.seconds:.1f}s")
        return ", ".join(parts)


def _n(n: int, noun: str) -> str:
    return f"{n} {noun if n == 1 else noun + 's'}"


def game_pass(ws: Workspace, game_id: str, *, poll: bool = True, publish: bool = True,
              now: datetime | None = None, progress=None, log_line: bool = True,
              fetched: GameFetch | None = None, not_polled: tuple[str, datetime | None] | None = None) -> PassReport:
    """One pass. `fetched`: what the daemon already read from the forum outside the workspace
    lock (`service.fetch_game`), stored here instead of polling again; `not_polled`: (why, until
    when) the forum is left alone (backed off): the pass records a failed poll and goes on from
    what the store holds, publishing nothing."""
    started = time.monotonic() if fetched is None else fetched.started
    report = None
    try:
        if fetched is not None:
            report = store_fetch(ws, fetched)
        elif not_polled is not None:
            report = skipped_poll(ws, game_id, *not_polled)
        elif poll:
            report = poll_game(ws, game_id, progress=progress)
        from forummod.quiet_pass import remember_pass, unchanged_since

        kept = unchanged_since(ws, game_id, report, now or ws.clock(), publish=publish)
        if kept is not None:  # nothing new, nothing due: the last pass's answer (issue 30)
            out = PassReport(game_id, report, kept.phase, findings=kept.findings, drafts_changed=kept.drafts,
                             pending=kept.pending, game_over=kept.game_over, seconds=time.monotonic() - started)
            if log_line:
                log.info("%s", out.line())
            return out
        a = analyse_game(ws, game_id, now=now or ws.clock())  # live work runs on the real clock, archives too
        if report is not None and report.ok and _phase_began_after_recheck(ws, game_id, a):
            # a phase ended since the earlier pages were last re-read: read them again before the
            # end-of-phase count is drafted, so an edit made there before the deadline counts
            report = _added(report, poll_game(ws, game_id, inbox=False, recheck=True))
            a = analyse_game(ws, game_id, now=now or ws.clock())
        ctx, findings = _checks(ws, a)
        from forummod.check_store import new_findings

        votes_changed = _votes_changed(ws, a)
        failures: list = []
        changed = _drafts(ws, game_id, a, findings, failures)
        findings = findings + [template_finding(e) for e in failures]
        new = new_findings(ws.store, game_id, findings, a.now)
        published = 0
        # never auto-publish a count from a failed poll, nor from a thread read short of its pages
        if publish and (report is None or (report.ok and report.read_whole)):
            from forummod.publish import auto_publish

            published = len(auto_publish(ws, game_id, changed, analysis=a))
        from forummod.alerts.send import alert_pass

        alerted = alert_pass(ws, a, a.now)
        st = a.run.state
        out = PassReport(game_id, report, st.phase.name if st.phase else None, votes_changed, len(new),
                         len(findings), len(changed), published,
                         tuple(p.key for p in st.pending()) + tuple(n.key for n in a.pending_names()),
                         st.outcome is not None, time.monotonic() - started,
                         template_errors=tuple(str(e) for e in failures),
                         alerts=alerted.new, alert_failures=alerted.failures, new_finding_list=tuple(new),
                         analysis=a)
        remember_pass(ws, game_id, a, ctx, findings, out, publish=publish)
    except ForummodError as e:  # one broken game (a bad archive file, a forum error) never stops the others
        out = PassReport(game_id, report, seconds=time.monotonic() - started, error=str(e))
    if log_line:  # the daemon's journal line; `tick` prints its own report instead
        log.info("%s", out.line())
    return out


def _phase_began_after_recheck(ws: Workspace, game_id: str, a) -> bool:
    """True when the current phase began after the last re-read of the thread's earlier pages
    for edits (`service.poll_game`), on a site that re-reads them at all."""
    game = ws.cfg.game(game_id)
    site = ws.cfg.sites[game.site]
    st = a.run.state
    if site.engine == "archive" or site.recheck_minutes <= 0 or st.phase is None or st.phase.start is None:
        return False
    last = last_recheck(ws, game_id)
    if last is None:
        return False  # no poll has walked a thread yet
    return last < st.phase.start <= a.now


def _added(first: PollReport, second: PollReport) -> PollReport:
    """Two polls of one pass as one report."""
    from dataclasses import replace

    return replace(first, new_posts=first.new_posts + second.new_posts,
                   edited_posts=first.edited_posts + second.edited_posts,
                   deleted_posts=first.deleted_posts + second.deleted_posts,
                   new_messages=first.new_messages + second.new_messages, requests=first.requests + second.requests,
                   bytes=first.bytes + second.bytes, seconds=first.seconds + second.seconds,
                   issues=first.issues + second.issues, error=second.error)


def _checks(ws: Workspace, a) -> tuple:
    """(check context, findings) of the analysis."""
    from forummod.check_store import run_checks_saving

    return run_checks_saving(ws.store, a)


def _drafts(ws: Workspace, game_id: str, a, findings, failures: list | None = None) -> list[int]:
    from forummod.drafting import refresh_drafts

    return refresh_drafts(ws, game_id, a, findings, failures=failures)


def template_finding(e):
    """A broken post template as a GM finding: reported once, until the template changes."""
    from forummod.checks.findings import Finding

    return Finding(code="template_error", key=f"template_error:{e.template}", severity="error",
                   message=f"{e}. Drafts using it keep their last text until the template is fixed.")


def _votes_changed(ws: Workspace, a) -> bool:
    """Whether the current tally differs from the one the last pass saw (for the log line)."""
    from forummod.report import tally_dict

    t = a.run.current_tally
    data = tally_dict(t) or {}
    data.pop("at", None)
    return ws.store.remember(a.game_id, "tally", data, a.now)
