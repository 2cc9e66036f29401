"""Finding codes and the ruleset rule each one enforces.

A check is written once for every ruleset; only the rule id it cites differs. The engine's
own rule id on a rejection wins over this table (it knows the exact rule); this table is the
fallback, and the citation for checks the engine does not make (posting places, activity).
"""

from __future__ import annotations

#: code -> what it means (shown by `forummod check --help`; `checks.disabled` takes these).
CODES: dict[str, str] = {
    "activity_missed": "a living player did not post in a closed activity block (ON-D2, D12)",
    "activity_pending": "a living player has not posted yet in the current activity block",
    "prod": "a living player has been silent longer than checks.prod_after",
    "dead_post": "a dead player posted in the game thread after their death (LUP-G2)",
    "graveyard_post": "a living player posted in the graveyard thread (LUP-G2)",
    "gravedigger_post": "the living Becchino posted in the cemetery: he may read, not write (LUP-G3)",
    "late_vote": "a vote or unvote came after the vote closed: not counted (LUP-T1, ON-V1...)",
    "silenced_vote": "a silenced player voted: not counted (VIL-V-1, VIL-B-SCHOOL)",
    "no_vote_right": "a player without a vote today voted: not counted (VIL-V-1)",
    "vote_before_barkeeper": "a vote came before the Barkeeper's: void, tell its author (VIL-V-3)",
    "pm_vote_mismatch": "a thread vote declaration differs from the counted PM vote (ON-V2, D13)",
    "verbatim_pm": "a post copies a GM PM word for word (ON-D4, D4)",
    "edited_vote": "a post whose votes were edited",
    "invalid_action": "a night action the engine refused (invalid target, wrong role...)",
    "late_action": "a night action sent after its deadline: no effect",
    "missing_action": "a compulsory action or PM vote still owed before the deadline (WH-I2, WH-C3, D11)",
    "date_guessed": "a post whose date the forum page did not show: counted in post order",
    "date_guessed_deadline": "a deadline falls between a guessed-date post's neighbours: the GM rules if it was late",
    "alias_proposed": "a name no player matches probably means a player (evidence given): its votes count once you approve",
    "no_role": "a seat has no role while the game deals or reveals roles: its role PM, actions and reveal need one",
    "check_failed": "a check crashed on this game's data (a bug: please report it)",
    "template_error": "a post template (yours, in templates_dir) does not compile or render: its file, line and error",
    "replaced_player_post": "a replaced player voted or acted after the replacement: it counts for nobody",
    "vote_before_start": "a vote posted before the game's start: not counted (check sites.x.timezone)",
    "pm_before_start": "a PM received before the game's start: ignored, never alerted",
    "pm_other_game": "a PM tied to another game of the config (its subject tag, seat or time): not this game's",
    "pm_game_unclear": "a PM that could be this game's or another's: not used until you enter it (gm action)",
}

#: code -> ruleset name -> rule id cited when the engine gives none.
RULE_IDS: dict[str, dict[str, str]] = {
    "activity_missed": {"one-night": "ON-D2"},
    "activity_pending": {"one-night": "ON-D2"},
    "dead_post": {"lupus-eresia": "LUP-G2"},
    "graveyard_post": {"lupus-eresia": "LUP-G2"},
    "gravedigger_post": {"lupus-eresia": "LUP-G3"},
    "late_vote": {"lupus-eresia": "LUP-T1", "one-night": "ON-V1", "witch-hunt": "D20", "village": "VIL-V-2"},
    "silenced_vote": {"village": "VIL-V-1"},
    "no_vote_right": {"village": "VIL-V-1"},
    "vote_before_barkeeper": {"village": "VIL-V-3"},
    "pm_vote_mismatch": {"one-night": "ON-V2"},
    "verbatim_pm": {"one-night": "ON-D4"},
    "missing_action": {"one-night": "ON-V1"},
}


def rule_for(code: str, ruleset: str, engine_rule: str | None = None) -> str | None:
    """The rule id to cite: the engine's when it named one, else this table's."""
    return engine_rule or RULE_IDS.get(code, {}).get(ruleset)
