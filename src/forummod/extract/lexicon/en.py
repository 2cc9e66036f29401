"""English: always accepted, whatever the game's language (every rules file says so)."""

from types import MappingProxyType as _M

from forummod.extract.lexicon.words import Act, Words

WORDS = Words(
    vote=(r"vote", r"i\s+vote", r"i\s+am\s+voting", r"i'm\s+voting"),
    unvote=(r"un-?\s?vot(?:e|ing|eing)", r"withdraw\s+(?:my\s+)?vote", r"remove\s+(?:my\s+)?vote"),
    abstain=(r"abstain",),
    no_lynch=(r"no[\s_-]*lynch", r"nl", r"no[\s_-]*elimination", r"no[\s_-]*execution",
              r"no[\s_-]*exile", r"nobody", r"no[\s_-]?one"),
    connectors=(r"for", r"to", r"on", r"against", r"lynch"),  # "vote: lynch X", "vote to lynch X"
    stop=("count", "counts", "counter", "tally", "tallies", "is", "was", "will", "would", "has", "had",
          "have", "are", "were", "please", "pls", "plz", "this", "that", "who", "whoever", "what",
          "anyone", "anybody", "someone", "somebody", "here", "now", "later", "again", "if", "when",
          "because", "as", "the", "a", "an", "in", "of", "with", "and", "or", "but", "so", "my", "your",
          "his", "her", "their", "our", "it"),
    self_words=(r"myself", r"me", r"self"),
    conj=(r"and", r"&", r",", r"\+"),
    alt=(r"or", r"/", r"\|"),
    roles=_M({
        "seer": "seer", "cop": "cop", "doctor": "doctor", "doc": "doctor", "medic": "doctor",
        "wolf": "werewolf", "wolves": "werewolf", "werewolves": "werewolf", "mafia": "mafia",
        "scum": "mafia", "guard": "guardian", "bodyguard": "guardian", "robber": "robber",
        "troublemaker": "troublemaker", "hunter": "hunter", "thief": "thief", "witch": "witch",
        "white wolf": "white_werewolf", "white werewolf": "white_werewolf", "piper": "piper",
        "cupid": "cupid", "little girl": "little_girl", "raven": "scandalmonger",
        "scandalmonger": "scandalmonger", "pyromaniac": "pyromaniac", "scapegoat": "scapegoat",
        "herbalist": "herbalist", "gossip": "gossip", "inquisitor": "inquisitor",
        "postman": "postman", "executioner": "executioner", "templar": "templar",
        "twin guard": "twin_guard", "twin guards": "twin_guard", "twins": "twin_guard",
        "barber": "barber", "confessor": "confessor", "priest": "confessor", "bonesetter": "bonesetter",
        "bailiff": "bailiff", "schoolmarm": "schoolmarm", "teacher": "schoolmarm", "lord": "lord",
        "sheriff": "sheriff", "baker": "baker",
    }),
    positions=_M({"left": "links", "middle": "midden", "centre": "midden", "center": "midden",
                  "mid": "midden", "right": "rechts"}),
    cards=_M({"first": "1", "1st": "1", "1": "1", "one": "1", "second": "2", "2nd": "2", "2": "2", "two": "2"}),
    modes=_M({"small": "small", "big": "big", "sleep": "sleep", "low": "small", "high": "big"}),
    buildings=_M({"farm": "farm", "church": "church", "hovel": "hovel", "school": "school",
                  "bakery": "bakery", "barbershop": "barbershop", "barber": "barbershop",
                  "bailiff": "bailiff", "tavern": "tavern", "bar": "tavern", "manor": "manor"}),
    building_joiner=(r"into", r"in", r"to"),
)

_CHECK = Act("check", r"check|investigate|inspect|scan")

ACTIONS = {
    "lupus-eresia": (
        _CHECK,  # LUP-R1, LUP-R6
        Act("deliver", r"deliver(?:\s+(?:the\s+)?(?:result|check))?(?:\s+to)?|send\s+(?:the\s+)?result\s+to"),  # LUP-R2
        Act("protect", r"protect|guard"),  # LUP-R4
        Act("withdraw_secret_vote", r"(?:withdraw|cancel|remove)\s+(?:my\s+|the\s+)?secret\s+vote"),  # LUP-R7, D12
        Act("secret_vote", r"secret\s+vote(?:\s+for)?"),  # LUP-R7
        Act("kill", r"kill|eat|maul|victim"),  # LUP-R9
        Act("designate", r"if\s+i\s+die,?\s+(?:i\s+)?(?:designate|name|choose|take)?|designate"),  # LUP-R8
    ),
    "witch-hunt": (
        Act("heal", r"heal"),  # WH-H1
        Act("pray", r"pray(?:\s+for)?|prayer(?:\s+for)?"),  # WH-I3
        Act("fire", r"(?:holy\s+)?fire(?:\s+on)?|burn"),  # WH-I5
        Act("check", r"check|learn|gossip\s+about"),  # WH-G1
        Act("kill", r"kill|victim"),  # WH-K1
        Act("recruit", r"recruit|convert"),  # WH-C1
        Act("pass", r"pass|skip"),  # WH-C2
    ),
    "one-night": (
        Act("check", r"look\s+at|check|view"),  # ON-N4 (centre positions -> check_centre)
        Act("rob", r"rob|swap\s+with|steal(?:\s+from)?"),  # ON-N5
        Act("swap", r"swap|switch|exchange"),  # ON-N6
        Act("shoot", r"shoot"),  # ON-V4
    ),
    "village": (
        Act("thief_take", r"take(?:\s+the)?(?:\s+card)?"),  # VIL-N-01 (card word follows)
        Act("thief_keep", r"keep(?:\s+my\s+card)?|no\s+swap"),  # VIL-N-01
        Act("link", r"link|couple|pair"),  # VIL-N-02
        Act("protect", r"protect|guard"),  # VIL-N-04
        Act("check", r"check|inspect|look\s+at"),  # VIL-N-05
        Act("ww_kill", r"kill", prefix="white_werewolf"),  # VIL-N-09
        Act("barber", r"kill|shave", prefix="barber"),  # VIL-B-BARBER
        Act("confess", r"check|see|look\s+at", prefix="confessor"),  # VIL-B-CHURCH
        Act("pack_submitter", r"submitter(?:\s+is)?|submits(?:\s+the\s+kill)?", before=True),  # VIL-A-43
        Act("kill", r"kill"),  # VIL-N-06
        Act("spy", r"spy"),  # VIL-N-07 (mode word follows)
        Act("watch", r"watch"),  # VIL-N-08
        Act("burn", r"burn|set\s+fire\s+to"),  # VIL-N-10
        Act("no_potion", r"no\s+potions?"),  # VIL-N-11
        Act("heal", r"heal|save|use\s+(?:the\s+)?(?:heal(?:ing)?|life)\s+potion(?:\s+on)?"),  # VIL-N-11
        Act("poison", r"poison|use\s+(?:the\s+)?(?:poison|death)\s+potion(?:\s+on)?"),  # VIL-N-11
        Act("charm", r"charm|enchant"),  # VIL-N-12
        Act("poster", r"poster(?:\s+on)?"),  # VIL-N-14
        Act("silence", r"silence|mute"),  # VIL-B-SCHOOL
        Act("confess", r"confess"),  # VIL-B-CHURCH
        Act("restore", r"restore"),  # VIL-B-HOVEL
        Act("plead", r"plead|(?:ask|beg)\s+(?:for\s+)?(?:a\s+)?(?:pardon|mercy)|mercy"),  # VIL-B-MANOR
        Act("pardon", r"pardon"),  # VIL-B-MANOR
        Act("assign", r"assign|offer"),  # VIL-B-BAILIFF (building word follows)
        Act("accept", r"accept"),  # VIL-B-BAILIFF
        Act("refuse", r"refuse|decline"),  # VIL-B-BAILIFF
        Act("elect", r"elect"),  # VIL-D-02
        Act("sheriff_choice", r"sheriff(?:'s)?\s+(?:decides|decision|choice)"),  # VIL-V-5
        Act("successor", r"successor|(?:pass|give)\s+(?:the\s+)?badge\s+to"),  # VIL-B-FARM
        Act("shoot", r"shoot"),  # VIL-R-HUNTER
        Act("scapegoat_ruling", r"(?:allow|let)(?:\s+to\s+vote)?", prefix="scapegoat"),  # VIL-R-SCAPEGOAT
    ),
    "mafia-majority": (
        Act("kill", r"(?:night\s*)?kill|nk|shoot"),
        Act("check", r"check|investigate|inspect"),
        Act("protect", r"protect|heal|save|guard"),
    ),
}
