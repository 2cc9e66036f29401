"""What the console shows of one game, gathered from the service (I/O edge: reads the store).

Every number comes from the function the CLI prints: the count and its rejections from
`report.tally_report` (`tally --json`), phase, proposals and the GM log from
`report.status_report` (`status --json`), the night desk from `gamestate_view.night_view`, the
prod list from `checks.prod.prod_list` and the GM's findings from `checks.run_checks` (read,
never recorded: opening the page changes nothing). The marks (hammer, L-1) are read off the
report's `to_majority`; nothing here counts a vote.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any, Mapping

from forummod.model import NO_LYNCH
from forummod.records import frozen


@frozen
class VoteRow:
    name: str
    no_lynch: bool
    total: float
    voters: tuple[str, ...]
    to_majority: float | None
    mark: str  # "hammer" (at or past the majority), "l_minus_1" (one vote short) or ""


@frozen
class Deadline:
    label: str  # a Labels key: vote_close, action_deadline, phase_end, phase_start
    at: datetime
    local: str  # in the game's language and time zone
    seconds_left: int  # from the analysis time (negative: passed)


@frozen
class Note:
    kind: str  # finding code, issue code or engine log kind
    severity: str
    text: str
    rule: str | None = None
    link: str = ""


@frozen
class ResultLine:
    """A private result of the night desk as its PM says it (the game's phrasebook, plain text)."""

    to: str
    phase: str  # "Notte 1" in the game's language
    text: str  # "Eve is guilty." — the sentence of the result PM, never `cop_result target=Eve`
    pending: bool


@frozen
class ProdRow:
    """A player on the prod list (checks.prod.PlayerPosts), the silence's start in the game's words."""

    player: str
    silent_since: str
    posts_phase: int
    posts_game: int


@frozen
class Unread:
    """A name the tool could not settle: the GM picks who was meant."""

    player: str
    candidates: tuple[str, ...]
    at: datetime
    message: str
    via: str  # "post" (a vote: settled by set-vote) or "message" (a PM: an action)


@frozen
class GameConsole:
    game: str
    title: str
    lang: str
    ruleset: str
    phase: str  # "D2", "" before the start
    phase_label: str  # "Day 2" in the game's language
    phase_kind: str
    count_label: str  # the phase of the vote count shown (the day just ended, at night)
    night_label: str  # the night of the night desk ("" when there is none yet)
    analysed_at: datetime
    analysed_local: str
    majority: int | None
    living: int
    votes: tuple[VoteRow, ...]
    not_voting: tuple[str, ...]
    rejected: tuple[Note, ...]
    deadlines: tuple[Deadline, ...]
    paused_at: str
    game_over: bool
    result: str
    winners: tuple[str, ...]
    pending: tuple[Mapping[str, Any], ...]
    notes: tuple[Note, ...]
    unread: tuple[Unread, ...]
    night: Any  # gamestate_view.NightView
    prod: tuple[ProdRow, ...]
    alive: tuple[str, ...]
    players: tuple[str, ...]
    verbs: tuple[str, ...]
    gm_log: tuple[Mapping[str, Any], ...]
    tz: Any
    results: tuple[ResultLine, ...] = ()  # the night desk's private results, worded


def mark_of(to_majority: float | None) -> str:
    """The hammer / L-1 mark of a wagon, from the count's own distance to the majority."""
    if to_majority is None:
        return ""
    return "hammer" if to_majority <= 0 else "l_minus_1" if to_majority <= 1 else ""


@frozen
class KeptView:
    """A game's console view with what tells how long it stays right (issue 30): the input mark
    of its analysis and the first instant its analysis, findings, drafts or alerts can change
    with the clock (`horizon.changes_at`). `phrasebook` words a later instant the same way."""

    game: GameConsole
    mark: str
    until: datetime | None
    phrasebook: Any
    own_now: bool = False  # an archive's view, at its own instant (the inputs', not the clock's)

    def right_at(self, now: datetime) -> bool:
        """Whether the view is the one a recount would make at `now` (once `at(now)`)."""
        return self.own_now or (self.game.analysed_at <= now and (self.until is None or now < self.until))

    def at(self, now: datetime) -> GameConsole:
        """The view as made at `now` (before `until`): the analysis time and the time left."""
        g = self.game
        if self.own_now or now == g.analysed_at:
            return g
        return replace(g, analysed_at=now, analysed_local=self.phrasebook.when(now, g.tz),
                       deadlines=tuple(replace(d, seconds_left=int((d.at - now).total_seconds()))
                                       for d in g.deadlines))


def game_console(ws: Any, gid: str) -> GameConsole:
    """Analyse `gid` now and gather everything the console page shows of it."""
    return console_view(ws, gid).game


def console_view(ws: Any, gid: str, now: datetime | None = None) -> KeptView:
    """`game_console` (at `now`, default the clock, or an archive's own instant) with its input
    mark and the instant it may next change (`KeptView`)."""
    from forummod.check_store import run_checks_saving
    from forummod.checks.prod import prod_list
    from forummod.drafting import draft_settings
    from forummod.engine.registry import make_ruleset
    from forummod.gamestate_view import night_view
    from forummod.render import phrasebook_for
    from forummod.report import status_report, tally_report
    from forummod.service import analyse_game

    a = analyse_game(ws, gid, now=now)
    game = a.game
    tally, status = tally_report(a), status_report(a)
    s = draft_settings(ws, gid, a.ruleset)
    pb = phrasebook_for(s.lang, s.ruleset, s.markup, s.user_dir).with_tz(game.tz)
    st = a.run.state
    ph = st.phase
    t = tally["tally"]
    votes = tuple(VoteRow(c["name"], c["no_lynch"], c["total"], tuple(v["voter"] for v in c["voters"]),
                          c["to_majority"], mark_of(c["to_majority"]))
                  for c in (t["candidates"] if t else ()))
    site = ws.cfg.sites[game.site]
    ctx, findings = run_checks_saving(ws.store, a, gm_accounts=(site.username,) if site.username else ())
    nv = night_view(a)
    view = GameConsole(
        game=gid, title=game.title or gid, lang=s.lang, ruleset=game.ruleset,
        phase=ph.name if ph else "", phase_label=pb.phase(ph.name) if ph else "", phase_kind=ph.kind if ph else "",
        count_label=pb.phase(t["phase"]) if t and t.get("phase") else (pb.phase(ph.name) if ph else ""),
        night_label=pb.phase(nv.night) if nv.night else "",
        analysed_at=a.now, analysed_local=pb.when(a.now, game.tz),
        majority=t["majority"] if t else None, living=t["living"] if t else len([p for p in st.players if p.alive]),
        votes=votes, not_voting=tuple(t["not_voting"]) if t else (),
        rejected=tuple(Note("rejected_vote", "warning", f"{r['voter']} → {r['target']}: {r['message'] or r['reason']}",
                            r["rule"]) for r in tally["rejected_votes"]),
        deadlines=_deadlines(a, pb),
        paused_at=status["paused_at"] or "", game_over=status["game_over"], result=status["result"] or "",
        winners=tuple(status["winners"]), pending=_pending(status, s.lang),
        notes=tuple(Note(f.code, f.severity, f.message, f.rule, f.link or "") for f in findings)
        + tuple(Note(i.code, i.severity, i.message, i.rule) for i in a.extraction_issues
                if ph is None or i.at is None or i.at >= ph.start)
        + _log_notes(a),
        unread=_unread(a),
        night=nv,
        prod=tuple(ProdRow(c.player, pb.when(c.silent_since, game.tz) if c.silent_since else "", c.posts_phase,
                           c.posts_game) for c in prod_list(ctx)),
        alive=tuple(p.name for p in st.players if p.alive), players=tuple(p.name for p in st.players),
        verbs=tuple(sorted(make_ruleset(game.ruleset, game.options).actions)),
        gm_log=tuple(status["gm_events"]), tz=game.tz, results=_result_lines(nv, pb))
    from forummod.horizon import changes_at

    own = now is None and ws.cfg.sites[game.site].engine == "archive"
    return KeptView(view, a.mark, changes_at(ws, a, ctx, findings), pb, own_now=own)


def _pending(status: Mapping[str, Any], lang: str) -> tuple[Mapping[str, Any], ...]:
    """The proposals waiting for the GM; an alias proposal worded in the game's language with its
    candidates (one approve button each when several tie)."""
    from forummod.commands.status import name_words
    from forummod.i18n import gm_language

    names = {n["key"]: n for n in status.get("names") or ()}
    out = []
    for p in status["pending"]:
        n = names.get(p["key"])
        if n is None:
            out.append(dict(p, candidates=()))
            continue
        with gm_language(lang):
            out.append(dict(p, summary=name_words(n), candidates=tuple(n["candidates"])))
    return tuple(out)


def _result_lines(nv: Any, pb: Any) -> tuple[ResultLine, ...]:
    """Each private result as the sentence its PM says (`Phrasebook.fact`, plain markup: the page
    escapes it), so the GM reads "Eve è colpevole." and not the fact's key and parameters."""
    from forummod.engine.types import Fact

    plain = pb.with_markup("plain")
    return tuple(ResultLine(r.to, pb.phase(r.phase) if r.phase else "", str(plain.fact(Fact(r.key, r.params))).strip(),
                            r.pending) for r in nv.results)


def _deadlines(a: Any, pb: Any) -> tuple[Deadline, ...]:
    ph = a.run.state.phase
    if ph is None:
        return ()
    out = []
    due = ph.votes_close_at() if ph.kind == "day" else ph.actions_due_at()
    for label, at in (("phase_start", ph.start), ("vote_close" if ph.kind == "day" else "action_deadline", due),
                      ("phase_end", ph.end)):
        if at is None or (label != "phase_start" and label != "phase_end" and at == ph.end):
            continue  # a vote close at the phase end is said once, as the end
        out.append(Deadline(label, at, pb.when(at, a.game.tz), int((at - a.now).total_seconds())))
    return tuple(out)


def _log_notes(a: Any) -> tuple[Note, ...]:
    """The engine's account of the current phase (what it rejected, proposed, was told by the GM):
    `LogEntry.text` as the engine wrote it, in the game's language where the catalogs have it."""
    ph = a.run.state.phase
    rows = [e for e in a.run.log if e.kind != "accepted" and (ph is None or e.at is None or e.at >= ph.start)]
    return tuple(Note(e.kind, "info", e.text, e.rule, (e.source.url or "") if e.source else "") for e in rows[-40:])


def _unread(a: Any) -> tuple[Unread, ...]:
    ph = a.run.state.phase
    out = []
    for i in a.extraction_issues:
        if i.code not in ("ambiguous_name", "unknown_name", "homoglyph_name") or not i.player or not i.candidates:
            continue
        if i.at is None or (ph is not None and i.at < ph.start):
            continue
        out.append(Unread(i.player, tuple(c for c in i.candidates if c != NO_LYNCH), i.at, i.message,
                          i.source.kind if i.source is not None else "post"))
    return tuple(out)
