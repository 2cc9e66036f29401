"""What needs the GM, decided once from a game's analysis and a few facts from the store.

`needs_gm` is the one definition: the pipeline sends what it returns to the alert channels, and
a cron `tick` prints a game only when it returned something new (`gm_lines`), so cron mails the
GM exactly when there is something to do. Pure: no store, no clock, no network.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal, Sequence

from forummod.i18n import gm_language, join_names, npgettext, pgettext, pgettext_noop, phase_label
from forummod.read_gaps import page_list
from forummod.records import frozen

AlertKind = Literal["hammer", "l_minus_1", "proposal", "deadline", "pm_not_understood", "poll_failing", "posts_unread",
                    "poll_recovered"]
ALERT_KINDS: tuple[str, ...] = ("hammer", "l_minus_1", "proposal", "deadline", "pm_not_understood", "poll_failing",
                                "posts_unread", "poll_recovered")
LABELS = {"hammer": pgettext_noop("gm-alert", "hammer"), "l_minus_1": pgettext_noop("gm-alert", "L-1"),
          "proposal": pgettext_noop("gm-alert", "proposal waiting"),
          "deadline": pgettext_noop("gm-alert", "deadline soon"),
          "pm_not_understood": pgettext_noop("gm-alert", "PM not understood"),
          "poll_failing": pgettext_noop("gm-alert", "polling fails"),
          "posts_unread": pgettext_noop("gm-alert", "posts not read"),
          "poll_recovered": pgettext_noop("gm-alert", "polling works again")}


def alert_label(kind: str, lang: str = "en") -> str:
    """The title word of an alert kind in `lang` ("hammer", "martello")."""
    with gm_language(lang):
        label = LABELS.get(kind, kind)
        return pgettext("gm-alert", label) if kind in LABELS else label


@frozen
class Alert:
    """One thing the GM must know. `key` is stable across passes, so each alert is sent once.

    `secret` marks text that carries what only the GM may see (a role, a night action, a PM's
    words); `public_text` is what a channel that is not private may get instead ("" = nothing).
    """

    kind: AlertKind
    game: str
    phase: str
    key: str
    text: str
    secret: bool = False
    public_text: str = ""

    def text_for(self, private: bool) -> str | None:
        """The words a channel may receive; None when the alert must be skipped there."""
        if private or not self.secret:
            return self.text
        return self.public_text or None


@frozen
class AlertFacts:
    """What the store knows beyond the analysis: since when the polls of this game fail; or, once
    they work again, since when they had failed (`recovered_since`: only a failure the GM was
    alerted to) and the first good poll (`recovered_at`); and what the game's threads lack against
    their page counts (`read_gaps.ReadGap`)."""

    poll_failing_since: datetime | None = None
    poll_error: str = ""
    recovered_since: datetime | None = None
    recovered_at: datetime | None = None
    read_gaps: tuple[Any, ...] = ()


@frozen
class AlertRules:
    """The thresholds of the `[alerts]` table that decide (the channels are send.py's)."""

    deadline_warning: timedelta = timedelta(hours=2)
    poll_failing: timedelta = timedelta(minutes=30)
    disabled: tuple[str, ...] = ()


def needs_gm(a: Any, facts: AlertFacts, rules: AlertRules) -> tuple[Alert, ...]:
    """Everything in this game that needs the GM now, from its analysis `a` (service.GameAnalysis),
    worded in the game's language."""
    game, ruleset = getattr(a, "game", None), getattr(a, "ruleset", None)
    with gm_language(getattr(game, "language", "") or getattr(ruleset, "language", "")):
        return _needs_gm(a, facts, rules)


def _needs_gm(a: Any, facts: AlertFacts, rules: AlertRules) -> tuple[Alert, ...]:
    st = a.run.state
    phase = st.phase.name if st.phase is not None else ""
    found: list[Alert] = []
    if st.outcome is None:
        found += _tally_alerts(a, phase)
        found += _proposal_alerts(a)
        found += _deadline_alerts(a, phase, rules.deadline_warning)
        found += _pm_alerts(a, phase)
    found += _poll_alerts(a, phase, facts, rules.poll_failing)
    found += _read_gap_alerts(a, phase, facts)
    return tuple(x for x in found if x.kind not in rules.disabled)


def next_change(a: Any, rules: AlertRules) -> datetime | None:
    """The first instant after `a.now` at which `needs_gm` may name another alert over the same
    analysis and poll facts (issue 30): the phase's deadline coming within `deadline_warning`.
    The rest reads the analysis (its own `changes_at`) or the polls' failures (a failed poll is
    never a pass taken as unchanged)."""
    st = a.run.state
    ph = st.phase
    if ph is None or st.outcome is not None:
        return None
    due = (ph.action_deadline if ph.kind == "night" else ph.vote_close) or ph.end
    if due is None:
        return None
    opens = due - rules.deadline_warning  # `due <= now + warning` from here on
    return opens if opens > a.now else None


def gm_lines(report: Any) -> list[str]:
    """What a cron `tick` prints for one game's pass: nothing unless something needs the GM."""
    alerts = getattr(report, "alerts", ())
    failures = getattr(report, "alert_failures", ())
    if not alerts and not failures and not getattr(report, "error", None):
        return []
    return [report.line(), *(f"  ALERT {x.kind}: {x.text}" for x in alerts),
            *(f"  alert not sent: {f}" for f in failures)]


# --------------------------------------------------------------------------- the kinds


def _tally_alerts(a: Any, phase: str) -> list[Alert]:
    """Hammer (a candidate at the majority, on the day it just ended) and L-1 (one vote short, open day)."""
    t = a.run.current_tally
    names = [p.name for p in a.run.phases]
    at = names.index(phase) if phase in names else len(names) - 1
    recent = set(names[max(0, at - 1):at + 1])  # a hammer ends the day: the night has begun already
    if t is None or not t.majority or not t.candidates or t.phase not in recent:
        return []
    out = []
    for c in t.candidates:
        if c.total < t.majority - 1:
            break
        hammer = c.total >= t.majority
        if not hammer and t.phase != phase:
            continue  # L-1 on a closed day needs nobody
        phase = t.phase
        kind: AlertKind = "hammer" if hammer else "l_minus_1"
        voters = ", ".join(v.voter for v in c.voters)
        shown = _thread_total(c, a.ruleset.public_weights)
        secret = any(v.secret for v in c.voters) or shown != c.total  # a secret vote or a hidden double vote
        params = dict(game=a.game_id, phase=phase_label(phase), player=c.name, votes=_n(c.total), need=t.majority,
                      voters=voters)
        if hammer:
            text = pgettext("gm-alert", "%(game)s %(phase)s: HAMMER on %(player)s: %(votes)s/%(need)s votes (%(voters)s)",
                            **params)
            public = pgettext("gm-alert", "%(game)s %(phase)s: HAMMER on %(player)s (%(votes)s/%(need)s votes in the "
                              "thread)", **dict(params, votes=_n(shown)))
        else:
            text = pgettext("gm-alert", "%(game)s %(phase)s: L-1 on %(player)s: %(votes)s/%(need)s votes (%(voters)s) — "
                            "one vote from majority", **params)
            public = pgettext("gm-alert", "%(game)s %(phase)s: L-1 on %(player)s (%(votes)s/%(need)s votes in the "
                              "thread)", **dict(params, votes=_n(shown)))
        out.append(Alert(kind, a.game_id, phase, f"{kind}:{phase}:{t.round}:{c.name}", text, secret,
                         public if secret else ""))
    return out


def _thread_total(c: Any, public_weights: bool) -> float:
    """The wagon as the thread counts it: no secret vote, and each vote once unless weights are public."""
    seen = [v for v in c.voters if not v.secret]
    return sum(v.weight for v in seen) + c.bonus if public_weights else float(len(seen))


def _proposal_alerts(a: Any) -> list[Alert]:
    out = []
    for p in a.run.state.pending():
        secret = bool(p.private) or _is_night(p.phase)  # a night's resolution names who did what
        params = dict(game=a.game_id, phase=phase_label(p.phase), key=p.key, summary=p.summary)
        text = pgettext("gm-alert", "%(game)s %(phase)s: waiting for your decision: %(key)s — %(summary)s (forummod gm "
                        "approve %(key)s)", **params) if p.summary else \
            pgettext("gm-alert", "%(game)s %(phase)s: waiting for your decision: %(key)s (forummod gm approve %(key)s)",
                     **params)
        public = pgettext("gm-alert", "%(game)s %(phase)s: a proposal is waiting for your decision (%(key)s)", **params)
        out.append(Alert("proposal", a.game_id, p.phase, f"proposal:{p.key}", text, secret, public if secret else ""))
    return out


def _deadline_alerts(a: Any, phase: str, warning: timedelta) -> list[Alert]:
    """A deadline within `warning` while votes (day) or owed actions (night) are missing."""
    ph = a.run.state.phase
    if ph is None:
        return []
    night = ph.kind == "night"
    due = (ph.action_deadline if night else ph.vote_close) or ph.end
    if due is None or not (a.now < due <= a.now + warning):
        return []
    left = _span(due - a.now)
    game = getattr(a, "game", None)
    local = due.astimezone(game.tz) if game is not None else due  # the game's clock, as its posts say
    if night:
        from forummod.gamestate_view import owed_actions

        owed = owed_actions(a)
        if not owed:
            return []
        either = pgettext("gm-alert", " or ")
        missing = "; ".join(either.join(o.players) + ": " + " / ".join(o.actions) for o in owed)
        text = pgettext("gm-alert", "%(game)s %(phase)s: night actions due in %(left)s (%(time)s); missing: %(missing)s",
                        game=a.game_id, phase=phase_label(phase), left=left, time=local.strftime("%Y-%m-%d %H:%M %Z"),
                        missing=missing)
        public = npgettext("gm-alert", "%(game)s %(phase)s: night actions due in %(left)s; %(n)s still missing",
                           "%(game)s %(phase)s: night actions due in %(left)s; %(n)s still missing", len(owed),
                           game=a.game_id, phase=phase_label(phase), left=left)
        return [Alert("deadline", a.game_id, phase, f"deadline:{phase}:{due.isoformat()}", text, True, public)]
    t = a.run.current_tally
    missing_votes = tuple(t.not_voting) if t is not None else ()
    if not missing_votes:
        return []
    text = npgettext("gm-alert", "%(game)s %(phase)s: the vote closes in %(left)s (%(time)s); not voted (%(n)s): "
                     "%(names)s", "%(game)s %(phase)s: the vote closes in %(left)s (%(time)s); not voted (%(n)s): "
                     "%(names)s", len(missing_votes), game=a.game_id, phase=phase_label(phase), left=left,
                     time=local.strftime("%Y-%m-%d %H:%M %Z"), names=join_names(missing_votes))
    return [Alert("deadline", a.game_id, phase, f"deadline:{phase}:{due.isoformat()}", text)]


def _pm_alerts(a: Any, phase: str) -> list[Alert]:
    """A player's PM of this phase that the extractor could not read as an action."""
    ph = a.run.state.phase
    out = []
    for issue in a.extraction_issues:
        src = issue.source
        if issue.code != "unparsed_action" or src is None or src.kind != "message":
            continue
        if ph is not None and issue.at is not None and issue.at < ph.start:
            continue  # an old PM of a past phase was the GM's business then
        out.append(Alert("pm_not_understood", a.game_id, phase, f"pm:{src.id}",
                         f"{a.game_id} {phase_label(phase)}: {issue.message}", True,
                         pgettext("gm-alert", "%(game)s %(phase)s: a player's PM was not understood (read it in "
                                  "forummod)", game=a.game_id, phase=phase_label(phase))))
    return out


def _poll_alerts(a: Any, phase: str, facts: AlertFacts, after: timedelta) -> list[Alert]:
    tz = getattr(getattr(a, "game", None), "tz", None)
    since = facts.poll_failing_since
    if since is None and facts.recovered_since is not None and facts.recovered_at is not None:
        # the failure the GM was told of is over: one word that polling works again, with its key
        back, began = facts.recovered_at, facts.recovered_since
        text = pgettext("gm-alert", "%(game)s: polling works again since %(time)s (it had failed for %(span)s)",
                        game=a.game_id, time=_local(back, tz).strftime("%Y-%m-%d %H:%M %Z"), span=_span(back - began))
        return [Alert("poll_recovered", a.game_id, phase, f"poll_recovered:{began.isoformat()}", text)]
    if since is None or a.now - since < after:
        return []
    local = _local(since, tz)
    text = pgettext("gm-alert", "%(game)s: polling has failed for %(span)s (since %(time)s)", game=a.game_id,
                    span=_span(a.now - since), time=local.strftime("%Y-%m-%d %H:%M %Z"))
    if facts.poll_error:
        text += ": " + poll_trouble(facts.poll_error) + " " + pgettext(
            "gm-alert", "(the forum's answer: %(detail)s)", detail=_short(facts.poll_error))
    return [Alert("poll_failing", a.game_id, phase, f"poll_failing:{since.isoformat()}", text)]


def _read_gap_alerts(a: Any, phase: str, facts: AlertFacts) -> list[Alert]:
    """A thread whose stored posts fall short of what its pages imply (issue 34, item 0): the
    count may miss votes, and nothing else would say so."""
    out = []
    for gap in facts.read_gaps:
        thread = pgettext("gm-alert", "game thread") if gap.role == "game" else \
            pgettext("gm-alert", "graveyard thread") if gap.role == "graveyard" else gap.role
        params = dict(game=a.game_id, thread=thread, pages=gap.pages, read=gap.read, expected=gap.expected)
        if gap.expected:
            text = pgettext("gm-alert", "%(game)s: the %(thread)s shows %(pages)s pages, but only %(read)s of its at "
                            "least %(expected)s posts were read", **params)
        else:
            text = pgettext("gm-alert", "%(game)s: the %(thread)s shows %(pages)s pages, but not all of them were read",
                            **params)
        if gap.unread_pages:
            text += pgettext("gm-alert", " (pages not read: %(pages)s)", pages=page_list(gap.unread_pages))
        if gap.short_pages:
            text += pgettext("gm-alert", " (pages read short: %(pages)s)", pages=page_list(gap.short_pages))
        text += pgettext("gm-alert", "; the count may miss votes: open the thread in a browser, then poll again.")
        out.append(Alert("posts_unread", a.game_id, phase, gap.key, text))
    return out


#: What a failed poll's error says, in the order tried, and what it means for the GM.
_TROUBLES = (
    # what the forum's own page said (forum.error_pages): before the HTTP status it came with
    (r"closed \(maintenance\)", pgettext_noop("gm-alert", "the forum is closed for maintenance; polling goes on when "
                                                          "it reopens.")),
    (r"CAPTCHA|browser check", pgettext_noop("gm-alert", "the forum shows a CAPTCHA or a browser check instead of its "
                                                        "pages, which forummod cannot pass; ask the forum's staff to "
                                                        "let the account through.")),
    (r"shows an error page", pgettext_noop("gm-alert", "the forum shows its own error page (its database or software "
                                                      "failed); it is usually back soon.")),
    (r"timed? ?out|timeout", pgettext_noop("gm-alert", "the forum does not answer in time; it may be slow or down.")),
    (r"Connection ?refused|ConnectionError|NewConnection|resolve|Name or service|unreachable|Connection ?reset",
     pgettext_noop("gm-alert", "the forum cannot be reached; it may be down, or this computer offline.")),
    (r"HTTP (?:5\d\d|429)|blank page", pgettext_noop("gm-alert", "the forum answers with a server error; it is "
                                                                 "probably down or busy.")),
    (r"HTTP (?:401|403)", pgettext_noop("gm-alert", "the forum refuses access to the thread; check that the account "
                                                      "may read it.")),
    (r"HTTP 404|HTTP 410|does not exist", pgettext_noop("gm-alert", "the forum says the thread is not there; check "
                                                                    "its address.")),
    (r"login|password|credential", pgettext_noop(
        "gm-alert", "the forum refuses the login; check the account and its password (forummod doctor).")),
    (r"budget", pgettext_noop("gm-alert", "this hour's request budget for the forum is used up; the next hour goes on.")),
    (r"layout|selector|no posts", pgettext_noop(
        "gm-alert", "the forum's pages no longer look as expected; check the thread in a browser.")),
)


def poll_trouble(error: str) -> str:
    """A failed poll's error in the GM's words: what is wrong and what to do (issue 28, item 10)."""
    import re

    for pattern, words in _TROUBLES:
        if re.search(pattern, error, re.IGNORECASE):
            return pgettext("gm-alert", words)
    return pgettext("gm-alert", "the forum could not be read.")


def _local(at: datetime, tz: Any) -> datetime:
    return at.astimezone(tz) if tz is not None else at


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _is_night(phase: str) -> bool:
    from forummod.engine.types import PhaseId

    try:
        return PhaseId.parse(phase).kind == "night"
    except ValueError:
        return False


def _n(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _span(d: timedelta) -> str:
    minutes = max(0, int(d.total_seconds()) // 60)
    h, m = divmod(minutes, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m"


def kinds_unknown(kinds: Sequence[str]) -> list[str]:
    return [k for k in kinds if k not in ALERT_KINDS]
