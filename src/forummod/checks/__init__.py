"""Moderation checks: pure functions of a `CheckContext` returning `Finding`s.

    ctx = check_store.check_context(store, analysis, gm_accounts=(site.username,))  # GM PMs read up front
    findings = run_checks(ctx)                                          # every finding true at ctx.now
    fresh = check_store.new_findings(store, game_id, findings, now)     # only those not reported yet

Families: `activity` (blocks, ON-D2), `prod` (post counts, prod list), `conduct` (posting
places LUP-G2/G3, refused votes and actions, ON-V2, edited votes; `verbatim`: ON-D4) and
`actions` (compulsory actions before the deadline), `roles` (a seat without a role where roles are
in play), `dates` (posts whose date was guessed: a
deadline in their span is the GM's to rule, issue 16), `names` (a name no player matches that
probably means one: the alias proposal waits for the GM, issue 27). No module here does I/O: reading the store
and recording findings is `forummod.check_store`'s job, in the service layer.
A crashing check becomes a `check_failed` finding instead of hiding the others: malformed
input is data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timezone

from forummod.checks.actions import check_missing_actions
from forummod.checks.activity import check_activity
from forummod.checks.conduct import (
    check_action_rejections, check_dead_posts, check_edited_votes, check_graveyard_posts, check_pm_vote_mismatch,
    check_vote_rejections,
)
from forummod.checks.context import CheckContext, GmPm
from forummod.checks.dates import check_guessed_dates
from forummod.checks.names import check_name_proposals
from forummod.checks.findings import Finding
from forummod.checks.prod import PlayerPosts, check_prod, post_counts, prod_list
from forummod.checks.reading import check_reading
from forummod.checks.roles import check_missing_roles
from forummod.checks.rules import CODES
from forummod.checks.verbatim import check_verbatim
from forummod.i18n import gm_language, pgettext

Check = Callable[[CheckContext], list[Finding]]

CHECKS: tuple[Check, ...] = (
    check_activity,
    check_prod,
    check_dead_posts,
    check_graveyard_posts,
    check_vote_rejections,
    check_pm_vote_mismatch,
    check_verbatim,
    check_edited_votes,
    check_action_rejections,
    check_missing_actions,
    check_guessed_dates,
    check_name_proposals,
    check_reading,
    check_missing_roles,
)

_EPOCH = datetime.min.replace(tzinfo=timezone.utc)


def run_checks(ctx: CheckContext, checks: Sequence[Check] = CHECKS) -> list[Finding]:
    """Every finding of every check, minus the codes in `checks.disabled`, oldest first, worded in the
    game's language (`games.<id>.language`, else the ruleset's)."""
    with gm_language(ctx.game.language or ctx.ruleset.language):
        return _run_checks(ctx, checks)


def _run_checks(ctx: CheckContext, checks: Sequence[Check]) -> list[Finding]:
    out: list[Finding] = []
    for check in checks:
        try:
            out.extend(check(ctx))
        except Exception as e:  # one broken check must not hide the others
            out.append(Finding(code="check_failed", key=f"check_failed:{check.__name__}", severity="error",
                               message=pgettext("gm-finding", "%(check)s failed: %(error)s: %(detail)s",
                                                check=check.__name__, error=type(e).__name__, detail=e)))
    off = set(ctx.cfg.disabled)
    seen: set[str] = set()
    unique = []
    for f in out:
        if f.code in off or f.key in seen:
            continue
        seen.add(f.key)
        unique.append(f)
    return sorted(unique, key=lambda f: (f.at or _EPOCH, f.code, f.player or "", f.key))


__all__ = [
    "CHECKS", "CODES", "CheckContext", "Finding", "GmPm", "PlayerPosts",
    "post_counts", "prod_list", "run_checks",
]
