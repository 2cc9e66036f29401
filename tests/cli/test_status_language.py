"""`forummod status` speaks the game's language (issue 20, item 1): its fixed words, the night
desk's labels (a GmNote's "heal potion left"), a death's cause and the phases, while the report
(`status --json`) keeps the codes; English text stays as it was."""

from __future__ import annotations

from forummod.commands.status import format_status

REP = {
    "game": "g", "ruleset": "village", "phase": "N2", "stalled_at": "2026-12-02T01:00:00+00:00",
    "alive": ["Ann", "Bob"], "dead": [{"player": "Cid", "role": "farmer", "cause": "lynch", "phase": "D1"}],
    "pending": [{"key": "night:N1", "summary": "s"}], "game_over": True, "result": "village", "winners": [],
    "phase_start_at": "2026-12-01T20:00:00+00:00", "phase_end_at": None,
    "night_desk": {
        "night": "N2",
        "actions": [{"actor": "Ann", "verb": "heal", "targets": ["Bob"], "source": "PM m3", "at": "t",
                     "status": "rejected", "reason": "late", "rule": None, "message": ""}],
        "private_results": [{"phase": "N1", "to": "Ann", "key": "seer_result", "params": {"target": "Bob"},
                             "pending": True}],
        "protections": [{"kind": "protection", "player": "Bob", "what": "heal", "detail": "by Ann", "rule": None}],
        "notes": [{"kind": "power", "player": "Ann", "what": "heal potion", "detail": "left", "rule": "VIL-N-11"},
                  {"kind": "night_role", "player": "", "what": "recruiter", "detail": "nobody: N2", "rule": "D18"}],
        "owed": [{"players": ["Ann", "Bob"], "actions": ["kill"], "rule": None, "message": ""}],
    },
}


def test_the_status_of_an_italian_game_reads_in_italian():
    text = format_status(REP, lang="it")
    assert text.splitlines()[0] == ("g (village) — Notte 2  (ferma dal 2026-12-02 01:00 UTC: nessun post da "
                                    "due durate di fase)")
    for line in ("  vivi (2): Ann, Bob", "  in attesa: night:N1 — s  (approva: forummod gm approve night:N1)",
                 "  PARTITA FINITA: village — vincitori: nessuno", "  azioni notturne (Notte 2):",
                 "    Ann: heal Bob (MP m3, t) respinta — in ritardo",
                 "  risultato per Ann (Notte 1, in attesa): seer_result (target=Bob)",
                 "  protezione: Bob — cura da Ann", "  potere: Ann: pozione di guarigione disponibile",
                 "  ruolo notturno: reclutatore nessuno: Notte 2", "  dovuto: Ann o Bob — kill"):
        assert line in text.splitlines(), line
    assert text.splitlines()[2].startswith("  morto: Cid — farmer (")  # the cause through its gm-code entry


def test_the_status_of_an_english_game_keeps_its_words():
    assert format_status(REP, lang="en").splitlines() == [
        "g (village) — N2  (stalled since 2026-12-02 01:00 UTC: no post for two phase lengths)",
        "  alive (2): Ann, Bob",
        "  dead: Cid — farmer (lynch, D1)",
        "  pending: night:N1 — s  (approve: forummod gm approve night:N1)",
        "  GAME OVER: village — winners: nobody",
        "  N2: from 2026-12-01 20:00 UTC to ?",
        "  night actions (N2):",
        "    Ann: heal Bob (PM m3, t) rejected — late",
        "  result for Ann (N1, pending): seer_result (target=Bob)",
        "  protection: Bob — heal by Ann",
        "  power: Ann: heal potion left",
        "  night role: recruiter nobody: N2",
        "  owed: Ann or Bob — kill",
    ]
