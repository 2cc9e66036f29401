"""The post-game archive's view model (issue 32, item 4): the whole game as one record.

Pure: the game view, a phrasebook (the drafts' words: phases, roles, factions, facts, times)
and what the service gathered from the log (each day's history view, each night's actions,
the GM's decisions, the replacements) give an `ArchivePost`; `templates/export/<markup>.j2`
lay it out as one HTML page, a Markdown post or a BBCode post.

The public archive (`public=True`) is built from public data only: roles as the deaths revealed
them, the thread's view of each day, no night action, no private result, no GM log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Sequence

from forummod.engine.history import Replacement
from forummod.engine.types import Fact, Phase
from forummod.i18n import code_text, gm_language
from forummod.records import frozen
from forummod.render.build import build_game_over, head
from forummod.render.escape import Safe
from forummod.render.history_view import DayHistoryView
from forummod.render.models import Head, Link
from forummod.render.view import GameView


@frozen
class ArchiveSeat:
    seat: int
    player: str
    role: str  # "" when the public archive may not show it
    faction: str
    alive: bool
    died: str  # the phase, in words ("" alive)
    cause: str
    winner: bool
    replaced: tuple[str, ...]


@frozen
class ArchiveDeath:
    player: str
    sentence: Safe  # the drafts' own death sentence
    role: str


@frozen
class ArchiveAction:
    actor: str
    verb: str
    targets: tuple[str, ...]
    time: str
    source: str
    status: str  # counts | replaced | rejected
    reason: str  # the refusal in words ("" when it counts)


@frozen
class ArchiveResult:
    to: str
    sentence: Safe


@frozen
class ArchivePhase:
    id: str
    label: str
    kind: str
    start: str
    end: str
    announcements: tuple[Safe, ...]
    deaths: tuple[ArchiveDeath, ...]
    day: DayHistoryView | None
    chart_svg: Safe  # the wagon chart, inline (HTML)
    chart_image: str  # the chart's PNG where the GM hosts it (an http(s) URL), else ""
    actions: tuple[ArchiveAction, ...]
    results: tuple[ArchiveResult, ...]


@frozen
class ArchiveReplacement:
    new: str
    old: str
    phase: str
    where: str  # "#96" or a time
    link: Link | None


@frozen
class ArchiveDecision:
    number: str  # the GM log's event number ("" for a decision of the config)
    time: str
    summary: str
    undone: bool


@frozen
class ArchivePost:
    """kind "export": the record of a whole game."""

    head: Head
    title: str
    lang: str
    public: bool
    generated: str
    over: bool
    result: Safe  # the game_over sentence ("" while the game runs)
    winners: tuple[str, ...]
    seats: tuple[ArchiveSeat, ...]
    deaths_by_phase: tuple[tuple[str, tuple[ArchiveDeath, ...]], ...]
    phases: tuple[ArchivePhase, ...]
    replacements: tuple[ArchiveReplacement, ...]
    decisions: tuple[ArchiveDecision, ...]


def cause_word(cause: str, lang: str) -> str:
    """How a player died, in the GM's words (`gm-code` entries; English reads the code)."""
    with gm_language(lang):
        return code_text(cause) if lang != "en" else cause.replace("_", " ")


def build_archive(gv: GameView, pb: Any, *, public: bool, lang: str, days: Sequence[DayHistoryView],
                  svgs: Mapping[str, str], images: Mapping[str, str],
                  nights: Mapping[str, Sequence[Any]], decisions: Sequence[Mapping[str, Any]],
                  replacements: Sequence[Replacement], generated: datetime) -> ArchivePost:
    """The archive of `gv` as of its analysis. `nights`: each night's received actions
    (gamestate_view.ReceivedAction); `decisions`: the GM log (report.gm_event_list rows)."""
    st = gv.state
    over = build_game_over(gv, pb)
    by_day = {d.phase: d for d in days}
    played = [p for p in gv.run.phases if p.start <= gv.now]
    deaths: dict[str, list[ArchiveDeath]] = {}
    for p in sorted(st.players, key=lambda p: p.seat):
        if p.death is None:
            continue
        shown = p.death.revealed if public and over is None else (p.death.revealed or p.role)
        deaths.setdefault(p.death.phase, []).append(ArchiveDeath(
            p.name, pb.fact(Fact.of("death", player=p.name, cause=p.death.cause)), pb.role(shown) if shown else ""))
    seats = []
    winners = set(st.outcome.winners) if st.outcome else set()
    for p in sorted(st.players, key=lambda p: p.seat):
        revealed = p.death.revealed if p.death is not None else None
        role_id = p.role if not public or over is not None else revealed
        spec = gv.ruleset.ROLES.get(role_id) if role_id else None
        seats.append(ArchiveSeat(
            seat=p.seat, player=p.name, role=pb.role(role_id) if role_id else "",
            faction=pb.faction(spec.faction) if spec else "", alive=p.alive,
            died=pb.phase(p.death.phase) if p.death is not None and p.death.phase else "",
            cause=cause_word(p.death.cause, lang) if p.death is not None else "",
            winner=p.name in winners, replaced=p.replaced))
    phases = []
    for ph in played:
        phases.append(_phase(gv, pb, ph, public, lang, by_day.get(ph.name), svgs.get(ph.name, ""),
                             images.get(ph.name, ""), nights.get(ph.name, ()), deaths.get(ph.name, ())))
    reps = tuple(ArchiveReplacement(r.new, r.old, pb.phase(r.phase) if r.phase else "",
                                    f"#{r.post}" if r.post is not None else pb.when(r.at, gv.tz, "datetime"), None)
                 for r in replacements)
    decs = () if public else tuple(
        ArchiveDecision(str(d["id"]) if d.get("id") is not None else "",
                        pb.when(datetime.fromisoformat(d["at"]), gv.tz, "datetime") if d.get("at") else "",
                        d["summary"], d.get("undone_by") is not None) for d in decisions)
    order = {p.name: i for i, p in enumerate(gv.run.phases)}
    return ArchivePost(
        head=head(gv, pb, st.phase.name if st.phase else ""), title=gv.title, lang=lang, public=public,
        generated=pb.when(generated, gv.tz, "datetime"), over=over is not None,
        result=over.result if over is not None else Safe(""), winners=over.winners if over is not None else (),
        seats=tuple(seats),
        deaths_by_phase=tuple((pb.phase(ph), tuple(ds)) for ph, ds in
                              sorted(deaths.items(), key=lambda kv: order.get(kv[0], 1 << 20))),
        phases=tuple(phases), replacements=reps, decisions=decs)


#: Facts a phase's section does not repeat: the game's end has its own heading.
NOT_SHOWN = frozenset({"game_over"})


def _phase(gv: GameView, pb: Any, ph: Phase, public: bool, lang: str, day: DayHistoryView | None, svg: str,
           image: str, actions: Sequence[Any], deaths: Sequence[ArchiveDeath]) -> ArchivePhase:
    facts = tuple(pb.fact(f) for name, f in gv.run.facts if name == ph.name and f.key not in NOT_SHOWN)
    acts: tuple[ArchiveAction, ...] = ()
    results: tuple[ArchiveResult, ...] = ()
    if not public:
        acts = tuple(ArchiveAction(a.actor, a.verb, tuple(a.targets), pb.when(a.at, gv.tz, "vote_time"), a.source,
                                   a.status, pb.rejection(a.reason) if a.reason else "") for a in actions)
        results = tuple(ArchiveResult(r.to, pb.fact(r.fact)) for name, r in gv.run.private if name == ph.name)
    return ArchivePhase(
        id=ph.name, label=pb.phase(ph.name), kind=ph.kind, start=pb.when(ph.start, gv.tz, "datetime"),
        end=pb.when(ph.end, gv.tz, "datetime") if ph.end is not None and ph.end <= gv.now else "",
        announcements=facts, deaths=tuple(deaths), day=day, chart_svg=Safe(svg), chart_image=image,
        actions=acts, results=results)

