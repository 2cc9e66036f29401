"""What a replaced player's posts and PMs give after the replacement: nothing, and a GM finding.

Extraction maps an account to its seat whoever holds it now (a replaced account stays one of
the seat's accounts, so its earlier votes keep counting). After the replacement the player who
left no longer plays: a vote or action of theirs must not count as the seat's (issue 28, item
1). The service knows when each seat changed hands (`service.SeatHistory`) and asks this module
to turn such a post's reading into one `replaced_player_post` issue. Pure.
"""

from __future__ import annotations

from forummod.i18n import gm_language, pgettext
from forummod.model import Extraction, Issue

CODE = "replaced_player_post"


def departed_extraction(ex: Extraction, author: str, holder: str, lang: str | None) -> Extraction:
    """`ex` of a post or PM by `author`, who had left the seat `holder` now holds: no intent, and
    one warning quoting what would have counted (or the issues it raised, when nothing would)."""
    first = (ex.intents or ex.issues)[0]
    said = "; ".join(f"“{raw}”" for raw in (getattr(i, "raw", "") for i in ex.intents) if raw)
    with gm_language(lang):
        where = pgettext("gm-issue", "a PM") if first.source is not None and first.source.kind == "message" \
            else pgettext("gm-issue", "a post")
        message = pgettext("gm-issue", "%(author)s was replaced by %(holder)s, yet sent %(where)s after the "
                           "replacement: it counts for nobody%(said)s", author=author, holder=holder, where=where,
                           said=(": " + said) if said else "")
    details = said or "\n".join(i.message for i in ex.issues)
    return Extraction((), (Issue(CODE, message, first.at, first.source, author, severity="warning",
                                 details=details),))
