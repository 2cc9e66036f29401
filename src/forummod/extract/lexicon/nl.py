"""Dutch (one-night): phrases from rules/one-night.md §6."""

from types import MappingProxyType as _M

from forummod.extract.lexicon.words import Act, Words

WORDS = Words(
    # ON-V1 / §6: "Ik stem op NAAM", "Stem: NAAM", "Stem NAAM", "Lynch NAAM"
    vote=(r"ik\s+stem\s+op", r"ik\s+stem\s+voor", r"ik\s+stem", r"stem\s+op", r"stem", r"lynch",
          r"mijn\s+stem\s+gaat\s+naar"),
    unvote=(r"ontstem", r"ik\s+trek\s+mijn\s+stem\s+in", r"trek\s+(?:mijn\s+)?stem\s+in",
            r"stem\s+intrekken", r"stem\s+terug"),
    abstain=(r"ik\s+onthoud\s+me", r"blanco"),
    no_lynch=(r"niemand", r"geen\s+lynch", r"geen\s+lynching"),
    connectors=(r"op", r"voor", r"tegen"),
    stop=("is", "was", "wordt", "telling", "niet", "de", "het", "een", "dat", "die", "als", "omdat",
          "en", "mijn", "jouw", "zijn"),
    self_words=(r"mezelf", r"mijzelf", r"mij", r"me"),
    conj=(r"en", r","),
    alt=(r"of", r"/"),
    roles=_M({"weerwolven": "werewolf", "wolf": "werewolf"}),
    # ON-N4: the three centre positions
    positions=_M({"links": "links", "midden": "midden", "rechts": "rechts", "linker": "links",
                  "middelste": "midden", "rechter": "rechts"}),
)

ACTIONS = {
    "one-night": (
        Act("check", r"bekijk(?:en)?|kijk\s+(?:naar|bij)|ik\s+kijk\s+(?:naar|bij)"),  # ON-N4
        Act("rob", r"ruil\s+met|ruilen\s+met|steel(?:\s+van)?|beroof"),  # ON-N5
        Act("swap", r"verwissel|wissel|ruil"),  # ON-N6
        Act("shoot", r"schiet(?:\s+op)?|neem\s+mee"),  # ON-V4
    ),
    "mafia-majority": (  # the commands the Dutch role PMs quote
        Act("check", r"onderzoek|bekijk"),
        Act("protect", r"bescherm"),
        Act("kill", r"vermoord|dood"),
    ),
}
