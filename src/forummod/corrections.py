"""Correction drafts after `gm undo`: only for published posts whose stated facts the undo changed.

The game is analysed just before the undo is recorded and again after; each published one-shot
post (dawn, day end, night result, role PM, game over) is planned from both analyses and compared
by the facts it states (`render.facts`). The GM's own edits, later events that both analyses
share and wording differences therefore never make a correction; a death, a role, a lynch or a
deadline the undo took back or changed does (issue 28, item 6).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from forummod.freshness import draft_settings
from forummod.records import frozen
from forummod.render import game_view, phrasebook_for, plan_kind, render_post
from forummod.render.facts import correction_body, correction_title, facts_changed
from forummod.render.plan import END, GM, SETUP, THREAD

#: The published kinds a correction may be due for (a vote count or a prod states nothing lasting).
CORRECTABLE = ("day_start", "day_end", "night_result", "role_pm", "game_over")
SUFFIX = ":correction"


@frozen
class Due:
    """A published draft whose facts the undo changed; `post` its view model now (None: gone)."""

    published: Any  # the published draft row
    post: Any
    title: str


def _planned(analysis: Any, pb: Any, kind: str, phase: str, slot: str) -> Any:
    gv = game_view(analysis, ())
    for d in plan_kind(gv, pb, kind, phase=None if phase in (SETUP, END, "") else phase,
                       player=None if slot in (THREAD, GM) else slot):
        if (d.kind, d.phase, d.slot) == (kind, phase, slot):
            return d
    return None


def due_corrections(ws: Any, gid: str, before: Any, after: Any, rows: Iterable[Any]) -> list[Due]:
    """The published `rows` whose facts differ between the `before` and `after` analyses."""
    s = draft_settings(ws, gid, after.ruleset)
    out: list[Due] = []
    seen: set[tuple[str, str, str]] = set()
    for r in rows:
        key = (r.kind, r.phase, r.slot)
        if r.kind not in CORRECTABLE or r.slot.endswith(SUFFIX) or key in seen:
            continue
        seen.add(key)
        pb = phrasebook_for(r.lang or s.lang, s.ruleset, r.markup or s.markup, s.user_dir)
        was = _planned(before, pb.with_tz(before.game.tz), *key)
        now = _planned(after, pb.with_tz(after.game.tz), *key)
        if facts_changed(was and was.post, now and now.post):
            out.append(Due(r, now.post if now else None, now.title if now else r.title))
    return out


def store_corrections(ws: Any, gid: str, after: Any, due: Iterable[Due]) -> list[Mapping[str, Any]]:
    """A correction draft per `due` post (one open draft per post: a second undo updates it)."""
    s = draft_settings(ws, gid, after.ruleset)
    out = []
    for d in due:
        r = d.published
        markup, lang = r.markup or s.markup, r.lang or s.lang
        pb = phrasebook_for(lang, s.ruleset, markup, s.user_dir)
        body = None if d.post is None else render_post(r.kind, d.post, markup, lang, s.user_dir,
                                                       small_form=s.small_form if markup == s.markup else "")
        title = correction_title(pb, d.title)
        did, _ = ws.store.upsert_draft(game=gid, kind=r.kind, phase=r.phase, slot=r.slot + SUFFIX, target=r.target,
                                       markup=markup, lang=lang, title=title,
                                       body=correction_body(pb, markup, body), at=ws.clock())
        out.append({"kind": r.kind, "phase": r.phase, "draft": did, "published": r.id})
    return out
