"""Seats without a role where the game deals or reveals roles (issue 28, item 10).

A GM who only counts votes gives no roles at all and is never told. Once roles are in play
(any seat has one, or the setup deals them) a seat without one is a slip: its role PM says
nothing, its night actions are refused, and its death reveals an empty card where the ruleset
shows roles. One finding per seat, until the GM sets it (`gm set-role`, or `role` in the config).
"""

from __future__ import annotations

from forummod.checks.context import CheckContext
from forummod.checks.findings import Finding
from forummod.i18n import pgettext


def check_missing_roles(ctx: CheckContext) -> list[Finding]:
    players = ctx.state.players
    dealt = getattr(getattr(ctx.game, "setup", None), "deal", "config") == "random"
    if not dealt and not any(p.role for p in players):
        return []  # no roles at all: the GM counts votes only
    reveals = bool(getattr(getattr(ctx.ruleset, "options", None), "reveal_roles", True))
    out = []
    for p in players:
        if p.role:
            continue
        why = (pgettext("gm-finding", "their role PM, night actions and the reveal at their death need one")
               if reveals else pgettext("gm-finding", "their role PM and night actions need one"))
        out.append(Finding(code="no_role", key=f"no_role:{p.seat}", player=p.name, severity="warning",
                           message=pgettext("gm-finding", "%(player)s has no role: %(why)s (forummod gm set-role "
                                            "%(player)s ROLE, or role = ... on the seat in the config)",
                                            player=p.name, why=why)))
    return out
