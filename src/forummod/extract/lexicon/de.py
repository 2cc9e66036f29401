"""German: the vote words of German forum games ("Abstimmung: X", "Stimme für X", "ich stimme für X")
and the commands the German role PMs of mafia-majority quote. No German rules file exists; the
rulesets' own rules (e.g. MM majority votes) apply unchanged."""

from types import MappingProxyType as _M

from forummod.extract.lexicon.words import Act, Words

WORDS = Words(
    vote=(r"ich\s+stimme\s+für", r"ich\s+stimme\s+gegen", r"ich\s+stimme", r"meine\s+stimme\s+geht\s+an",
          r"stimme\s+für", r"stimme\s+gegen", r"stimme", r"abstimmung", r"lynchen"),
    unvote=(r"ich\s+ziehe\s+meine\s+stimme\s+zurück", r"ziehe\s+(?:meine\s+)?stimme\s+zurück",
            r"stimme\s+zurück(?:ziehen)?", r"stimme\s+zurückgezogen", r"entstimmen"),
    abstain=(r"ich\s+enthalte\s+mich", r"enthaltung"),
    no_lynch=(r"keine\s+hinrichtung", r"kein\s+lynch(?:en)?", r"niemanden", r"niemand"),
    connectors=(r"für", r"gegen", r"auf"),
    stop=("ist", "war", "wird", "wäre", "hat", "hatte", "haben", "sind", "waren", "stand", "zählung",
          "zählt", "bitte", "das", "der", "die", "den", "dem", "ein", "eine", "einen", "dass", "wenn", "weil",
          "als", "und", "oder", "aber", "mein", "meine", "dein", "deine", "sein", "seine", "ihr", "ihre",
          "hier", "jetzt", "später", "nochmal", "noch", "nicht", "schon"),
    self_words=(r"mich\s+selbst", r"mich", r"mir"),
    conj=(r"und", r","),
    alt=(r"oder", r"/"),
    roles=_M({"polizist": "cop", "ermittler": "cop", "arzt": "doctor", "ärztin": "doctor", "mafioso": "mafia",
              "werwolf": "werewolf", "werwölfe": "werewolf", "seherin": "seer", "seher": "seer",
              "hexe": "witch", "jäger": "hunter"}),
)

ACTIONS = {
    "mafia-majority": (  # the commands the German role PMs quote
        Act("check", r"untersuche|überprüfe|prüfe"),
        Act("protect", r"beschütze|schütze|heile"),
        Act("kill", r"töte|ermorde"),
    ),
}
