"""Names nobody settled (issue 27, item 3): each pending alias proposal is a finding, and the
words of its evidence, shared by `check`, `status` and the console.

The proposal (`names_settled.NameProposal`, from `extract.aliases`) says which seat a spelling
probably means and why; until the GM approves it (`forummod gm approve alias:…`) the votes so
written do not count, so `check` and `tick` say so once per proposal (its key names the
spelling and its candidates: a new candidate is a new finding). Pure; the words in the game's
language (msgctxt `gm-finding`).
"""

from __future__ import annotations

from typing import Any, Iterable

from forummod.checks.context import CheckContext
from forummod.checks.findings import Finding
from forummod.i18n import npgettext, pgettext


def evidence_text(rule: str, form: str, value: Any) -> str:
    """One reason in words: `form` is the name (or alias) the rule matched; for `voter_vote` the
    voter, for `same_spelling` nothing (`value` is how many players wrote it)."""
    if rule == "initials":
        return pgettext("gm-finding", "the initials of %(name)s", name=form)
    if rule == "prefix":
        return pgettext("gm-finding", "the start of %(name)s", name=form)
    if rule == "part":
        return pgettext("gm-finding", "a part of %(name)s", name=form)
    if rule == "edits":
        return npgettext("gm-finding", "%(n)s letter off %(name)s", "%(n)s letters off %(name)s", int(value), name=form)
    if rule == "fuzzy":
        return pgettext("gm-finding", "close to %(name)s (%(score)s%%)", name=form, score=int(round(float(value))))
    if rule == "letters":
        return pgettext("gm-finding", "the letters of %(name)s in order", name=form)
    if rule == "voter_vote":
        return pgettext("gm-finding", "%(voter)s's own nearest vote", voter=form)
    if rule == "same_spelling":
        return npgettext("gm-finding", "written by %(n)s player", "written by %(n)s players", int(value))
    if rule == "capitals":
        return pgettext("gm-finding", "written in capitals")
    if rule == "gm":
        return pgettext("gm-finding", "set by the GM")
    return rule


def evidence_words(evidence: Iterable[Any]) -> str:
    """The reasons of a proposal, each once: "the initials of KingTheSlayer, written by 2 players".
    Items are `extract.aliases.Evidence` or their JSON (`status --json` `names[].evidence`)."""
    texts = []
    for e in evidence:
        rule, form, value = (e["rule"], e["form"], e["value"]) if isinstance(e, dict) else (e.rule, e.form, e.value)
        texts.append(evidence_text(rule, form, value))
    return ", ".join(dict.fromkeys(texts))


def check_name_proposals(ctx: CheckContext) -> list[Finding]:
    """A finding for each alias proposal waiting for the GM."""
    out = []
    for n in ctx.names:
        if n.status != "pending":
            continue
        votes = len(n.uses)
        first = next((u for u in n.uses if u.source is not None), None)
        if n.ambiguous:
            message = npgettext(
                "gm-finding", "“%(spelling)s” is no player's name; it could be %(players)s (%(why)s). %(n)s "
                "vote so written does not count until you pick: forummod gm approve %(key)s --player NAME",
                "“%(spelling)s” is no player's name; it could be %(players)s (%(why)s). %(n)s votes so written "
                "do not count until you pick: forummod gm approve %(key)s --player NAME", votes,
                spelling=n.spelling, players=pgettext("gm-finding", " or ").join(n.candidates),
                why=evidence_words(n.evidence), key=n.key)
        else:
            message = npgettext(
                "gm-finding", "“%(spelling)s” is no player's name; it probably means %(player)s (%(why)s). %(n)s "
                "vote so written does not count until you approve: forummod gm approve %(key)s",
                "“%(spelling)s” is no player's name; it probably means %(player)s (%(why)s). %(n)s votes so "
                "written do not count until you approve: forummod gm approve %(key)s", votes,
                spelling=n.spelling, player=n.candidates[0], why=evidence_words(n.evidence), key=n.key)
        out.append(Finding(code="alias_proposed", key=f"{n.key}:{'/'.join(n.candidates)}", message=message,
                           player=first.voter if first else None, source=first.source if first else None,
                           at=n.first_at, severity="warning"))
    return out
