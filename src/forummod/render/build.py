"""Build the view model of each post kind from a `GameView` and a phrasebook (pure).

Every number a post shows is counted and formatted here and every list sorted here, so the
templates only lay things out. Public posts are built from public data only: the public
vote count drops weights, notes and secret votes; dawn and lynch posts show a role only
when the rules reveal it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from forummod.engine.core import boundary_text
from forummod.engine.types import Candidate, Fact, Kill, Phase, Tally, VoteRecord
from forummod.i18n import gm_language
from forummod.model import NO_LYNCH, UnvoteIntent, VoteIntent
from forummod.render.escape import Safe
from forummod.render.models import (
    Death, DayEndPost, DayStartPost, GameOverPost, Head, Idle, NightResultPMPost, PendingProposal, PostCount,
    ProdPost, RejectedVote, RoleLine, RolePMPost, Vote, VoteCountPost, Wagon, Warning, WarningsPost,
)
from forummod.render.phrases import Phrasebook
from forummod.render.view import GameView, link_for

#: Facts of a phase that no phase post shows: `game_over` is announced by the game-over post;
#: village's `nightfall` (VIL-N-00, "Night N: night actions by PM until ...") belongs to a
#: nightfall post, which forummod does not draft (the day-end post already says when the night
#: begins), so it would otherwise open the next dawn post with yesterday's instructions.
NOT_IN_DAWN = frozenset({"game_over", "nightfall"})

#: Requests a phase post stops showing once the answer is applied in the same phase:
#: request key -> ((answer key, request param, answer param, request `kind` or ""), ...).
#: one-night ON-V4: "X holds the Jager card and must shoot now" is moot after "X shoots Y";
#: village §3.5 reaction windows (Hunter VIL-R-HUNTER, Sheriff successor VIL-B-FARM, Scapegoat
#: VIL-R-SCAPEGOAT) likewise once answered. Pending answers keep the request (the GM may refuse).
ANSWERED_BY: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    "hunter_must_shoot": (("hunter_shot", "player", "hunter", ""),),
    "reaction_window": (("hunter_shot", "player", "hunter", "hunter"),
                        ("sheriff_successor", "player", "previous", "successor"),
                        ("sheriff_extinct", "player", "previous", "successor"),
                        ("sheriff_gm_choice", "player", "previous", "successor"),
                        ("scapegoat_ruling", "player", "scapegoat", "scapegoat")),
}

#: Parameters by which a death or lynch fact shows the dead player's card (see `_cards_shown`).
CARD_PARAMS = ("role", "card")


def _local(pb: Phrasebook, gv: GameView) -> Phrasebook:
    """The phrasebook in the game's timezone, so a deadline inside a fact ({until:when}) reads
    as the post's own deadlines do; a phrasebook already given a timezone keeps it."""
    return pb if pb.tz is not None else pb.with_tz(gv.tz)


def head(gv: GameView, pb: Phrasebook, phase_id: str) -> Head:
    return Head(game=gv.title, ruleset=gv.ruleset.name, phase_id=phase_id,
                phase=pb.phase(phase_id) if phase_id else "")


# --------------------------------------------------------------------------- vote count


def current_day(gv: GameView) -> Phase | None:
    """The day whose count matters now: the current day, else the last day with a tally."""
    st = gv.state
    if st.phase is not None and st.phase.kind == "day":
        return st.phase
    for t in reversed(gv.run.tallies):
        ph = gv.phase(t.phase)
        if ph is not None:
            return ph
    return None


def public_tally(t: Tally, seats: dict[str, int] | None = None, *, weights: bool = False) -> Tally:
    """The thread's view of a closed day's tally: secret votes dropped, whoever voted only in
    secret listed as not voting (as the thread sees them). Every vote counts 1 unless the
    ruleset's `weights` are public (VIL-V-4: Sheriff x2, poster +2), which are then kept."""
    cands = []
    for c in t.candidates:
        if weights:
            voters = tuple(v for v in c.voters if not v.secret)
            if voters or c.bonus:
                cands.append(Candidate(c.name, sum(v.weight for v in voters) + c.bonus, voters, c.bonus, c.bonus_note))
            continue
        voters = tuple(VoteRecord(v.voter, v.target, v.at, v.source, v.order) for v in c.voters if not v.secret)
        if voters:
            cands.append(Candidate(c.name, float(len(voters)), voters))
    cands.sort(key=lambda c: (-c.total, (0, max((v.at, v.order) for v in c.voters)) if c.voters else (1,)))
    shown = {v.voter for c in cands for v in c.voters}
    hidden = {v.voter for c in t.candidates for v in c.voters} - shown
    return replace(t, candidates=tuple(cands), not_voting=_by_seat(set(t.not_voting) | hidden, seats or {}),
                   public=True)


def day_tally(gv: GameView, day: Phase, public: bool) -> Tally | None:
    """The day's count, GM or thread view. While the vote is open the ruleset's own public
    view decides what the thread sees; a secret-only voter is shown as not voting."""
    st = gv.state
    live = st.phase is not None and st.phase.name == day.name and gv.ruleset.voting_open(st)
    t = gv.ruleset.tally(st, gv.now, public=False) if live else gv.run.tally_for(day.name)
    if t is None or not public:
        return t
    if not live:
        # the ruleset's own thread view at the close (e.g. the Boia's void public vote, LUP-D11)
        recorded = gv.run.public_tally_for(day.name)
        if recorded is not None and recorded.round == t.round:
            return recorded
        return public_tally(t, _seats(gv), weights=gv.ruleset.public_weights)
    own = gv.ruleset.tally(st, gv.now, public=True)
    shown = {v.voter for c in own.candidates for v in c.voters}
    hidden = {v.voter for c in t.candidates for v in c.voters} - shown
    return replace(own, not_voting=_by_seat(set(own.not_voting) | hidden, _seats(gv)), public=True)


def _seats(gv: GameView) -> dict[str, int]:
    return {p.name: p.seat for p in gv.state.players}


def _by_seat(names: set[str], seats: dict[str, int]) -> tuple[str, ...]:
    return tuple(sorted(names, key=lambda n: (seats.get(n, 1 << 30), n)))


def wagons(t: Tally, pb: Phrasebook, gv: GameView, public: bool) -> tuple[Wagon, ...]:
    top = t.candidates[0].total if t.candidates else 0
    out = []
    for c in t.candidates:
        need = (t.majority - c.total) if t.majority else None
        out.append(Wagon(
            name="" if c.name == NO_LYNCH else c.name,
            no_lynch=c.name == NO_LYNCH,
            count=pb.number(c.total),
            voters=tuple(_vote(v, pb, gv, public) for v in c.voters),
            to_majority=pb.number(need) if need is not None and need > 0 else "",
            at_majority=need is not None and need <= 0,
            bonus="" if (public and not gv.ruleset.public_weights) or not c.bonus else f"+{pb.number(c.bonus)}",
            bonus_note="" if public and not gv.ruleset.public_weights else pb.word("vote_note", c.bonus_note),
            leading=c.total == top and c.total > 0,
        ))
    return tuple(out)


def _vote(v: VoteRecord, pb: Phrasebook, gv: GameView, public: bool) -> Vote:
    hide = public and not gv.ruleset.public_weights  # VIL-V-4 weights are public; LUP-D11 hides the Boia
    return Vote(voter=v.voter, at=pb.when(v.at, gv.tz, "vote_time"), link=link_for(v.source),
                weight="" if hide or v.weight == 1 else pb.number(v.weight),
                note="" if hide else pb.word("vote_note", v.note), secret=False if public else v.secret)


def _in(at: datetime | None, start: datetime, end: datetime | None) -> bool:
    return at is not None and at >= start and (end is None or at < end)


def build_votecount(gv: GameView, pb: Phrasebook, phase: str | None = None,
                    public: bool = True) -> VoteCountPost | None:
    """The count of `phase` (default: the current day); None when there is no day yet."""
    day = gv.phase(phase) if phase else current_day(gv)
    if day is None or day.kind != "day":
        return None
    t = day_tally(gv, day, public)
    if t is None:
        return None
    st = gv.state
    closes = day.votes_close_at()
    window_end = min(x for x in (closes, gv.now) if x is not None) if closes else gv.now
    rejected = tuple(
        RejectedVote(voter=r.actor, target="" if r.target in (None, NO_LYNCH) else r.target,
                     reason=pb.rejection(r.reason), code=r.reason, at=pb.when(r.at, gv.tz, "vote_time"),
                     link=link_for(r.source), no_lynch=r.target == NO_LYNCH)
        for r in gv.run.rejections
        if r.kind in ("vote", "unvote") and (r.public or not public) and _in(r.at, day.start, day.end))
    # "as of" the latest vote the count reflects (not the clock, so an unchanged count renders
    # the same text); the public view ignores PM votes and secret rejections, whose times leak
    times = [v.at for c in t.candidates for v in c.voters]
    times += [i.at for i in gv.intents if isinstance(i, (VoteIntent, UnvoteIntent))
              and (i.channel == "thread" or not public) and _in(i.at, day.start, window_end) and i.at <= gv.now]
    times += [r.at for r in gv.run.rejections if r.kind in ("vote", "unvote") and r.at is not None
              and (r.public or not public) and _in(r.at, day.start, day.end)]
    as_of = max(times) if times else day.start
    live = st.phase is not None and st.phase.name == day.name and gv.ruleset.voting_open(st)
    return VoteCountPost(
        head=head(gv, pb, day.name), public=public, as_of=pb.when(as_of, gv.tz),
        deadline=pb.when(closes, gv.tz, "deadline"), closed=not live, living=pb.number(t.living),
        majority=pb.number(t.majority) if t.majority else "", wagons=wagons(t, pb, gv, public),
        not_voting=tuple(t.not_voting), not_voting_count=pb.number(len(t.not_voting)), rejected=rejected,
        round=pb.number(t.round) if t.round > 1 else "",
        restricted_to=tuple(n for n in t.restricted_to if n != NO_LYNCH),
        no_lynch_allowed=bool(gv.ruleset.has_no_lynch), post_counts=_post_counts(gv, pb, day))


def _post_counts(gv: GameView, pb: Phrasebook, day: Phase) -> tuple[PostCount, ...]:
    """The living players' posts in `day` and in the game, when the game asks for them."""
    t = gv.post_counts
    if t is None:
        return ()
    alive = set(gv.state.living_names())
    return tuple(PostCount(s.player, pb.number(s.in_phase(t.phases, day.name)), pb.number(s.total))
                 for s in t.seats if s.player in alive)


# --------------------------------------------------------------------------- deaths and facts


def _phase_facts(gv: GameView, phase: str) -> tuple[list[Fact], bool]:
    """Public facts of a phase: applied ones, then those of pending proposals (preview);
    requests already answered by an applied fact are left out (`ANSWERED_BY`)."""
    applied = [f for ph, f in gv.run.facts if ph == phase]
    facts = [f for f in applied if not _answered(f, applied)]
    pending = gv.proposals(phase, statuses=("pending",))
    for p in pending:
        facts.extend(p.facts)
    return [f for f in facts if f.key not in NOT_IN_DAWN], bool(pending)


def _answered(request: Fact, applied: list[Fact]) -> bool:
    for answer, by, answer_by, kind in ANSWERED_BY.get(request.key, ()):
        if kind and request.get("kind") != kind:
            continue
        who = request.get(by)
        if any(f.key == answer and f.get(answer_by) == who for f in applied):
            return True
    return False


def _cards_shown(pb: Phrasebook, facts: list[Fact]) -> set[str]:
    """Players whose card a fact's own sentence already shows (a village death line "P5 —
    Werewolf", §3.3): their reveal sentence would repeat it. A fact counts when it names the
    player and a card param (`CARD_PARAMS`) and its phrase puts that param in the text; a phrase
    that leaves the card out (lupus-eresia names only the faction) keeps the reveal line."""
    return {f.get("player") for f in facts
            if f.get("player") and any(f.get(k) for k in CARD_PARAMS) and pb.shows(f, *CARD_PARAMS)}


def _deaths(gv: GameView, pb: Phrasebook, phase: str, pending: tuple[Kill, ...],
            facts: list[Fact]) -> tuple[Death, ...]:
    out = []
    shown = _cards_shown(pb, facts)
    for p in gv.state.players:
        if not p.alive and p.death is not None and p.death.phase == phase:
            out.append(_death(pb, p.name, p.death.revealed, p.name in shown))
    seen = {d.player for d in out}
    for k in pending:
        if k.player in seen or not gv.state.has_player(k.player) or not gv.state.is_alive(k.player):
            continue
        seen.add(k.player)
        out.append(_death(pb, k.player, gv.state.role_of(k.player) if k.reveal else None, k.player in shown))
    return tuple(out)


def _death(pb: Phrasebook, player: str, revealed: str | None, card_shown: bool = False) -> Death:
    """The reveal sentence under the announcements, unless a fact already showed the card."""
    if revealed:
        return Death(player, pb.role(revealed), True,
                     Safe("") if card_shown else pb.text("reveal", player=player, role=revealed))
    return Death(player, "", False, pb.text("reveal_hidden", player=player))


def dawn_day(gv: GameView) -> Phase | None:
    """The day a dawn post opens now: the current day, or the day after a resolved night."""
    st = gv.state
    if st.phase is None:
        return None
    if st.phase.kind == "day":
        return st.phase
    if gv.proposals(st.phase.name):
        nxt = gv.following(st.phase)
        return nxt if nxt is not None and nxt.kind == "day" else None
    return None


def build_day_start(gv: GameView, pb: Phrasebook, phase: str | None = None) -> DayStartPost | None:
    day = gv.phase(phase) if phase else dawn_day(gv)
    if day is None or day.kind != "day":
        return None
    pb = _local(pb, gv)
    night = gv.previous(day)
    night = night if night is not None and night.kind == "night" else None
    facts, pending = _phase_facts(gv, night.name) if night else ([], False)
    kills = gv.pending_kills(night.name) if night else ()
    deaths = _deaths(gv, pb, night.name, kills, facts) if night else ()
    after = gv.state_after(kills, gv.state_at_start(day))
    majority = gv.ruleset.majority(after)
    return DayStartPost(
        head=head(gv, pb, day.name), night=pb.phase(night.name) if night else "",
        announcements=tuple(pb.fact(f) for f in facts), deaths=deaths, nobody_died=not deaths,
        living=after.living_names(), living_count=pb.number(len(after.living())),
        majority=pb.number(majority) if majority else "",
        deadline=pb.when(day.votes_close_at(), gv.tz, "deadline"), pending=pending, first_day=night is None)


def lynch_day(gv: GameView) -> Phase | None:
    """The latest day with a lynch decision (pending, approved or rejected): after a rejected D2
    lynch the day-end is D2's (what the GM entered instead, or nothing yet), never D1's again."""
    best: Phase | None = None
    for p in gv.state.proposals:
        if p.kind != "lynch" or p.status not in ("pending", "approved", "rejected"):
            continue
        ph = gv.phase(p.phase)
        if ph is not None and ph.kind == "day" and (best is None or gv.order(ph.name) > gv.order(best.name)):
            best = ph
    return best


def _next_played(gv: GameView, day: Phase) -> Phase | None:
    """The phase after `day`, unless the game ended with the day: a lynch that ends the game
    opens no night (the fold has opened it, but nothing happens in it but the game's end)."""
    nxt = gv.following(day)
    if nxt is None or gv.state.outcome is None or gv.following(nxt) is not None:
        return nxt
    in_next = [f.key for ph, f in gv.run.facts if ph == nxt.name]
    return None if set(in_next) <= OPENING_ONLY else nxt


#: facts of a phase that ended the game as it opened: its end and its own opening announcement
#: (the village's nightfall), nothing that happened in it
OPENING_ONLY = frozenset({"game_over", "nightfall"})


def build_day_end(gv: GameView, pb: Phrasebook, phase: str | None = None) -> DayEndPost | None:
    day = gv.phase(phase) if phase else lynch_day(gv)
    if day is None or day.kind != "day":
        return None
    pb = _local(pb, gv)
    facts, pending = _phase_facts(gv, day.name)
    if not facts:
        return None
    kills = gv.pending_kills(day.name)
    t = gv.run.tally_for(day.name)
    nxt = _next_played(gv, day)
    return DayEndPost(
        head=head(gv, pb, day.name), announcements=tuple(pb.fact(f) for f in facts),
        deaths=_deaths(gv, pb, day.name, kills, facts), no_lynch=any(f.key == "no_lynch" for f in facts),
        wagons=wagons(day_tally(gv, day, True), pb, gv, True) if t is not None else (),
        next_phase=pb.phase(nxt.name) if nxt else "", next_start=pb.when(nxt.start, gv.tz, "deadline") if nxt else "",
        pending=pending)


# --------------------------------------------------------------------------- private messages


#: Roles whose role PM names their teammates: "faction" (everyone of the faction) or "role"
#: (everyone with the same role). Not a wording, so not in the catalogs; an override file may
#: still set `[roles.<role>] partners = "..."`.
TOLD_PARTNERS = {("mafia-majority", "mafia"): "faction", ("witch-hunt", "witch"): "faction"}


def build_role_pm(gv: GameView, pb: Phrasebook, player: str) -> RolePMPost | None:
    st = gv.state
    if not st.has_player(player):
        return None
    pb = _local(pb, gv)
    p = st.player(player)
    spec = gv.ruleset.ROLES.get(p.role)
    faction = spec.faction if spec else ""
    how = str(pb.role_entry(p.role).get("partners", "") or TOLD_PARTNERS.get((gv.ruleset.name, p.role), ""))
    if how == "faction" and faction:
        partners = tuple(q.name for q in st.players if q.name != player and gv.ruleset.ROLES.get(q.role)
                         and gv.ruleset.ROLES[q.role].faction == faction)
    elif how == "role":
        partners = tuple(q.name for q in st.players if q.name != player and q.role == p.role)
    else:
        partners = ()
    first = gv.run.phases[0] if gv.run.phases else None
    due = (first.actions_due_at() if first.kind == "night" else first.votes_close_at()) if first else None
    now_phase, now_due = "", None
    if p.replaced and st.phase is not None:  # a replacement joins the game as it is now
        cur = st.phase
        now_phase = pb.phase(cur.name)
        now_due = cur.actions_due_at() if cur.kind == "night" else cur.votes_close_at()
    return RolePMPost(
        head=head(gv, pb, "setup"), player=player, role=pb.role(p.role), role_id=p.role,
        description=pb.role_desc(p.role, player=player), faction=pb.faction(faction) if faction else "",
        partners=partners, first_phase=pb.phase(first.name) if first else "",
        first_deadline=pb.when(due, gv.tz, "deadline"),
        notes=tuple(pb.fact(f) for f in gv.ruleset.role_pm_facts(st, player)),
        replaces=tuple(p.replaced), now_phase=now_phase, now_deadline=pb.when(now_due, gv.tz, "deadline"))


def result_phase(gv: GameView) -> str | None:
    """The latest phase with private results (pending night proposals included)."""
    names = {ph for ph, _ in gv.run.private}
    names |= {p.phase for p in gv.state.proposals if p.status == "pending" and p.private}
    if not names:
        return None
    return max(names, key=gv.order)


def build_night_results(gv: GameView, pb: Phrasebook, phase: str | None = None) -> tuple[NightResultPMPost, ...]:
    """One PM per player who learns something in `phase` (default: the latest such phase)."""
    name = phase or result_phase(gv)
    if not name:
        return ()
    pb = _local(pb, gv)
    results = [r for ph, r in gv.run.private if ph == name]
    pending = [r for p in gv.proposals(name, statuses=("pending",)) for r in p.private]
    by_player: dict[str, list[Safe]] = {}
    for r in results + pending:
        by_player.setdefault(r.to, []).append(pb.fact(r.fact))
    pend = {r.to for r in pending}
    return tuple(NightResultPMPost(head=head(gv, pb, name), player=to, night=pb.phase(name),
                                   results=tuple(lines), pending=to in pend)
                 for to, lines in by_player.items())


# --------------------------------------------------------------------------- GM warnings


def _rejection_line(r: Any, pb: Phrasebook) -> str:
    """"vote → Fede: the vote of D1 is closed" (the engine's own reason stays as it words it)."""
    target = ""
    if r.target:
        target = " → " + (pb.pgettext("GM notes", "no lynch") if r.target == NO_LYNCH else r.target)
    secret = "" if r.public else pb.pgettext("GM notes", " (secret)")
    return f"{r.kind}{target}: {r.message or pb.rejection(r.reason)}{secret}"


def build_warnings(gv: GameView, pb: Phrasebook) -> WarningsPost:
    pb = _local(pb, gv)
    st = gv.state
    since = st.phase.start if st.phase is not None else None
    findings = tuple(_finding(f, pb, gv) for f in gv.findings)
    issues = tuple(
        Warning("issue", i.severity, i.code, i.rule or "", i.player or "", i.message,
                pb.when(i.at, gv.tz), link_for(i.source), i.details)
        for i in gv.issues if since is None or i.at is None or i.at >= since)
    rejections = tuple(
        Warning("rejection", "warning", r.reason, r.rule or "", r.actor,
                _rejection_line(r, pb),
                pb.when(r.at, gv.tz), link_for(r.source))
        for r in gv.run.rejections if since is None or r.at is None or r.at >= since)
    pending = tuple(
        PendingProposal(key=p.key, kind=p.kind, phase=p.phase, summary=p.summary,
                        announcements=tuple(pb.fact(f) for f in p.facts), private_count=pb.number(len(p.private)),
                        approve=f"forummod gm --game {gv.game_id} approve {p.key}",
                        reject=f"forummod gm --game {gv.game_id} reject {p.key}")
        for p in st.pending())
    with gm_language(pb.lang):  # the draft's language, as the GM notes of the run
        waiting = tuple(boundary_text(e) for e in gv.run.waiting)
    total = len(findings) + len(issues) + len(rejections) + len(pending)
    return WarningsPost(head=head(gv, pb, st.phase.name if st.phase else ""), findings=findings, issues=issues,
                        rejections=rejections, pending=pending, waiting=waiting, total=pb.number(total),
                        empty=total == 0 and not waiting)


def _finding(f: Any, pb: Phrasebook, gv: GameView) -> Warning:
    """Any object with the checks' Finding attributes; `quote` and `details` are optional."""
    quote = "\n".join(str(x) for x in (getattr(f, "quote", ""), getattr(f, "details", "")) if x)
    return Warning("finding", str(getattr(f, "severity", "warning") or "warning"), str(getattr(f, "code", "")),
                   str(getattr(f, "rule", "") or ""), str(getattr(f, "player", "") or ""),
                   str(getattr(f, "message", "")), pb.when(getattr(f, "at", None), gv.tz),
                   link_for(getattr(f, "source", None)), quote)


# --------------------------------------------------------------------------- prod


PROD_CODES = frozenset({"prod", "idle", "inactive"})


def build_prod(gv: GameView, pb: Phrasebook) -> ProdPost | None:
    """Players idle too long: from the checks' prod findings, else from their last posts."""
    st = gv.state
    if st.phase is None or st.outcome is not None:
        return None
    idle = _idle_from_findings(gv, pb) or (_idle_from_posts(gv, pb) if st.phase.kind == "day" else ())
    if not idle:
        return None
    close = st.phase.votes_close_at() if st.phase.kind == "day" else st.phase.actions_due_at()
    return ProdPost(head=head(gv, pb, st.phase.name), players=idle,
                    threshold_hours=pb.number(int(gv.prod_after.total_seconds() // 3600)),
                    deadline=pb.when(close, gv.tz, "deadline"))


def _idle_from_findings(gv: GameView, pb: Phrasebook) -> tuple[Idle, ...]:
    out, seen = [], set()
    for f in gv.findings:
        name = getattr(f, "player", None)
        if getattr(f, "code", "") not in PROD_CODES or not name or name in seen or not gv.state.is_alive(name):
            continue
        seen.add(name)
        at = getattr(f, "at", None)  # the start of the silence: the last post, if there is one
        src = getattr(f, "source", None)
        hours = int((gv.now - at).total_seconds() // 3600) if at else 0
        out.append(Idle(name, pb.when(at, gv.tz) if src is not None else "", link_for(src), pb.number(hours)))
    return tuple(out)


def _idle_from_posts(gv: GameView, pb: Phrasebook) -> tuple[Idle, ...]:
    st = gv.state
    start = gv.run.phases[0].start if gv.run.phases else gv.now
    last: dict[str, Any] = {}
    for post in gv.posts:
        if post.created_at <= gv.now and getattr(post, "deleted_at", None) is None:
            key = post.author.casefold()
            if key not in last or post.created_at > last[key].created_at:
                last[key] = post
    rows = []
    exempt = {n.casefold() for n in gv.exempt}
    dying = {k.player for p in st.pending() for k in p.effects if isinstance(k, Kill)}
    for p in st.living():
        if p.name.casefold() in exempt or p.name in dying:
            continue
        post = last.get(p.name.casefold())
        since = post.created_at if post is not None else start
        silent = gv.now - since
        if silent >= gv.prod_after:
            rows.append((since, p.seat, p.name, post))
    rows.sort(key=lambda r: (r[0], r[1]))  # longest silence first, then seat order
    return tuple(Idle(name, pb.when(post.created_at, gv.tz) if post else "",
                      _post_link(post), pb.number(int((gv.now - since).total_seconds() // 3600)))
                 for since, _, name, post in rows)


def _post_link(post: Any):
    if post is None:
        return None
    from forummod.model import Source

    return link_for(Source("post", id=post.post_id, number=post.number, url=post.url))


# --------------------------------------------------------------------------- game over


def build_game_over(gv: GameView, pb: Phrasebook) -> GameOverPost | None:
    st = gv.state
    out = st.outcome
    if out is None:
        return None
    fact = next((f for _, f in reversed(gv.run.facts) if f.key == "game_over"), None)
    fact = fact or Fact.of("game_over", result=out.result, winners=out.winners)
    winners = set(out.winners)
    shown = gv.ruleset.game_over_shown(st) if hasattr(gv.ruleset, "game_over_shown") else None
    roles = tuple(
        RoleLine(player=p.name, role=pb.role(p.role), role_id=p.role,
                 faction=_faction(gv, pb, p.role), alive=p.alive,
                 died=pb.phase(p.death.phase) if p.death is not None and p.death.phase else "",
                 winner=p.name in winners, replaced=p.replaced)
        for p in sorted(st.players, key=lambda p: p.seat) if shown is None or p.name in shown)
    shown = getattr(gv.ruleset, "game_over_facts", frozenset())
    reveals = tuple(pb.fact(f) for _, f in gv.run.facts if f.key in shown)
    return GameOverPost(head=head(gv, pb, st.phase.name if st.phase else ""), result=pb.fact(fact),
                        result_key=out.result, winners=tuple(out.winners), roles=roles, reveals=reveals)


def _faction(gv: GameView, pb: Phrasebook, role: str) -> str:
    spec = gv.ruleset.ROLES.get(role)
    return pb.faction(spec.faction) if spec else ""

