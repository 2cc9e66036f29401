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

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from forummod.draft_state import DraftState, Fresh, Source, content_key, draft_state
from forummod.render import KINDS, game_view, phrasebook_for, plan_drafts, plan_kind, render_post
from forummod.render.plan import END, GM, SETUP, THREAD, PlannedDraft

ONE_SHOT = frozenset({"day_start", "day_end", "role_pm", "night_result", "game_over"})
PER_PHASE = frozenset({"warnings", "prod"})  # an open one from an earlier phase is outdated


@dataclass(frozen=True)
class DraftSettings:
    """How a game's drafts are written: language, markup and the user's templates folder."""

    lang: str
    markup: str
    ruleset: str
    user_dir: Path | None


def draft_settings(ws: Any, game_id: str, ruleset: Any) -> DraftSettings:
    game = ws.cfg.game(game_id)
    return DraftSettings(lang=game.language or ruleset.language, markup=game.markup, ruleset=game.ruleset,
                         user_dir=ws.cfg.workspace.templates_dir)


def refresh_drafts(ws: Any, game_id: str, analysis: Any = None, findings: Sequence[Any] = (),
                   kinds: Iterable[str] = KINDS) -> list[int]:
    """Render every draft that applies now and store it; returns the ids of the open drafts
    rendered this time (new, updated or unchanged), for `publish.auto_publish`."""
    if analysis is None:
        from forummod.service import analyse_game

        analysis = analyse_game(ws, game_id)
    s = draft_settings(ws, game_id, analysis.ruleset)
    pb = phrasebook_for(s.lang, s.ruleset, s.markup, s.user_dir).with_tz(analysis.game.tz)
    gv = game_view(analysis, tuple(findings))
    planned = plan_drafts(gv, pb, kinds)
    ids = store_drafts(ws, game_id, planned, s, marks=input_marks(analysis))
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
    gv = game_view(analysis, tuple(findings))
    out = []
    for d in plan_kind(gv, pb, kind, phase=phase, player=player, public=public):
        body = render_post(d.kind, d.post, s.markup, s.lang, s.user_dir)
        did = None
        if store and public:  # the GM view of a vote count is printed, never stored
            did = _upsert(ws, game_id, d, body, s, input_marks(analysis))
            body = ws.store.draft(did).body  # one id, one text: a GM's edit is kept and shown as such
        out.append((did, d, body))
    return out


def input_marks(analysis: Any) -> tuple[int | None, int | None]:
    """The last post number and the last event id an analysis counted."""
    nums = [p.number for ps in analysis.inputs.posts.values() for p in ps if p.number is not None]
    evs = [e.id for e in analysis.inputs.events if getattr(e, "id", None) is not None]
    return (max(nums) if nums else None, max(evs) if evs else None)


def rerender(ws: Any, draft: Any, analysis: Any) -> Fresh:
    """Render a stored draft's (kind, phase, slot) again from what the store knows now."""
    s = draft_settings(ws, draft.game, analysis.ruleset)
    pb = phrasebook_for(draft.lang or s.lang, s.ruleset, draft.markup or s.markup, s.user_dir).with_tz(analysis.game.tz)
    gv = game_view(analysis, ())
    phase = None if draft.phase in (SETUP, END, "") else draft.phase
    player = None if draft.slot in (THREAD, GM) else draft.slot
    last_post, last_event = input_marks(analysis)
    try:
        planned = plan_kind(gv, pb, draft.kind, phase=phase, player=player)
    except ValueError:  # a kind this version no longer drafts
        planned = ()
    for d in planned:
        if (d.kind, d.phase, d.slot) == (draft.kind, draft.phase, draft.slot):
            body = render_post(d.kind, d.post, draft.markup or s.markup, draft.lang or s.lang, s.user_dir)
            return Fresh(d.title, body, Source(d.phase, last_post, last_event, content_key(d.title, body)))
    return Fresh(None, None, Source(draft.phase, last_post, last_event, ""))


def recorded_source(ws: Any, draft_id: int) -> Source | None:
    r = ws.store.draft_render(draft_id)
    return None if r is None else Source(r["phase"], r["last_post"], r["last_event"], r["render_hash"])


def draft_state_of(ws: Any, draft: Any, analysis: Any = None, *, check: bool = True) -> DraftState:
    """The draft's state (`draft_state.State`); `check`: re-render it now to tell fresh from stale
    (open drafts only; a closed one's state is its record's)."""
    fresh = None
    if check and draft.status == "draft" and draft.kind != "warnings" and draft.target != GM:
        if analysis is None:
            from forummod.service import analyse_game

            analysis = analyse_game(ws, draft.game)
        fresh = rerender(ws, draft, analysis)
    return draft_state(draft, ws.store.publication(draft.id), recorded_source(ws, draft.id), fresh)


def draft_states(ws: Any, drafts: Sequence[Any], *, check: bool = True) -> dict[int, DraftState]:
    """`draft_state_of` for many drafts, analysing each game once."""
    from forummod.service import analyse_game

    analyses: dict[str, Any] = {}
    out = {}
    for d in drafts:
        a = None
        if check and d.status == "draft":
            if d.game not in analyses:
                analyses[d.game] = analyse_game(ws, d.game)
            a = analyses[d.game]
        out[d.id] = draft_state_of(ws, d, a, check=check and a is not None)
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
        body = render_post(d.kind, d.post, s.markup, s.lang, s.user_dir)
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
