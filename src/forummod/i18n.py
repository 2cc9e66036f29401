"""The GM's language for the sentences the engine, the checks and the alerts word in Python.

GM notes (`LogEntry.text`), rejection messages, proposal summaries, findings and alert texts
come out already in the game's language (`games.<id>.language`), so every reader (`status`,
`check`, `tally`, the console page, a PM alert) shows the string as it is. The machine codes
next to them (`reason`, `code`, `kind`) stay English: tests, JSON and the store key on them.

    with gm_language(game.language):          # set by run_game / run_checks from their argument
        text = pgettext("gm-note", "%(voter)s votes %(target)s", voter=v, target=t)
        text = npgettext("gm-finding", "%(n)s post", "%(n)s posts", n, player=p)
        label = phase_label("D2")             # "D2" in English, "Giorno 2" in Italian

Why a context variable and not a parameter on each of the ~200 call sites: the language is
passed explicitly at the pure layers' entry points (`run_game(lang=...)`, the check context's
`game.language`, `alert_text(lang=...)`), which set it for the duration of that one call and
reset it afterwards, so a run stays a pure function of its arguments; threading a translator
through every ruleset hook and every helper that builds a rejection tuple would have changed
most hook signatures for no gain. Outside such a call the language is English.

The messages are entries of the gettext catalogs the drafts use (`render/catalog.py`, one
loader): msgid the English text with named placeholders (`%(player)s`), msgctxt `gm-note`,
`gm-rejection`, `gm-proposal`, `gm-finding`, `gm-alert`, `gm-issue` (extraction issues, worded
in `extract_post` / `extract_message` from `ExtractContext.language`), `gm-status` (the words of
`forummod status`) or `gm-code` (a machine code shown to the GM). English never touches a catalog (msgstr = msgid), so English output is the msgid
filled in, byte for byte; a language without an entry, or with a broken one, falls back to it.
Extraction: `python -m forummod.render.catalog_tools extract` (babel.cfg lists these sources).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

SOURCE_LANG = "en"
_LANG: ContextVar[str] = ContextVar("forummod_gm_language", default=SOURCE_LANG)


@contextmanager
def gm_language(lang: str | None) -> Iterator[str]:
    """Word the GM's sentences in `lang` inside the block (None or "": keep the current one)."""
    if not lang:
        yield _LANG.get()
        return
    token = _LANG.set(lang)
    try:
        yield lang
    finally:
        _LANG.reset(token)


def current_language() -> str:
    return _LANG.get()


def _catalog(lang: str):
    from forummod.render.catalog import catalog  # loaded only for a language other than English

    return catalog(lang)


def _fill(text: str, fallback: str, params: dict[str, Any]) -> str:
    if not params:
        return text
    try:
        return text % params
    except (KeyError, ValueError, TypeError):  # a broken translation: the English text
        return fallback % params


def pgettext(context: str, msgid: str, /, **params: Any) -> str:
    """`msgid` in the current language, its `%(name)s` placeholders filled from `params`."""
    lang = _LANG.get()
    if lang == SOURCE_LANG:
        return msgid % params if params else msgid
    return _fill(_catalog(lang).gettext(msgid, context), msgid, params)


def npgettext(context: str, singular: str, plural: str, n: float, /, **params: Any) -> str:
    """The plural form for `n` in the current language; `n` is a placeholder too."""
    params.setdefault("n", n)
    lang = _LANG.get()
    english = singular if n == 1 else plural
    if lang == SOURCE_LANG:
        return english % params
    return _fill(_catalog(lang).ngettext(singular, plural, n, context), english, params)


def phase_label(name: Any) -> str:
    """A phase as the GM reads it: "D2" in English (as today), else the language's phase label
    from the catalog's phrasebook entries (`common:format.day`, "Giorno 2"); a name that is no
    phase ("setup") is kept."""
    name = "" if name is None else str(name)
    lang = _LANG.get()
    if lang == SOURCE_LANG or not name:
        return name
    from forummod.engine.types import PhaseId

    try:
        pid = PhaseId.parse(name)
    except ValueError:
        return name
    entry = _catalog(lang).gettext  # the phrasebook's own entries (not a message of this module)
    pattern = entry("Day {n}", "common:format.day") if pid.kind == "day" else entry("Night {n}", "common:format.night")
    try:
        return pattern.format(n=pid.number)
    except (KeyError, IndexError, ValueError):
        return name


def join_names(items: Any) -> str:
    """A list of names as the notes join them (", ", the same in every language's notes)."""
    return ", ".join(str(x) for x in items)


def note_time(at: Any) -> str:
    """An instant as a GM note shows it: "2026-12-02 01:12 UTC" (the engine knows no game zone;
    an ISO stamp with microseconds is for machines, not for the GM's log)."""
    if at is None:
        return "?"
    from datetime import timezone

    return at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def readable_instant(value: Any) -> str:
    """A recorded ISO instant (a GM event's payload) as `note_time` shows it; anything else as given."""
    from datetime import datetime

    try:
        at = datetime.fromisoformat(str(value))
    except (TypeError, ValueError):
        return str(value)
    return note_time(at) if at.tzinfo is not None else str(value)


def pgettext_noop(context: str, msgid: str, /) -> str:
    """Marks a message for extraction (the catalog tools know this name); translated later."""
    return msgid


#: The machine codes a GM note shows (a refused vote's kind and reason): each a `gm-code` entry, so a
#: note reads "voto di Ann su Bob: in ritardo" while `Rejection.reason` stays "late".
GM_CODES = frozenset((
    # NOTE: the kind of a refused input in the GM notes: "vote by Ann on Bob: late"
    pgettext_noop("gm-code", "vote"),
    pgettext_noop("gm-code", "unvote"),
    pgettext_noop("gm-code", "shoot"),
    pgettext_noop("gm-code", "state"),
    # NOTE: why the engine refused a vote or action (a code, shown after the colon in the GM notes)
    pgettext_noop("gm-code", "already_charmed"),
    pgettext_noop("gm-code", "already_shot"),
    pgettext_noop("gm-code", "bad_card"),
    pgettext_noop("gm-code", "bad_mode"),
    pgettext_noop("gm-code", "bad_positions"),
    pgettext_noop("gm-code", "barkeeper_immune"),
    pgettext_noop("gm-code", "before_barkeeper"),
    pgettext_noop("gm-code", "before_deal"),
    pgettext_noop("gm-code", "converted"),
    pgettext_noop("gm-code", "dead_actor"),
    pgettext_noop("gm-code", "dead_target"),
    pgettext_noop("gm-code", "dead_voter"),
    pgettext_noop("gm-code", "destroyed"),
    pgettext_noop("gm-code", "game_over"),
    pgettext_noop("gm-code", "invalid_target"),
    pgettext_noop("gm-code", "late"),
    pgettext_noop("gm-code", "lover_target"),
    pgettext_noop("gm-code", "martyr_block"),
    pgettext_noop("gm-code", "must_swap"),
    pgettext_noop("gm-code", "no_building"),
    pgettext_noop("gm-code", "no_lynch_not_allowed"),
    pgettext_noop("gm-code", "no_power"),
    pgettext_noop("gm-code", "no_secret_vote"),
    pgettext_noop("gm-code", "no_shot_now"),
    pgettext_noop("gm-code", "no_vote_now"),
    pgettext_noop("gm-code", "no_vote_right"),
    pgettext_noop("gm-code", "non_player"),
    pgettext_noop("gm-code", "non_player_target"),
    pgettext_noop("gm-code", "not_by_pm"),
    pgettext_noop("gm-code", "not_candidate"),
    pgettext_noop("gm-code", "not_entitled"),
    pgettext_noop("gm-code", "not_holder"),
    pgettext_noop("gm-code", "not_in_mode"),
    pgettext_noop("gm-code", "not_pack_member"),
    pgettext_noop("gm-code", "not_protectable"),
    pgettext_noop("gm-code", "not_votable"),
    pgettext_noop("gm-code", "not_voting_that_player"),
    pgettext_noop("gm-code", "not_yet"),
    pgettext_noop("gm-code", "own_building"),
    pgettext_noop("gm-code", "own_faction"),
    pgettext_noop("gm-code", "pack_target"),
    pgettext_noop("gm-code", "potion_used"),
    pgettext_noop("gm-code", "power_lost"),
    pgettext_noop("gm-code", "power_used"),
    pgettext_noop("gm-code", "random_target"),
    pgettext_noop("gm-code", "recruitment_blocked"),
    pgettext_noop("gm-code", "repeat"),
    pgettext_noop("gm-code", "repeat_target"),
    pgettext_noop("gm-code", "same_target"),
    pgettext_noop("gm-code", "self_target"),
    pgettext_noop("gm-code", "self_vote"),
    pgettext_noop("gm-code", "silenced"),
    pgettext_noop("gm-code", "target_count"),
    pgettext_noop("gm-code", "twin_dead"),
    pgettext_noop("gm-code", "twin_target"),
    pgettext_noop("gm-code", "unknown_action"),
    pgettext_noop("gm-code", "unknown_state_key"),
    pgettext_noop("gm-code", "unsupported"),
    pgettext_noop("gm-code", "vagabond_immune"),
    pgettext_noop("gm-code", "vote_locked"),
    pgettext_noop("gm-code", "vote_not_open"),
    pgettext_noop("gm-code", "witch_target"),
    pgettext_noop("gm-code", "wolf_target"),
    pgettext_noop("gm-code", "wrong_night"),
    pgettext_noop("gm-code", "wrong_role"),
    # NOTE: how a player died (a code, in brackets after the name in the GM notes: "Ann (lynch)")
    pgettext_noop("gm-code", "lynch"),
    pgettext_noop("gm-code", "night_kill"),
    pgettext_noop("gm-code", "wolves"),
    pgettext_noop("gm-code", "hunter"),
    pgettext_noop("gm-code", "barber"),
    pgettext_noop("gm-code", "barber_execution"),
    pgettext_noop("gm-code", "grief"),
    pgettext_noop("gm-code", "poison"),
    pgettext_noop("gm-code", "holy_fire"),
    pgettext_noop("gm-code", "witches"),
    pgettext_noop("gm-code", "gm"),
))


def code_text(code: str) -> str:
    """A machine code as the GM reads it: its `gm-code` entry, or the code itself (English; an
    action name or a code without an entry)."""
    lang = _LANG.get()
    if lang == SOURCE_LANG or code not in GM_CODES:
        return code
    return _catalog(lang).gettext(code, "gm-code")
