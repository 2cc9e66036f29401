"""One pass over one game: poll → recount → check → draft → publish what the policy allows.

`tick` runs it for every active game; the daemon runs it on a schedule and at deadlines. A
pass is idempotent: proposals are keyed, drafts are updated in place, findings are reported
once and publishing is exactly-once, so running it twice (or after downtime) does no harm.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime

from forummod.errors import ForummodError
from forummod.service import PollReport, Workspace, analyse_game, poll_game

log = logging.getLogger("forummod")


@dataclass(frozen=True)
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

    @property
    def ok(self) -> bool:
        return self.error is None and (self.poll is None or self.poll.ok)

    def line(self) -> str:
        """The one log line per poll per game."""
        p = self.poll
        parts = [f"{self.game}: {self.phase or '-'}"]
        if p is not None:
            parts.append(f"{p.new_posts} new posts" + (f" ({p.edited_posts} edited)" if p.edited_posts else ""))
            parts.append(f"{p.new_messages} new PMs")
            if p.error:
                parts.append(f"poll failed: {p.error}")
        parts.append("votes changed" if self.votes_changed else "votes unchanged")
        parts.append(f"{self.new_findings} new findings ({self.findings} open)")
        if self.drafts_changed:
            parts.append(f"{self.drafts_changed} drafts updated")
        if self.published:
            parts.append(f"{self.published} published")
        if self.pending:
            parts.append("pending: " + ", ".join(self.pending))
        if self.error:
            parts.append(f"error: {self.error}")
        parts.append(f"{self.seconds:.1f}s")
        return ", ".join(parts)


def game_pass(ws: Workspace, game_id: str, *, poll: bool = True, publish: bool = True,
              now: datetime | None = None, progress=None) -> PassReport:
    started = time.monotonic()
    report = None
    try:
        if poll:
            report = poll_game(ws, game_id, progress=progress)
        a = analyse_game(ws, game_id, now=now or ws.clock())  # live work runs on the real clock, archives too
        findings = _checks(ws, a)
        from forummod.check_store import new_findings

        new = new_findings(ws.store, game_id, findings, a.now)
        votes_changed = _votes_changed(ws, a)
        changed = _drafts(ws, game_id, a, findings)
        published = 0
        if publish and (report is None or report.ok):  # never auto-publish a count from a failed poll
            from forummod.publish import auto_publish

            published = len(auto_publish(ws, game_id, changed, analysis=a))
        st = a.run.state
        out = PassReport(game_id, report, st.phase.name if st.phase else None, votes_changed, len(new),
                         len(findings), len(changed), published, tuple(p.key for p in st.pending()),
                         st.outcome is not None, time.monotonic() - started)
    except ForummodError as e:  # one broken game (a bad archive file, a forum error) never stops the others
        out = PassReport(game_id, report, seconds=time.monotonic() - started, error=str(e))
    log.info("%s", out.line())
    return out


def _checks(ws: Workspace, a) -> list:
    from forummod.check_store import check_context
    from forummod.checks import run_checks

    return run_checks(check_context(ws.store, a))


def _drafts(ws: Workspace, game_id: str, a, findings) -> list[int]:
    from forummod.drafting import refresh_drafts

    return refresh_drafts(ws, game_id, a, findings)


def _votes_changed(ws: Workspace, a) -> bool:
    """Whether the current tally differs from the one the last pass saw (for the log line)."""
    from forummod.report import tally_dict

    t = a.run.current_tally
    data = tally_dict(t) or {}
    data.pop("at", None)
    return ws.store.remember(a.game_id, "tally", data, a.now)
