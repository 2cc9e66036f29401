"""The vote history of a day as the GM or the thread reads it (issue 32): rows of words.

Pure: a `DayHistory` (engine/history.py), the phrasebook (phase names, times, rejection
reasons: the drafts' own words) and the game's language give a `DayHistoryView` the console,
`forummod history` and the post-game archive lay out. A public view is built from the public
history only, and shows no weight where the ruleset keeps weights hidden.
"""

from __future__ import annotations

from datetime import tzinfo
from typing import Any, Collection

from forummod.engine.history import DayHistory, VoteChange
from forummod.i18n import gm_language, pgettext
from forummod.model import NO_LYNCH
from forummod.records import frozen
from forummod.render.models import Link
from forummod.render.view import link_for
from forummod.render.wagon_chart import WagonChart, drafts_word, wagon_chart


@frozen
class HistoryRow:
    """One vote change in words: "14:20 #9 Gina: — → Bianca"."""

    time: str
    link: Link | None
    voter: str
    before: str  # "—" for no vote
    after: str
    weight: str  # "" for a plain vote (or a hidden weight)
    notes: tuple[str, ...]
    counted: bool
    hammer: bool
    codes: tuple[str, ...]  # the notes' codes and the refusal's reason, for tests and CSS


@frozen
class FinalWagon:
    name: str
    total: str
    voters: tuple[str, ...]


@frozen
class DayHistoryView:
    phase: str  # "D1"
    label: str  # "Giorno 1"
    public: bool
    open: bool
    rows: tuple[HistoryRow, ...]
    chart: WagonChart
    final: tuple[FinalWagon, ...]
    majority: str
    hammer: str  # "HAMMER: Fede (#15, 20:50)" or ""


def day_history_view(day: DayHistory, pb: Any, *, tz: tzinfo, lang: str, hidden_weights: bool,
                     edited: Collection[int] = ()) -> DayHistoryView:
    """`edited`: numbers of game-thread posts that were edited (their rows say so)."""
    show_weight = not (day.public and hidden_weights)
    with gm_language(lang):
        no_lynch = drafts_word(lang, "No Lynch")

        def name(n: str | None) -> str:
            return "—" if n is None else (no_lynch if n == NO_LYNCH else n)

        rows = tuple(_row(c, pb, tz, name, show_weight, edited) for c in day.changes)
        final = ()
        if day.final is not None:
            final = tuple(FinalWagon(name(c.name), pb.number(c.total),
                                     tuple(v.voter + (f" ×{pb.number(v.weight)}" if show_weight and v.weight != 1 else "")
                                           for v in c.voters))
                          for c in day.final.candidates if c.voters or c.total)
        hammer = ""
        if day.hammer is not None:
            link = link_for(day.hammer.source)
            hammer = pgettext("history", "%(mark)s: %(player)s (%(where)s)", mark=_hammer_word(lang),
                              player=name(day.hammer.candidate),
                              where=", ".join(x for x in ((link.label if link else ""),
                                                          pb.when(day.hammer.at, tz, "vote_time")) if x))
        return DayHistoryView(
            phase=day.phase, label=pb.phase(day.phase), public=day.public, open=day.open, rows=rows,
            chart=wagon_chart(day, tz=tz, lang=lang,
                              title=pgettext("history", "Wagons — %(phase)s", phase=pb.phase(day.phase))),
            final=final, majority=pb.number(day.majority) if day.majority else "", hammer=hammer)


def _hammer_word(lang: str) -> str:
    return "HAMMER" if lang == "en" else drafts_word(lang, "MAJORITY")


def _row(c: VoteChange, pb: Any, tz: tzinfo, name, show_weight: bool, edited: Collection[int]) -> HistoryRow:
    codes = list(c.notes)
    notes = [NOTE_WORDS[n]() for n in c.notes if n in NOTE_WORDS]
    if not c.counted:
        codes.append(c.reason)
        notes.insert(0, pb.rejection(c.reason) + (f" [{c.rule}]" if c.rule else ""))
    if c.source is not None and c.source.kind == "post" and c.source.number in edited:
        codes.append("edited")
        notes.append(pgettext("history", "edited post"))
    weight = pb.number(c.weight) if show_weight and c.counted and c.weight != 1 and c.after is not None else ""
    return HistoryRow(time=pb.when(c.at, tz, "vote_time"), link=link_for(c.source), voter=c.voter,
                      before=name(c.before), after=name(c.after), weight=weight, notes=tuple(notes),
                      counted=c.counted, hammer="hammer" in c.notes, codes=tuple(codes))


#: The words of a row's note codes (engine/history.py), in the current language.
NOTE_WORDS = {
    "secret": lambda: pgettext("history", "secret vote"),
    "gm": lambda: pgettext("history", "entered by the GM"),
    "pm": lambda: pgettext("history", "by PM"),
    "replacement": lambda: pgettext("history", "seat replaced"),
    "weight": lambda: pgettext("history", "votes of the seat changed"),
    "hammer": lambda: pgettext("history", "reached the majority"),
    "ballot": lambda: pgettext("history", "new ballot"),
}
