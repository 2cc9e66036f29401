"""Role ids and action verbs of every ruleset: the contract between extraction and the engine.

Extraction turns a PM like "Veggente: indago Marco" into `ActionIntent(action="check",
targets=("Marco",), role_hint="seer")`; the ruleset validates and applies it. Role ids are
English snake_case; `ROLE_ALIASES` maps the words GMs write in their own language (config
`role = "veggente"`, PM prefixes "Veggente:") to them.
"""

from __future__ import annotations

from typing import Literal

from forummod.records import frozen


@frozen
class ActionSpec:
    """One action verb a ruleset understands: who may send it, when, and its targets."""

    verb: str
    roles: tuple[str, ...]  # role ids that may send it (empty: any player, e.g. a plea)
    min_targets: int = 1
    max_targets: int = 1
    when: Literal["night", "day", "any"] = "night"
    args: tuple[str, ...] = ()  # names of extra arguments (e.g. "positions", "card", "building")
    rule: str | None = None
    doc: str = ""


def _specs(*specs: ActionSpec) -> dict[str, ActionSpec]:
    return {s.verb: s for s in specs}


ROLES: dict[str, tuple[str, ...]] = {
    "lupus-eresia": ("seer", "postman", "gravedigger", "twin_guard", "farmer", "inquisitor",
                     "executioner", "templar", "werewolf", "grumpy_wolf", "martyr"),
    "witch-hunt": ("villager", "herbalist", "inquisitor", "gossip", "witch"),
    "one-night": ("tanner", "hunter", "werewolf", "seer", "robber", "troublemaker", "insomniac"),
    "village": ("villager", "werewolf", "seer", "cupid", "witch", "little_girl", "hunter", "thief",
                "guardian", "piper", "white_werewolf", "pyromaniac", "scandalmonger", "elder",
                "idiot", "scapegoat"),
    "mafia-majority": ("town", "mafia", "cop", "doctor"),
}

BUILDINGS: tuple[str, ...] = ("farm", "church", "hovel", "school", "bakery", "barbershop",
                              "bailiff", "tavern", "manor")

ACTIONS: dict[str, dict[str, ActionSpec]] = {
    "lupus-eresia": _specs(
        ActionSpec("check", ("seer", "inquisitor"), rule="LUP-R1", doc="indago / sondo X"),
        ActionSpec("deliver", ("postman",), rule="LUP-R2", doc="consegno a X ('a me' = self)"),
        ActionSpec("protect", ("twin_guard",), rule="LUP-R4", doc="proteggiamo / proteggo X"),
        ActionSpec("kill", ("werewolf", "grumpy_wolf"), rule="LUP-R9", doc="sbraniamo / sbrano / vittima: X"),
        ActionSpec("secret_vote", ("executioner",), when="day", rule="LUP-R7", doc="voto segreto: X"),
        ActionSpec("withdraw_secret_vote", ("executioner",), min_targets=0, max_targets=0, when="day",
                   rule="LUP-R7", doc="ritiro il voto segreto"),
        ActionSpec("designate", ("templar",), when="any", rule="LUP-R8", doc="(se muoio) indico X"),
    ),
    "witch-hunt": _specs(
        ActionSpec("heal", ("herbalist",), rule="WH-H1", doc="лечу X"),
        ActionSpec("pray", ("inquisitor",), rule="WH-I3", doc="молюсь за X / молитва X"),
        ActionSpec("fire", ("inquisitor",), rule="WH-I5", doc="огонь X / сжигаю X"),
        ActionSpec("check", ("gossip",), rule="WH-G1", doc="узнаю X / проверяю X"),
        ActionSpec("kill", ("witch",), rule="WH-K1", doc="жертва X"),
        ActionSpec("recruit", ("witch",), rule="WH-C1", doc="вербую X / обращаю X"),
        ActionSpec("pass", ("witch",), min_targets=0, max_targets=0, rule="WH-C2", doc="пропускаю"),
    ),
    "one-night": _specs(
        ActionSpec("check", ("seer",), rule="ON-N4", doc="Ziener: bekijk X"),
        ActionSpec("check_centre", ("seer",), min_targets=0, max_targets=0, args=("positions",),
                   rule="ON-N4", doc="Ziener: Links en Rechts (positions 'links,rechts')"),
        ActionSpec("rob", ("robber",), rule="ON-N5", doc="Dief: ruil met X"),
        ActionSpec("swap", ("troublemaker",), min_targets=2, max_targets=2, rule="ON-N6",
                   doc="Onruststoker: wissel X en Y"),
        ActionSpec("shoot", ("hunter",), when="day", rule="ON-V4", doc="Jager: schiet X"),
    ),
    "village": _specs(
        ActionSpec("thief_take", ("thief",), min_targets=0, max_targets=0, args=("card",), rule="VIL-N-01",
                   doc="换第一张 / 换第二张 (card '1' or '2')"),
        ActionSpec("thief_keep", ("thief",), min_targets=0, max_targets=0, rule="VIL-N-01", doc="不换"),
        ActionSpec("link", ("cupid",), min_targets=2, max_targets=2, rule="VIL-N-02", doc="连 X 和 Y"),
        ActionSpec("protect", ("guardian",), rule="VIL-N-04", doc="守 X / 守护 X"),
        ActionSpec("check", ("seer",), rule="VIL-N-05", doc="查验 X / 验 X"),
        ActionSpec("kill", ("werewolf", "white_werewolf"), rule="VIL-N-06", doc="刀 X / 杀 X / 击杀 X"),
        ActionSpec("pack_submitter", ("werewolf", "white_werewolf"), rule="VIL-A-43",
                   doc="the pack channel names who submits its kill (X 报刀)"),
        ActionSpec("spy", ("little_girl",), min_targets=0, max_targets=0, args=("mode",),
                   rule="VIL-N-07", doc="risk mode: small | big | sleep (also the Baker in risk mode)"),
        ActionSpec("watch", (), min_targets=0, max_targets=0, rule="VIL-N-08",
                   doc="the Baker's opt-in glimpse (bakery owner; checked by the ruleset)"),
        ActionSpec("ww_kill", ("white_werewolf",), rule="VIL-N-09", doc="白狼：刀 X"),
        ActionSpec("burn", ("pyromaniac",), rule="VIL-N-10", doc="烧 X 的房子 / 纵火 X (target = the owner)"),
        ActionSpec("heal", ("witch",), min_targets=0, max_targets=1, rule="VIL-N-11", doc="救 / 用解药"),
        ActionSpec("poison", ("witch",), rule="VIL-N-11", doc="毒 X / 用毒药 X"),
        ActionSpec("no_potion", ("witch",), min_targets=0, max_targets=0, rule="VIL-N-11", doc="不用药"),
        ActionSpec("charm", ("piper",), min_targets=1, max_targets=2, rule="VIL-N-12", doc="魅惑 X 和 Y"),
        ActionSpec("poster", ("scandalmonger",), rule="VIL-N-14", doc="海报 X / 贴海报给 X"),
        # day powers (buildings are checked by the ruleset, not the role)
        ActionSpec("silence", (), min_targets=1, max_targets=2, when="day", rule="VIL-B-SCHOOL", doc="禁止 X 和 Y 投票"),
        ActionSpec("barber", (), when="day", rule="VIL-B-BARBER", doc="理发师：杀 X"),
        ActionSpec("confess", (), when="day", rule="VIL-B-CHURCH", doc="神父：查看 X"),
        ActionSpec("restore", (), when="day", rule="VIL-B-HOVEL", doc="整骨师：恢复 X"),
        ActionSpec("pardon", (), when="day", rule="VIL-B-MANOR", doc="赦免 X"),
        ActionSpec("plead", (), min_targets=0, max_targets=0, when="day", rule="VIL-B-MANOR", doc="求赦免"),
        ActionSpec("assign", (), when="day", args=("building",), rule="VIL-B-BAILIFF",
                   doc="司法官：让 X 入住 <building>"),
        ActionSpec("accept", (), min_targets=0, max_targets=0, when="day", rule="VIL-B-BAILIFF", doc="接受"),
        ActionSpec("refuse", (), min_targets=0, max_targets=0, when="day", rule="VIL-B-BAILIFF", doc="拒绝"),
        ActionSpec("elect", (), when="day", rule="VIL-D-02", doc="选 X 当警长"),
        ActionSpec("sheriff_choice", (), when="day", rule="VIL-V-5", doc="警长决定：X"),
        ActionSpec("successor", (), when="any", rule="VIL-B-FARM", doc="警徽给 X"),
        ActionSpec("shoot", ("hunter",), when="any", rule="VIL-R-HUNTER", doc="开枪 X (Hunter's shot)"),
        ActionSpec("scapegoat_ruling", ("scapegoat",), min_targets=0, max_targets=99, when="any",
                   rule="VIL-R-SCAPEGOAT", doc="who may vote at the next lynch"),
    ),
    "mafia-majority": _specs(
        ActionSpec("kill", ("mafia",), doc="kill X / nightkill X"),
        ActionSpec("check", ("cop",), doc="check X / investigate X"),
        ActionSpec("protect", ("doctor",), doc="protect X / heal X"),
    ),
}

#: Words GMs use for roles, in the rulesets' languages -> role id (lower case keys).
ROLE_ALIASES: dict[str, dict[str, str]] = {
    "lupus-eresia": {
        "veggente": "seer", "postino": "postman", "becchino": "gravedigger",
        "guardia": "twin_guard", "guardia gemella": "twin_guard", "guardie": "twin_guard",
        "guardie gemelle": "twin_guard", "contadino": "farmer", "contadino semplice": "farmer",
        "inquisitore": "inquisitor", "boia": "executioner", "templare": "templar",
        "lupo": "werewolf", "lupo mannaro": "werewolf", "lupi": "werewolf", "lupi mannari": "werewolf",
        "lupo scorbutico": "grumpy_wolf", "scorbutico": "grumpy_wolf", "martire": "martyr",
    },
    "witch-hunt": {
        "травница": "herbalist", "инквизитор": "inquisitor", "сплетник": "gossip",
        "ведьма": "witch", "ведьмы": "witch", "мирный житель": "villager", "мирный": "villager",
    },
    "one-night": {
        "looier": "tanner", "jager": "hunter", "weerwolf": "werewolf", "ziener": "seer",
        "dief": "robber", "onruststoker": "troublemaker", "slapeloze": "insomniac",
    },
    "village": {
        "村民": "villager", "狼人": "werewolf", "预言家": "seer", "預言家": "seer", "占卜师": "seer",
        "丘比特": "cupid", "女巫": "witch", "小女孩": "little_girl", "猎人": "hunter", "獵人": "hunter",
        "小偷": "thief", "守卫": "guardian", "守衛": "guardian", "吹笛者": "piper", "白狼": "white_werewolf",
        "白狼人": "white_werewolf", "纵火犯": "pyromaniac", "縱火犯": "pyromaniac", "乌鸦": "scandalmonger",
        "烏鴉": "scandalmonger", "长老": "elder", "長老": "elder", "白痴": "idiot", "替罪羊": "scapegoat",
        "fortune teller": "seer", "raven": "scandalmonger", "defender": "guardian", "salvateur": "guardian",
        "village idiot": "idiot",
    },
    "mafia-majority": {"vanilla": "town", "townie": "town", "goon": "mafia", "mafia goon": "mafia",
                       "vanilla townie": "town", "medic": "doctor"},
}


def canonical_role(ruleset: str, word: str) -> str | None:
    """The role id for a role word (id itself, English spelling or a localized alias)."""
    w = " ".join(word.strip().lower().replace("_", " ").split())
    ids = ROLES.get(ruleset, ())
    for rid in ids:
        if w == rid.replace("_", " "):
            return rid
    return ROLE_ALIASES.get(ruleset, {}).get(w)
