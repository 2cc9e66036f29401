"""Which drafts apply to a game now, each with its store key, target and view model (pure).

A draft is keyed by (kind, phase, slot): the store keeps one open draft per key, so a new
poll updates the open vote count instead of piling up copies. `target` says where it goes:
"thread" (a reply in the game thread), "pm:<player>" (a private message) or "gm" (never
posted; the GM reads it in the preview).
"""

from __future__ import annotations

from typing import Iterable

from forummod.records import frozen
from forummod.render import build
from forummod.render.models import KINDS, ViewModel
from forummod.render.phrases import Phrasebook
from forummod.render.view import GameView

THREAD = "thread"
GM = "gm"
SETUP = "setup"
END = "end"


def pm_target(player: str) -> str:
    return f"pm:{player}"


@frozen
class PlannedDraft:
    kind: str
    phase: str
    slot: str
    target: str
    title: str  # plain text: the PM subject, or the draft's name in lists
    post: ViewModel


def _title(pb: Phrasebook, kind: str, gv: GameView, phase: str, player: str = "") -> str:
    return pb.title(kind, game=gv.title, phase=pb.phase(phase) if phase not in (SETUP, END, "") else "",
                    player=player)


def plan_kind(gv: GameView, pb: Phrasebook, kind: str, *, phase: str | None = None,
              player: str | None = None, public: bool = True) -> tuple[PlannedDraft, ...]:
    """The drafts of one kind for the game now (or for `phase` / `player` when given)."""
    if kind not in KINDS:
        raise ValueError(f"unknown draft kind {kind!r} (kinds: {', '.join(KINDS)})")
    if kind == "votecount":
        vc = build.build_votecount(gv, pb, phase, public=public)
        return () if vc is None else (PlannedDraft(kind, vc.head.phase_id, THREAD if public else GM,
                                                   THREAD if public else GM,
                                                   _title(pb, kind, gv, vc.head.phase_id), vc),)
    if kind == "day_start":
        ds = build.build_day_start(gv, pb, phase)
        return () if ds is None else (PlannedDraft(kind, ds.head.phase_id, THREAD, THREAD,
                                                   _title(pb, kind, gv, ds.head.phase_id), ds),)
    if kind == "day_end":
        de = build.build_day_end(gv, pb, phase)
        return () if de is None else (PlannedDraft(kind, de.head.phase_id, THREAD, THREAD,
                                                   _title(pb, kind, gv, de.head.phase_id), de),)
    if kind == "role_pm":
        names = [player] if player else [p.name for p in role_pm_players(gv)]
        out = []
        for n in names:
            pm = build.build_role_pm(gv, pb, n)
            if pm is not None:
                out.append(PlannedDraft(kind, SETUP, n, pm_target(n), _title(pb, kind, gv, SETUP, n), pm))
        return tuple(out)
    if kind == "night_result":
        pms = build.build_night_results(gv, pb, phase)
        return tuple(PlannedDraft(kind, pm.head.phase_id, pm.player, pm_target(pm.player),
                                  _title(pb, kind, gv, pm.head.phase_id, pm.player), pm)
                     for pm in pms if player is None or pm.player == player)
    if kind == "warnings":
        w = build.build_warnings(gv, pb)
        ph = w.head.phase_id or SETUP
        return (PlannedDraft(kind, ph, GM, GM, _title(pb, kind, gv, ph), w),)
    if kind == "prod":
        pr = build.build_prod(gv, pb)
        return () if pr is None else (PlannedDraft(kind, pr.head.phase_id, THREAD, THREAD,
                                                   _title(pb, kind, gv, pr.head.phase_id), pr),)
    go = build.build_game_over(gv, pb)
    return () if go is None else (PlannedDraft(kind, END, THREAD, THREAD, _title(pb, kind, gv, END), go),)


def role_pm_players(gv: GameView):
    """Everyone before and during the first phase; later, only players who replaced someone."""
    st = gv.state
    first = gv.run.phases[0].name if gv.run.phases else None
    early = st.phase is None or st.phase.name == first
    return tuple(p for p in st.players if early or p.replaced)


def plan_drafts(gv: GameView, pb: Phrasebook, kinds: Iterable[str] = KINDS) -> tuple[PlannedDraft, ...]:
    """Every draft that applies now, in kind order."""
    out: list[PlannedDraft] = []
    for kind in kinds:
        out.extend(plan_kind(gv, pb, kind))
    return tuple(out)
