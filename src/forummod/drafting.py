"""Glue between the analysed game and the stored drafts: render what applies now and keep it.

`refresh_drafts` is what a poll (cron tick, daemon, preview's refresh button) calls after
the analysis and the checks: it renders every draft kind that applies now and upserts it.
The store keeps one open draft per (game, kind, phase, slot), so a new poll updates the open
vote count instead of piling up copies, and a draft the GM edited by hand is never
overwritten. What was already published or discarded is not drafted again:

- one-shot posts (dawn, end of day, role PMs, night results, game over): never again for the
  same phase and player;
- repeatable ones (vote count, prod, GM notes): only when the text differs from the last one
  published or discarded.

Every stored render records what it was made from (`draft_renders`: phase, last post, last
event, text hash); `draft_state_of` re-renders a stored draft now and decides, through the one
state model of `draft_state`, whether it is fresh or stale (issue 15). A GM's edit keeps the
render it was made from, so a later render that differs makes the edited draft stale.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from forummod.errors import TemplateFailure
from forummod.draft_state import Fresh, content_key
from forummod.freshness import (DraftSettings, draft_settings, draft_state_of, draft_states, input_marks,  # noqa: F401
                                recorded_source, rerender)
from forummod.render import KINDS, game_view, phrasebook_for, plan_drafts, plan_kind, render_post
from forummod.render.plan import PlannedDraft
from forummod.checks.phase_posts import draft_post_counts

ONE_SHOT = frozenset({"day_start", "day_end", "role_pm", "night_result", "game_over"})
PER_PHASE = frozenset({"warnings", "prod"})  # an open one from an earlier phase is outdated


def refresh_drafts(ws: Any, game_id: str, analysis: Any = None, findings: Sequence[Any] = (),
                   kinds: Iterable[str] = KINDS, failures: list[Any] | None = None) -> list[int]:
    """Render every draft that applies now and store it; returns the ids of the open drafts
    rendered this time (new, updated or unchanged), for `publish.auto_publish`. With a
    `failures` list, a broken template (`TemplateFailure`) is appended there and the other
    drafts are still rendered (the daemon goes on); without, it is raised."""
    if analysis is None:
        from forummod.service import analyse_game

        analysis = analyse_game(ws, game_id)
    s = draft_settings(ws, game_id, analysis.ruleset)
    pb = phrasebook_for(s.lang, s.ruleset, s.markup, s.user_dir).with_tz(analysis.game.tz)
    gv = game_view(analysis, tuple(findings), draft_post_counts(analysis))
    planned = plan_drafts(gv, pb, kinds)
    ids = store_drafts(ws, game_id, planned, s, failures, marks=input_marks(analysis))
    _retire_outdated(ws, game_id, gv.state.phase.name if gv.state.phase else None)
    return ids


def draft_now(ws: Any, game_id: str, kind: str, *, analysis: Any = None, findings: Sequence[Any] = (),
              phase: str | None = None, player: str | None = None, store: bool = True,
              public: bool = True) -> list[tuple[int | None, PlannedDraft, str]]:
    """`forummod draft KIND`: render one kind now (for `phase` / `player`) and store it even
    if one like it was published before (the GM asked). Returns (id, plan, body) per draft."""
    if analysis is None:
        from forummod.service import analyse_game

        analysis = analyse_game(ws, game_id)
    s = draft_settings(ws, game_id, analysis.ruleset)
    pb = phrasebook_for(s.lang, s.ruleset, s.markup, s.user_dir).with_tz(analysis.game.tz)
    gv = game_view(analysis, tuple(findings), draft_post_counts(analysis))
    out = []
    for d in plan_kind(gv, pb, kind, phase=phase, player=player, public=public):
        body = render_post(d.kind, d.post, s.markup, s.lang, s.user_dir, small_form=s.small_form)
        did = None
        if store and public:  # the GM view of a vote count is printed, never stored
            did = _upsert(ws, game_id, d, body, s, input_marks(analysis))
            body = ws.store.draft(did).body  # one id, one text: a GM's edit is kept and shown as such
        out.append((did, d, body))
    return out


def revert_to_render(ws: Any, draft_id: int, analysis: Any = None) -> Fresh:
    """The preview's Revert: replace the GM's edit of an open draft by a render from now."""
    from forummod.errors import UsageError

    d = ws.store.draft(draft_id)
    if d is None or d.status != "draft":
        raise UsageError(f"draft {draft_id} is not an open draft")
    if ws.store.publication(draft_id) is not None:
        raise UsageError(f"draft {draft_id} has a publication attempt; its text stays what was sent")
    if analysis is None:
        from forummod.service import analyse_game

        analysis = analyse_game(ws, d.game)
    f = rerender(ws, d, analysis)
    if f.body is None:
        raise UsageError(f"draft {draft_id} ({d.kind}) no longer applies: {f.source.describe()}; discard it")
    ws.store.revert_draft(draft_id, f.title or d.title, f.body, ws.clock())
    ws.store.set_draft_render(draft_id, f.source.render_hash, f.source.phase, f.source.last_post,
                              f.source.last_event, ws.clock())
    return f


def store_drafts(ws: Any, game_id: str, planned: Sequence[PlannedDraft], s: DraftSettings,
                 failures: list[Any] | None = None,
                 marks: tuple[int | None, int | None] = (None, None)) -> list[int]:
    existing = ws.store.drafts(game_id)
    ids: list[int] = []
    for d in planned:
        same = [r for r in existing if (r.kind, r.phase, r.slot) == (d.kind, d.phase, d.slot)]
        open_ = [r for r in same if r.status == "draft"]
        closed = [r for r in same if r.status != "draft"]
        if open_ and ws.store.publication(open_[-1].id) is not None:
            continue  # being published (or a failed attempt the GM must settle): leave its text alone
        if d.kind in ONE_SHOT and any(r.status == "published" or r.status == "discarded" for r in closed):
            continue
        try:
            body = render_post(d.kind, d.post, s.markup, s.lang, s.user_dir, small_form=s.small_form)
        except TemplateFailure as e:
            if failures is None:
                raise
            if all(str(f) != str(e) for f in failures):
                failures.append(e)
            continue  # the draft keeps its last good text; the GM is told (pipeline)
        if not open_ and closed and closed[-1].body == body and closed[-1].title == d.title:
            continue
        if d.kind == "warnings" and getattr(d.post, "empty", False) and not open_:
            continue
        ids.append(_upsert(ws, game_id, d, body, s, marks))
    return ids


def _upsert(ws: Any, game_id: str, d: PlannedDraft, body: str, s: DraftSettings,
            marks: tuple[int | None, int | None]) -> int:
    did, _changed = ws.store.upsert_draft(game=game_id, kind=d.kind, phase=d.phase, slot=d.slot, target=d.target,
                                          markup=s.markup, lang=s.lang, title=d.title, body=body, at=ws.clock())
    row = ws.store.draft(did)
    if not row.edited_by_gm:  # the text is this render: record what it was made from
        ws.store.set_draft_render(did, content_key(d.title, body), d.phase, marks[0], marks[1], ws.clock())
    return did


def _retire_outdated(ws: Any, game_id: str, phase: str | None) -> None:
    """GM notes and prods of an earlier phase are discarded once the game moves on."""
    for r in ws.store.drafts(game_id, status="draft"):
        if r.kind in PER_PHASE and phase is not None and r.phase != phase and ws.store.publication(r.id) is None:
            ws.store.set_draft_status(r.id, "discarded", ws.clock(), note=f"outdated: the game is in {phase}")
