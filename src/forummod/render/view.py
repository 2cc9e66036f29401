"""`GameView`: everything the view-model builders read, gathered once from an analysis.

Builders take this record (and a phrasebook) and nothing else: no store, no clock, no
config file, so a draft is a pure function of the game at `now`. Tests build one directly
from an engine run.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone, tzinfo
from typing import Any

from forummod.engine.ruleset import Ruleset
from forummod.engine.types import GameRun, GameState, Kill, Phase, Proposal
from forummod.model import Issue, Source
from forummod.records import frozen
from forummod.render.escape import safe_url
from forummod.render.models import Link


@frozen
class GameView:
    """One analysed game as the drafts see it."""

    game_id: str
    title: str
    ruleset: Ruleset
    run: GameRun
    now: datetime
    tz: tzinfo = timezone.utc
    issues: tuple[Issue, ...] = ()  # extraction issues
    intents: tuple[Any, ...] = ()  # extracted intents (vote count "as of" time)
    findings: tuple[Any, ...] = ()  # checks.Finding-like: rule, code, player, source, at, message, severity, key
    posts: tuple[Any, ...] = ()  # game-thread posts (model.Post), for the prod list
    prod_after: timedelta = timedelta(hours=48)
    exempt: tuple[str, ...] = ()  # players never prodded
    post_counts: Any = None  # checks.phase_posts.PostsPerPhase when the vote count shows them

    @property
    def state(self) -> GameState:
        return self.run.state

    # ---- phases
    def phase(self, name: str) -> Phase | None:
        for p in self.run.phases:
            if p.name == name:
                return p
        st = self.run.state
        return st.phase if st.phase is not None and st.phase.name == name else None

    def _index(self, name: str) -> int:
        for i, p in enumerate(self.run.phases):
            if p.name == name:
                return i
        return -1

    def previous(self, phase: Phase) -> Phase | None:
        i = self._index(phase.name)
        return self.run.phases[i - 1] if i > 0 else None

    def following(self, phase: Phase) -> Phase | None:
        i = self._index(phase.name)
        return self.run.phases[i + 1] if 0 <= i < len(self.run.phases) - 1 else None

    def order(self, name: str) -> int:
        """Position of a phase in the game (unknown names sort first)."""
        return self._index(name)

    # ---- proposals and facts
    def proposals(self, phase: str, *kinds: str, statuses: tuple[str, ...] = ("pending", "approved")
                  ) -> tuple[Proposal, ...]:
        return tuple(p for p in self.run.state.proposals
                     if p.phase == phase and (not kinds or p.kind in kinds) and p.status in statuses)

    def pending_kills(self, phase: str, *kinds: str) -> tuple[Kill, ...]:
        return tuple(e for p in self.proposals(phase, *kinds, statuses=("pending",))
                     for e in p.effects if isinstance(e, Kill))

    def state_at_start(self, day: Phase) -> GameState:
        """The state with everyone who died in `day` or later alive again: a dawn post drafted
        after the day lists the living of that dawn, not of today."""
        st = self.run.state
        start = self.order(day.name)
        for p in st.players:
            if not p.alive and p.death is not None and start >= 0 and self.order(p.death.phase) >= start:
                st = st.update_player(p.name, alive=True)
        return st

    def state_after(self, kills: tuple[Kill, ...], base: GameState | None = None) -> GameState:
        """The state as it would be once pending kills apply (for living counts, majority)."""
        st = self.run.state if base is None else base
        for k in kills:
            if st.has_player(k.player):
                st = st.update_player(k.player, alive=False)
        return st


def game_view(analysis: Any, findings: tuple[Any, ...] = (), post_counts: Any = None) -> GameView:
    """Gather a `service.GameAnalysis` (and the checks' findings; `post_counts`, the seats'
    posts per phase when the vote count lists them) into a `GameView`."""
    game = analysis.game
    return GameView(
        game_id=analysis.game_id,
        title=game.title or analysis.game_id,
        ruleset=analysis.ruleset,
        run=analysis.run,
        now=analysis.now,
        tz=game.tz,
        issues=tuple(analysis.extraction_issues),
        intents=tuple(analysis.intents),
        findings=tuple(findings),
        posts=tuple(analysis.inputs.posts.get("game", ())),
        prod_after=timedelta(seconds=game.checks.prod_after.seconds),
        exempt=tuple(game.checks.exempt),
        post_counts=post_counts,
    )


def link_for(source: Source | None) -> Link | None:
    """A post link labelled "#57" (or "PM"); the URL only when it is a safe http(s) one."""
    if source is None:
        return None
    if source.kind == "post":
        label = f"#{source.number}" if source.number is not None else (f"#{source.id}" if source.id else "#")
    elif source.kind == "message":
        label = "PM"
    else:
        return None
    return Link(label, safe_url(source.url))

