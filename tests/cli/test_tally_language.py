"""`forummod tally` speaks the game's language (issue 20, item 1): its fixed words, the phase
and a refused vote's reason, while `tally --json` keeps the codes; English stays as it was."""

from __future__ import annotations

from forummod.commands.tally import format_tally

REP = {
    "game": "g", "phase": "D2", "vote_close_at": "2026-12-05T21:00:00+00:00", "timezone": "Europe/Rome",
    "tally": {"majority": 3, "living": 5, "not_voting": ["Cid", "Dan"],
              "candidates": [{"name": "Ann", "no_lynch": False, "total": 2, "bonus": 0, "bonus_note": "",
                              "voters": [{"voter": "Bob", "weight": 1}, {"voter": "Eve", "weight": 1}]},
                             {"name": "", "no_lynch": True, "total": 1, "bonus": 0, "bonus_note": "",
                              "voters": [{"voter": "Ann", "weight": 1}]}]},
    "seats": [{"holder": "Zed", "replaced": ["Cid"]}],
    "rejected_votes": [{"voter": "Fay", "target": "Ann", "reason": "late", "rule": "LUP-V2"}],
    "issues": [],
}


def test_the_count_of_an_italian_game_reads_in_italian():
    assert format_tally(REP, lang="it").splitlines() == [
        "g — Giorno 2 (la votazione chiude 2026-12-05 22:00 CET)",
        "  maggioranza: 3 su 5",
        "  Ann (2): Bob, Eve",
        "  Nessun linciaggio (1): Ann",
        "  non hanno votato (2): Cid, Dan",
        "  posto: Zed (sostituisce Cid)",
        "  ✗ Fay → Ann: in ritardo [LUP-V2]",
    ]


def test_the_count_of_an_english_game_keeps_its_words():
    assert format_tally(REP, lang="en").splitlines() == [
        "g — D2 (vote closes Sat 05 Dec 22:00 CET)",
        "  majority: 3 of 5",
        "  Ann (2): Bob, Eve",
        "  No lynch (1): Ann",
        "  not voting (2): Cid, Dan",
        "  seat: Zed (replacing Cid)",
        "  ✗ Fay → Ann: late [LUP-V2]",
    ]
