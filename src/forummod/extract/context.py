"""What extraction needs to know about the game (built by the service from the config)."""

from __future__ import annotations


from forummod.model import Roster
from forummod.records import frozen

# The vote forms (read in `forummod.extract.votes`), here so that checking a context's settings
# does not import the vote reader and what it needs (lxml, the fuzzy matcher).
FORMS = ("bold", "tag", "hash", "plain", "pm")
DEFAULT_FORMS = ("bold", "tag")
#: Communities' conventions, each as the forms its moderators count; a preset's name may stand
#: in `[votes].forms` for them (issue 27). Bold reads "##Vote: X" in bold too.
PRESETS: dict[str, tuple[str, ...]] = {
    "mafiascum": ("bold", "tag"),  # bold "VOTE: X" and the site's [vote] tag
    "mafiauniverse": ("hash", "bold"),  # "##vote X" / "##unvote", read by the site's own counter
    "teamliquid": ("bold", "hash"),  # a bold "##Vote: X"; hosts count an unbolded "##vote" too
}


def expand_forms(forms: tuple[str, ...]) -> tuple[str, ...]:
    """`forms` with each preset name replaced by its forms, in order, without repeats."""
    out: list[str] = []
    for f in forms:
        for g in PRESETS.get(f, (f,)):
            if g not in out:
                out.append(g)
    return tuple(out)


@frozen
class ExtractContext:
    """One game's extraction settings.

    `forms` — which vote forms count (see `forummod.extract.votes`; default bold and tag).
    `edit_policy` — "latest", "original" or "void" for a post whose votes an edit changed.
    `fuzzy_cutoff` / `fuzzy_margin` — fuzzy name matching (0-100; see `names`).
    `thread_role` — "game" or "graveyard": votes only come from the game thread.
    """

    ruleset: str  # "lupus-eresia", "witch-hunt", "one-night", "village", "mafia-majority"
    language: str  # "en", "it", "ru", "nl", "zh" (English is always accepted too)
    roster: Roster
    forms: tuple[str, ...] = ("bold", "tag")
    edit_policy: str = "latest"
    count_no_lynch: bool = True
    fuzzy_cutoff: int = 80
    fuzzy_margin: int = 10
    thread_role: str = "game"

    def __post_init__(self) -> None:
        bad = [f for f in self.forms if f not in FORMS]
        if bad:
            raise ValueError(f"unknown vote forms {bad}; known: {', '.join(FORMS)}")
        if self.edit_policy not in ("latest", "original", "void"):
            raise ValueError(f"edit_policy must be latest, original or void, not {self.edit_policy!r}")
