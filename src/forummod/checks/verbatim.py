"""ON-D4 (D4): a post that copies a GM PM word for word.

GM PMs must be retold in one's own words. The player's own text of each game-thread post
(`extract.post_text`: quotes, spoilers, code and signatures left out) is compared with every
PM the GM sent that player before the post; a run of `checks.verbatim_words` (default 12)
consecutive words, case- and space-insensitive, is flagged. Every stored version of the post
is read, so a copy removed by a later edit is still reported (the thread saw it).
"""

from __future__ import annotations

from forummod.checks.context import CheckContext, GmPm, post_source, source_label
from forummod.checks.findings import Finding
from forummod.checks.rules import rule_for
from forummod.checks.words import Copy, longest_copy, post_text, words
from forummod.i18n import npgettext, pgettext


def _pm_segments(pm: GmPm) -> list[tuple[str, ...]]:
    """All the words of a GM PM, spoilers and quotes included (each part matched on its own)."""
    t = post_text(pm.text)
    return [ws for ws in (words(t.text), *(words(h.text) for h in t.hidden)) if ws]


def check_verbatim(ctx: CheckContext) -> list[Finding]:
    n = ctx.cfg.verbatim_words
    if n <= 0 or not ctx.gm_pms:
        return []
    refs = {pl: [(pm, seg) for pm in sorted(pms, key=lambda m: m.at) for seg in _pm_segments(pm)]
            for pl, pms in ctx.gm_pms.items()}
    out = []
    for p in ctx.thread("game"):
        pl = ctx.player_of(p.author)
        avail = [(pm, seg) for pm, seg in refs.get(pl or "", []) if pm.at <= p.created_at]
        if pl is None or not avail:
            continue
        best: tuple[Copy, int] | None = None
        for v in p.versions:
            c = longest_copy(words(post_text(v.html).text), [seg for _, seg in avail], n)
            if c is not None and (best is None or c.length > best[0].length):
                best = (c, v.version)
        if best is None:
            continue
        copy, version = best
        pm = avail[copy.ref][0]
        src = post_source(p, "game")
        edited = pgettext("gm-finding", " (in version %(version)s, since edited)", version=version) \
            if version != p.versions[-1].version else ""
        out.append(Finding(
            code="verbatim_pm", key=f"verbatim_pm:{p.thread}:{p.post_id}",
            rule=rule_for("verbatim_pm", ctx.ruleset_name),
            player=pl, source=src, at=p.created_at, severity="warning", phase=ctx.phase_at(p.created_at),
            quote=copy.excerpt,
            message=npgettext("gm-finding", "%(player)s's post %(where)s%(edited)s copies %(n)s consecutive word of the "
                              "GM's PM (%(pm)s, %(time)s): “%(excerpt)s”", "%(player)s's post %(where)s%(edited)s copies "
                              "%(n)s consecutive words of the GM's PM (%(pm)s, %(time)s): “%(excerpt)s”", copy.length,
                              player=p.author, where=source_label(src), edited=edited, pm=source_label(pm.source),
                              time=ctx.fmt(pm.at), excerpt=copy.excerpt)))
    return out
