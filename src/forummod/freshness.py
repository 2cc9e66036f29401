"""Is a stored draft still what a render would write now? (issue 15, item 3)

Renders a stored draft's (kind, phase, slot) again from the store's posts and events and
hands both renders to the one state model, `draft_state`. Kept apart from `drafting` so that
`publish` can check a draft before sending it without importing the service (`ws.analyse`
runs the analysis).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from forummod.draft_state import DraftState, Fresh, Position, Source, content_key, draft_state
from forummod.records import frozen
from forummod.render import game_view, phrasebook_for, plan_kind, render_post
from forummod.render.plan import END, GM, SETUP, THREAD
from forummod.checks.phase_posts import draft_post_counts


@frozen
class DraftSettings:
    """How a game's drafts are written: language, markup and the user's templates folder."""

    lang: str
    markup: str
    ruleset: str
    user_dir: Path | None
    small_form: str = ""  # the engine's small print ({text}) when the game writes its markup


def draft_settings(ws: Any, game_id: str, ruleset: Any) -> DraftSettings:
    game = ws.cfg.game(game_id)
    return DraftSettings(lang=game.language or ruleset.language, markup=game.markup, ruleset=game.ruleset,
                         user_dir=ws.cfg.workspace.templates_dir, small_form=small_form_for(ws, game_id, game.markup))


def small_form_for(ws: Any, game_id: str, markup: str) -> str:
    """The engine profile's form of small print (`[size=85]` is 85% on phpBB but 50 pt on MyBB and
    no size at all on SMF 2.1) when the game writes the engine's markup; "" = the markup's default."""
    from forummod.forum.registry import find_profile

    site = ws.cfg.site_of(game_id)
    prof = find_profile(site.engine, ws.cfg.workspace.adapters_dir)
    if prof is None or prof.markup != markup:
        return ""
    return prof.small_form


def input_marks(analysis: Any) -> tuple[int | None, int | None]:
    """The last post number and the last event id an analysis counted."""
    nums = [p.number for ps in analysis.inputs.posts.values() for p in ps if p.number is not None]
    evs = [e.id for e in analysis.inputs.events if getattr(e, "id", None) is not None]
    return (max(nums) if nums else None, max(evs) if evs else None)


def rerender(ws: Any, draft: Any, analysis: Any) -> Fresh:
    """Render a stored draft's (kind, phase, slot) again from what the store knows now."""
    s = draft_settings(ws, draft.game, analysis.ruleset)
    pb = phrasebook_for(draft.lang or s.lang, s.ruleset, draft.markup or s.markup, s.user_dir).with_tz(analysis.game.tz)
    gv = game_view(analysis, (), draft_post_counts(analysis))
    phase = None if draft.phase in (SETUP, END, "") else draft.phase
    player = None if draft.slot in (THREAD, GM) else draft.slot
    last_post, last_event = input_marks(analysis)
    try:
        planned = plan_kind(gv, pb, draft.kind, phase=phase, player=player)
    except ValueError:  # a kind this version no longer drafts
        planned = ()
    for d in planned:
        if (d.kind, d.phase, d.slot) == (draft.kind, draft.phase, draft.slot):
            markup = draft.markup or s.markup
            body = render_post(d.kind, d.post, markup, draft.lang or s.lang, s.user_dir,
                               small_form=s.small_form if markup == s.markup else "")
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
            analysis = ws.analyse(draft.game)
        fresh = rerender(ws, draft, analysis)
    return draft_state(draft, ws.store.publication(draft.id), recorded_source(ws, draft.id), fresh)


def draft_states(ws: Any, drafts: Sequence[Any], *, check: bool = True,
                 analyses: dict[str, Any] | None = None) -> dict[int, DraftState]:
    """`draft_state_of` for many drafts, analysing each game once (`analyses`: a dict to reuse
    analyses from and keep the ones made here in, by game id)."""
    analyses = {} if analyses is None else analyses
    out = {}
    for d in drafts:
        a = None
        if check and d.status == "draft":
            if d.game not in analyses:
                analyses[d.game] = ws.analyse(d.game)
            a = analyses[d.game]
        out[d.id] = draft_state_of(ws, d, a, check=check and a is not None)
    return out


def game_position(ws: Any, game_id: str, analysis: Any = None) -> Position | None:
    """The game's phase now and whether it is over (None: a game no longer in the config)."""
    if game_id not in ws.cfg.games:
        return None
    if analysis is None:
        analysis = ws.analyse(game_id)
    st = analysis.state
    return Position(st.phase.name if st.phase is not None else SETUP,
                    st.outcome is not None or not ws.cfg.game(game_id).active)
