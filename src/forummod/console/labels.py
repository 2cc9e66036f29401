"""The console's words, in the game's language, from the gettext catalogs (src/forummod/locale).

A console heading that is the same sentence as a draft's ("Vote Count — %(phase)s", "Not
voting (%(num)s):", "MAJORITY") is the drafts' own entry, so an Italian game's console says
"Votazione — Giorno 1" exactly as its vote count post does. Every other label is an entry of
its own, msgctxt `console` (`CONTEXT`), msgid its English text; a language without the entry
shows the English. A label whose English differs from the catalog's sentence (HAMMER, the
drafts' MAJORITY) takes the catalog's words in every other language.
"""

from __future__ import annotations

from forummod.records import frozen


#: label -> (English text, catalog msgid or "" when the catalogs have no such sentence)
LABELS: dict[str, tuple[str, str]] = {
    "title": ("forummod console", ""),
    "vote_count": ("Vote Count — %(phase)s", "Vote Count — %(phase)s"),
    "no_votes": ("No votes yet.", "No votes yet."),
    "no_vote": ("No vote in progress.", ""),
    "hammer": ("HAMMER", "MAJORITY"),  # other languages: the vote count draft's word for a wagon at majority
    "l_minus_1": ("L-1", ""),
    "majority_line": ("Majority: %(majority)s of %(living)s alive.", ""),
    "not_counted": ("Not counted:", "Not counted:"),
    "phase": ("Phase and deadlines", ""),
    "vote_close": ("Vote closes", ""),
    "action_deadline": ("Night actions due", ""),
    "phase_end": ("Phase ends", ""),
    "phase_start": ("Phase began", ""),
    "passed": ("passed", ""),
    "in": ("in", ""),
    "paused": ("Paused since %(at)s: no deadline passes until you resume.", ""),
    "game_over": ("Game over: %(result)s. Winners: %(winners)s.", ""),
    "not_started": ("not started", ""),
    "pending": ("Waiting for your decision", ""),
    "no_pending": ("No proposal is waiting.", ""),
    "approve": ("Approve…", ""),
    "approve_as": ("Approve: %(player)s…", ""),  # an alias proposal with several candidates: one button each
    "reject": ("Reject…", ""),
    "corrections": ("Corrections", ""),
    "set_vote": ("Set or fix a vote", ""),
    "voter": ("Voter", ""),
    "target": ("Votes for", ""),
    "withdraw": ("(no vote: withdraw it)", ""),
    "no_lynch": ("No lynch", ""),
    "when": ("When (optional, the game's time zone; empty = now)", ""),
    "settle": ("Settle a name the tool could not read", ""),
    "settle_as": ("Counts as", ""),
    "action": ("Enter a night action", ""),
    "actor": ("Player", ""),
    "verb": ("Action", ""),
    "target1": ("Target", ""),
    "target2": ("Second target (optional)", ""),
    "none": ("(none)", ""),
    "replace": ("Replace a player", ""),
    "seat": ("Seat of", ""),
    "new_name": ("Replacement's forum name", ""),
    "at_post": ("From game-thread post number (optional)", ""),
    "extend": ("Extend the phase", ""),
    "until": ("New end of the phase", ""),
    "close": ("New vote close / action deadline", ""),
    "end_phase": ("End the phase", ""),
    "end_at": ("Ends at (optional; empty = now)", ""),
    "end_post": ("…or right after game-thread post number", ""),
    "note": ("Write a note into the log", ""),
    "note_text": ("Note", ""),
    "submit_check": ("Check…", ""),
    "confirm_title": ("Confirm", ""),
    "confirm": ("Yes, record it", ""),
    "cancel": ("Cancel", ""),
    "notes": ("GM notes — %(phase)s", "GM notes — %(phase)s"),
    "no_notes": ("Nothing to look at.", ""),
    "night": ("Night actions received — %(night)s", ""),
    "night_none": ("Night actions received", ""),
    "no_actions": ("No night action yet.", ""),
    "owed": ("Still owed", ""),
    "results": ("Private results", ""),
    "prod": ("Prod — %(phase)s", "Prod — %(phase)s"),
    "no_prod": ("Nobody to prod.", ""),
    "silent_since": ("silent since %(at)s", ""),
    "posts": ("%(phase)s posts this phase, %(game)s in the game", ""),
    "drafts": ("Drafts", ""),
    "poll": ("Poll now", ""),
    "log": ("Your decisions (newest last)", ""),
    "undo": ("Undo…", ""),
    "undone": ("undone by #%(by)s", ""),
    "games": ("Games", ""),
    "analysed": ("As of %(at)s", ""),
    "not_done": ("Not done: %(why)s", ""),
    "recorded": ("Recorded #%(id)s: %(what)s", ""),
}

#: The msgctxt of the console's own labels in the catalogs.
CONTEXT = "console"


@frozen
class Labels:
    """The words of one console page in `lang`."""

    lang: str

    def __call__(self, key: str, **params: object) -> str:
        english, msgid = LABELS[key]
        text = english
        if self.lang != "en":
            from forummod.render.catalog import catalog

            cat = catalog(self.lang)
            text = (cat.gettext(msgid) if msgid else cat.gettext(english, CONTEXT)) or english
        return text % params if params else text

