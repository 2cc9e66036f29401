"""The facts a post states, so that an undo proposes a correction only when one changed (issue 28, item 6).

A published post may differ from a render now for many harmless reasons: the GM edited it
before sending, a later event added a line, the wording of a template changed. None of these
makes the post wrong. What makes it wrong is a *fact* it told the players that is no longer
true: who died and with which role, whether the lynch happened, whether it is still only a
proposal, when the next phase starts or the vote closes, who won, what a role PM or a night
result told its reader. `stated_facts` reads those out of a view model; two renders of the
same post are compared by them, never by their text. Pure.
"""

from __future__ import annotations

from typing import Any

from forummod.render.models import (DayEndPost, DayStartPost, GameOverPost, NightResultPMPost, RolePMPost)

Fact = tuple[str, ...]


def _deaths(deaths: Any) -> set[Fact]:
    return {("death", d.player, d.role if d.revealed else "") for d in deaths}


def stated_facts(post: Any) -> frozenset[Fact]:
    """The facts `post` (a view model of a one-shot kind) tells its readers; empty for other kinds."""
    out: set[Fact] = set()
    if isinstance(post, DayStartPost):
        out |= _deaths(post.deaths)
        out |= {("announced", str(a)) for a in post.announcements}
        out.add(("vote_close", post.deadline))
        out.add(("decided", str(not post.pending)))
    elif isinstance(post, DayEndPost):
        out |= _deaths(post.deaths)
        out |= {("announced", str(a)) for a in post.announcements}
        out.add(("no_lynch", str(post.no_lynch)))
        out.add(("next_start", post.next_phase, post.next_start))
        out.add(("decided", str(not post.pending)))
    elif isinstance(post, NightResultPMPost):
        out |= {("result", str(r)) for r in post.results}
        out.add(("decided", str(not post.pending)))
    elif isinstance(post, RolePMPost):
        out.add(("role", post.role_id, post.faction))
        out |= {("partner", p) for p in post.partners}
        out |= {("note", str(n)) for n in post.notes}
    elif isinstance(post, GameOverPost):
        out.add(("result", post.result_key))
        out |= {("winner", w) for w in post.winners}
        out |= {("seat", r.player, r.role_id, str(r.alive), r.died) for r in post.roles}
    return frozenset(out)


def facts_changed(before: Any, after: Any) -> bool:
    """Whether a post rendered `before` and `after` (view models; None: it no longer applies)
    states different facts. A post that applied before and not after changed; one that did not
    apply before was never stated by this render, so nothing of it can be corrected."""
    if before is None:
        return False
    if after is None:
        return True
    return stated_facts(before) != stated_facts(after)


def correction_body(pb: Any, markup: str, body: str | None) -> str:
    """The text of a correction draft: a heading in the game's language, then the post as it
    now stands (or that it no longer applies)."""
    if body is None:
        head = pb.pgettext("correction", "Correction to an earlier post: it no longer applies.")
        return _bold(head, markup)
    return _bold(pb.pgettext("correction", "Correction to an earlier post:"), markup) + "\n\n" + body


def correction_title(pb: Any, title: str) -> str:
    """The title (a PM's subject) of a correction draft, in the game's language."""
    return pb.pgettext("correction", "Correction: %(title)s") % {"title": title}


def _bold(text: str, markup: str) -> str:
    return f"**{text}**" if markup == "markdown" else f"[b]{text}[/b]" if markup == "bbcode" else text
