"""Night (and day) actions from PMs to the GM (issue 4 item 5): every verb of every ruleset."""

from __future__ import annotations

import pytest

from forummod.engine.catalog import ACTIONS
from forummod.extract import extract_message, extract_post
from forummod.model import NO_LYNCH, ActionIntent, Source, VoteIntent

from .helpers import T0, codes, ctx, message, post, roster, votes

SEATS = {
    "lupus-eresia": ("Anna", "Marco", "Marco Rossi", "Luca"),
    "witch-hunt": ("Анна", "Маша", "Игорь", "Пётр"),
    "one-night": ("Anna", "Daan", "Fenna", "Berber", "Kraken"),
    "village": ("安娜", "小明", "小红", "小明明"),
    "mafia-majority": ("Anna", "Marco", "Luca"),
}
LANG = {"lupus-eresia": "it", "witch-hunt": "ru", "one-night": "nl", "village": "zh", "mafia-majority": "en"}

# (ruleset, PM text, verb, targets, role hint, args)
CASES = [
    # LUP §8
    ("lupus-eresia", "Veggente: indago Marco", "check", ("Marco",), "seer", ()),  # LUP-R1
    ("lupus-eresia", "sondo Luca", "check", ("Luca",), None, ()),
    ("lupus-eresia", "Inquisitore: indago Marco Rossi", "check", ("Marco Rossi",), "inquisitor", ()),  # LUP-R6
    ("lupus-eresia", "Veggente: Marco", "check", ("Marco",), "seer", ()),
    ("lupus-eresia", "Ciao GM! Stanotte indago Luca, grazie", "check", ("Luca",), None, ()),
    ("lupus-eresia", "consegno la sondata a Luca", "deliver", ("Luca",), "postman", ()),  # LUP-R2
    ("lupus-eresia", "Postino: consegno a me stesso", "deliver", ("Anna",), "postman", ()),
    ("lupus-eresia", "consegno a me", "deliver", ("Anna",), "postman", ()),
    ("lupus-eresia", "proteggiamo Marco", "protect", ("Marco",), "twin_guard", ()),  # LUP-R4
    ("lupus-eresia", "Guardia: proteggo Luca", "protect", ("Luca",), "twin_guard", ()),
    ("lupus-eresia", "sbraniamo Luca", "kill", ("Luca",), None, ()),  # LUP-R9
    ("lupus-eresia", "Lupo: sbrano Marco", "kill", ("Marco",), "werewolf", ()),
    ("lupus-eresia", "vittima: Marco", "kill", ("Marco",), None, ()),
    ("lupus-eresia", "cambio vittima: Luca", "kill", ("Luca",), None, ()),  # D2
    ("lupus-eresia", "voto segreto: Marco", "secret_vote", ("Marco",), "executioner", ()),  # LUP-R7
    ("lupus-eresia", "Voto segreto del Boia: Luca", "secret_vote", ("Luca",), "executioner", ()),
    ("lupus-eresia", "ritiro il voto segreto", "withdraw_secret_vote", (), "executioner", ()),  # D12
    ("lupus-eresia", "se muoio indico Marco", "designate", ("Marco",), "templar", ()),  # LUP-R8
    ("lupus-eresia", "Templare: indico Luca", "designate", ("Luca",), "templar", ()),
    ("lupus-eresia", "Seer: check Luca", "check", ("Luca",), "seer", ()),  # English always works
    # WH §7 (names declined, D8)
    ("witch-hunt", "лечу Машу", "heal", ("Маша",), "herbalist", ()),  # WH-H1
    ("witch-hunt", "Травница: лечу Игоря", "heal", ("Игорь",), "herbalist", ()),
    ("witch-hunt", "молюсь за Петра", "pray", ("Пётр",), "inquisitor", ()),  # WH-I3
    ("witch-hunt", "молитва Маша", "pray", ("Маша",), "inquisitor", ()),
    ("witch-hunt", "огонь Игорь", "fire", ("Игорь",), "inquisitor", ()),  # WH-I5
    ("witch-hunt", "сжигаю Машу", "fire", ("Маша",), "inquisitor", ()),
    ("witch-hunt", "узнаю Игоря", "check", ("Игорь",), "gossip", ()),  # WH-G1
    ("witch-hunt", "проверяю Машу", "check", ("Маша",), "gossip", ()),
    ("witch-hunt", "жертва Маша", "kill", ("Маша",), "witch", ()),  # WH-K1
    ("witch-hunt", "вербую Игоря", "recruit", ("Игорь",), "witch", ()),  # WH-C1
    ("witch-hunt", "обращаю Петра", "recruit", ("Пётр",), "witch", ()),
    ("witch-hunt", "пропускаю", "pass", (), "witch", ()),  # WH-C2
    ("witch-hunt", "heal Masha", None, None, None, None),  # transliteration is not a name: an issue
    ("witch-hunt", "pray for Игорь", "pray", ("Игорь",), "inquisitor", ()),
    # ON §6
    ("one-night", "Ziener: bekijk Daan", "check", ("Daan",), "seer", ()),  # ON-N4
    ("one-night", "Ziener: Links en Rechts", "check_centre", (), "seer", (("positions", "links,rechts"),)),
    ("one-night", "bekijk midden en links", "check_centre", (), "seer", (("positions", "links,midden"),)),
    ("one-night", "Seer: look at left and right", "check_centre", (), "seer", (("positions", "links,rechts"),)),
    ("one-night", "Dief: ruil met Kraken", "rob", ("Kraken",), "robber", ()),  # ON-N5
    ("one-night", "Dief: wissel met Fenna", "rob", ("Fenna",), "robber", ()),
    ("one-night", "Onruststoker: wissel Daan en Fenna", "swap", ("Daan", "Fenna"), "troublemaker", ()),  # ON-N6
    ("one-night", "swap Berber and Kraken", "swap", ("Berber", "Kraken"), "troublemaker", ()),
    ("one-night", "Jager: schiet Berber", "shoot", ("Berber",), "hunter", ()),  # ON-V4
    # VIL §6.8, simplified and traditional
    ("village", "换第一张", "thief_take", (), "thief", (("card", "1"),)),  # VIL-N-01
    ("village", "換第二張", "thief_take", (), "thief", (("card", "2"),)),
    ("village", "小偷：不换", "thief_keep", (), "thief", ()),
    ("village", "连 小明 和 小红", "link", ("小明", "小红"), "cupid", ()),  # VIL-N-02
    ("village", "連 小明與小红", "link", ("小明", "小红"), "cupid", ()),
    ("village", "连 我 和 小红", "link", ("安娜", "小红"), "cupid", ()),
    ("village", "守 小明", "protect", ("小明",), "guardian", ()),  # VIL-N-04
    ("village", "守衛：守護小红", "protect", ("小红",), "guardian", ()),
    ("village", "查验 小明明", "check", ("小明明",), "seer", ()),  # VIL-N-05
    ("village", "驗 小红", "check", ("小红",), "seer", ()),
    ("village", "刀 小明", "kill", ("小明",), None, ()),  # VIL-N-06
    ("village", "狼人：小红", "kill", ("小红",), "werewolf", ()),
    ("village", "殺小红", "kill", ("小红",), None, ()),
    ("village", "击杀 小明明", "kill", ("小明明",), None, ()),
    ("village", "小红 报刀", "pack_submitter", ("小红",), None, ()),  # VIL-A-43
    ("village", "報刀：小明", "pack_submitter", ("小明",), None, ()),
    ("village", "偷看 大", "spy", (), "little_girl", (("mode", "big"),)),  # VIL-N-07
    ("village", "小女孩：睡觉", "spy", (), "little_girl", (("mode", "sleep"),)),
    ("village", "watch", "watch", (), None, ()),  # VIL-N-08
    ("village", "白狼：刀 小明", "ww_kill", ("小明",), "white_werewolf", ()),  # VIL-N-09
    ("village", "白狼：小红", "ww_kill", ("小红",), "white_werewolf", ()),
    ("village", "烧 小明 的房子", "burn", ("小明",), "pyromaniac", ()),  # VIL-N-10
    ("village", "縱火 小红", "burn", ("小红",), "pyromaniac", ()),
    ("village", "救", "heal", (), "witch", ()),  # VIL-N-11
    ("village", "用解藥", "heal", (), "witch", ()),
    ("village", "毒 小红", "poison", ("小红",), "witch", ()),
    ("village", "用毒药 小明", "poison", ("小明",), "witch", ()),
    ("village", "不用药", "no_potion", (), "witch", ()),
    ("village", "魅惑 小明 和 小红", "charm", ("小明", "小红"), "piper", ()),  # VIL-N-12
    ("village", "海报 小明", "poster", ("小明",), "scandalmonger", ()),  # VIL-N-14
    ("village", "海报贴在 小红 门口", "poster", ("小红",), "scandalmonger", ()),
    ("village", "貼海報給小明", "poster", ("小明",), "scandalmonger", ()),
    ("village", "禁止 小明 和 小红 今天投票", "silence", ("小明", "小红"), None, ()),  # VIL-B-SCHOOL
    ("village", "禁言 小明 小红", "silence", ("小明", "小红"), None, ()),
    ("village", "理发师：杀 小明", "barber", ("小明",), None, ()),  # VIL-B-BARBER
    ("village", "神父：查看 小红", "confess", ("小红",), None, ()),  # VIL-B-CHURCH
    ("village", "整骨师：恢复 小明", "restore", ("小明",), None, ()),  # VIL-B-HOVEL
    ("village", "赦免 小明", "pardon", ("小明",), None, ()),  # VIL-B-MANOR
    ("village", "求赦免", "plead", (), None, ()),
    ("village", "请赦免我", "plead", (), None, ()),
    ("village", "司法官：让 小明 入住 学校", "assign", ("小明",), None, (("building", "school"),)),  # VIL-B-BAILIFF
    ("village", "接受", "accept", (), None, ()),
    ("village", "拒絕", "refuse", (), None, ()),
    ("village", "选 小明 当警长", "elect", ("小明",), None, ()),  # VIL-D-02
    ("village", "警长决定：小红", "sheriff_choice", ("小红",), None, ()),  # VIL-V-5
    ("village", "警徽给 小明", "successor", ("小明",), None, ()),  # VIL-B-FARM
    ("village", "开枪 小红", "shoot", ("小红",), "hunter", ()),  # VIL-R-HUNTER
    ("village", "替罪羊：小明 和 小红", "scapegoat_ruling", ("小明", "小红"), "scapegoat", ()),  # VIL-R-SCAPEGOAT
    ("village", "Witch: poison 小明", "poison", ("小明",), "witch", ()),
    # mafia-majority (English only)
    ("mafia-majority", "kill Marco", "kill", ("Marco",), "mafia", ()),
    ("mafia-majority", "Cop: investigate Luca", "check", ("Luca",), "cop", ()),
    ("mafia-majority", "protect me", "protect", ("Anna",), "doctor", ()),
]


def read(ruleset: str, text: str, **kw):
    seats = roster(*SEATS[ruleset])
    return extract_message(message(text, sender=SEATS[ruleset][0]), ctx(seats, LANG[ruleset], ruleset, **kw))


@pytest.mark.parametrize("ruleset, text, verb, targets, hint, args", CASES, ids=[c[1] for c in CASES])
def test_action_phrase(ruleset, text, verb, targets, hint, args) -> None:
    ex = read(ruleset, text)
    if verb is None:
        assert ex.intents == () and ex.issues, "an unreadable action is an issue"
        return
    assert ex.issues == ()
    (a,) = ex.intents
    assert (a.action, a.targets, a.role_hint, a.args) == (verb, targets, hint, args)
    assert a.actor == SEATS[ruleset][0] and a.channel == "pm" and a.raw == text


def test_every_catalog_verb_has_a_phrase() -> None:
    covered = {(c[0], c[2]) for c in CASES}
    missing = [(rs, v) for rs, verbs in ACTIONS.items() for v in verbs if (rs, v) not in covered]
    assert missing == []


def test_action_intent_fields() -> None:
    (a,) = read("lupus-eresia", "Veggente: indago Marco").intents
    assert a == ActionIntent("Anna", "check", T0, Source("message", "m1", url="https://forum.example/pm/m1"),
                             ("Marco",), "seer", (), "Veggente: indago Marco", "pm")


def test_several_actions_in_one_pm_keep_their_order() -> None:
    ex = read("village", "救 小明\n毒 小红")
    assert [(a.action, a.targets) for a in ex.intents] == [("heal", ("小明",)), ("poison", ("小红",))]


def test_pm_that_cannot_be_understood_is_quoted_in_an_issue() -> None:
    ex = read("lupus-eresia", "Grazie per il ruolo, ci penso stanotte!")
    assert ex.intents == () and codes(ex) == ["unparsed_action"]
    assert "Grazie per il ruolo" in ex.issues[0].details


@pytest.mark.parametrize("text, code", [
    ("indago Giovanni", "unknown_name"),
    ("indago Mar", "ambiguous_name"),  # Marco or Marco Rossi: never guessed
    ("indago Mаrco", "homoglyph_name"),
])
def test_unresolved_action_targets_are_issues(text: str, code: str) -> None:
    ex = read("lupus-eresia", text)
    assert ex.intents == () and codes(ex) == [code]


def test_two_target_action_with_one_name_is_reported() -> None:
    ex = read("one-night", "Onruststoker: wissel Daan")
    assert ex.intents == () and codes(ex) == ["missing_target"]


def test_subject_is_read_when_the_body_says_nothing() -> None:
    seats = roster(*SEATS["one-night"])
    msg = message("", sender="Anna", subject="Re: Ziener: bekijk Fenna")
    (a,) = extract_message(msg, ctx(seats, "nl", "one-night")).intents
    assert (a.action, a.targets) == ("check", ("Fenna",))


def test_quoted_gm_text_in_a_pm_is_ignored() -> None:
    ex = read("lupus-eresia", "<blockquote>Veggente: indaga qualcuno, ad es. indago Luca</blockquote>indago Marco")
    assert [a.targets for a in ex.intents] == [("Marco",)]


def test_non_players_and_the_gm() -> None:
    seats = roster(*SEATS["mafia-majority"])
    ex = extract_message(message("kill Marco", sender="Stranger"), ctx(seats))
    assert ex.intents == () and codes(ex) == ["non_player_message"]
    assert extract_message(message("kill Marco", sender="GM"), ctx(seats)).issues == ()


# --------------------------------------------------------------------------- PM votes (ON-V1)


@pytest.mark.parametrize("text, expected", [
    ("Ik stem op Fenna", ["vote:Fenna"]),
    ("Stem: Daan", ["vote:Daan"]),
    ("Stem Berber", ["vote:Berber"]),
    ("Lynch Kraken", ["vote:Kraken"]),
    ("Hoi GM, ik stem op Daan. Groetjes", ["vote:Daan"]),
    ("vote: no lynch", [f"vote:{NO_LYNCH}"]),
])
def test_one_night_votes_by_pm(text: str, expected: list[str]) -> None:
    ex = read("one-night", text, forms=("bold", "tag", "pm"))
    assert votes(ex) == expected
    assert all(i.channel == "pm" for i in ex.intents)


def test_pm_votes_are_reported_when_the_game_counts_thread_votes() -> None:
    ex = read("lupus-eresia", "Voto: Marco")
    assert ex.intents == () and codes(ex) == ["pm_vote_not_counted"]


def test_secret_vote_pm_is_an_action_not_a_vote() -> None:
    ex = read("lupus-eresia", "voto segreto: Marco", forms=("bold", "pm"))
    assert [type(i) for i in ex.intents] == [ActionIntent]


# --------------------------------------------------------------------------- day powers in the thread


@pytest.mark.parametrize("ruleset, html, verb, targets", [
    ("village", "理发师：杀 小明", "barber", ("小明",)),
    ("village", "<b>赦免 小红</b>", "pardon", ("小红",)),
    ("village", "<b>求赦免</b>", "plead", ()),
    # VIL-B-MANOR §6.8: the written forms are plain text, with filler around the keyword
    ("village", "领主大人，请赦免我！", "plead", ()),
    ("village", "好吧，我赦免 小红", "pardon", ("小红",)),
    ("village", "禁止 小明 和 小红 今天投票", "silence", ("小明", "小红")),
    ("village", "警长决定：小红", "sheriff_choice", ("小红",)),
    ("village", "警徽给 小红", "successor", ("小红",)),
    ("one-night", "Jager: schiet Daan", "shoot", ("Daan",)),  # ON D9: the shot may be a post
])
def test_day_powers_written_in_the_thread(ruleset: str, html: str, verb: str, targets: tuple) -> None:
    seats = roster(*SEATS[ruleset])
    ex = extract_post(post(html, author=SEATS[ruleset][0]), ctx(seats, LANG[ruleset], ruleset))
    assert [(a.action, a.targets, a.channel) for a in ex.intents] == [(verb, targets, "thread")]


@pytest.mark.parametrize("ruleset, html", [
    ("village", "我接受你的观点，守 小明 是对的"),  # chat, not bold, no prefix
    ("lupus-eresia", "Boia: voto segreto: Marco"),  # secret by nature: never read from a post
    ("lupus-eresia", "<b>indico Marco</b>"),  # LUP-R8 designations go by PM
])
def test_thread_chat_is_not_a_day_power(ruleset: str, html: str) -> None:
    seats = roster(*SEATS[ruleset])
    ex = extract_post(post(html, author=SEATS[ruleset][0]), ctx(seats, LANG[ruleset], ruleset))
    assert [i for i in ex.intents if isinstance(i, ActionIntent)] == []


def test_VIL_B_MANOR_a_plain_pardon_naming_no_player_is_reported_not_dropped() -> None:
    seats = roster(*SEATS["village"])
    ex = extract_post(post("我赦免 路人甲", author="安娜"), ctx(seats, "zh", "village"))
    assert not ex.intents and codes(ex) == ["unknown_name"]


def test_bold_vote_in_village_is_not_a_silence() -> None:
    seats = roster(*SEATS["village"])
    ex = extract_post(post("<b>投票 小明</b>", author="安娜"), ctx(seats, "zh", "village"))
    assert [type(i) for i in ex.intents] == [VoteIntent]


def test_LUP_R9_LUP_D2_a_kill_keyword_used_as_a_noun_before_the_real_one_is_not_a_second_action() -> None:
    """LUP-R9 LUP-D2: "Cambio vittima: sbraniamo X" is one kill of X, with no "X is not a player" issue"""
    seats = roster("Marco", "Lucia", "Paolo", "Anna")
    ex = extract_message(message("Cambio vittima: sbraniamo Paolo", sender="Marco"), ctx(seats, "it", "lupus-eresia"))
    assert [(i.action, i.targets) for i in ex.intents] == [("kill", ("Paolo",))] and ex.issues == ()


def test_an_action_naming_nobody_is_reported_as_that_action_not_as_a_vote() -> None:
    seats = roster("Alice", "Bob", "Dave")
    ex = extract_message(message("Tonight I'll check frank.", sender="Alice"), ctx(seats, "en", "mafia-majority"))
    assert codes(ex) == ["unknown_name"]
    assert "“frank” is not a player" in ex.issues[0].message and "not read as check" in ex.issues[0].message
    assert "counted" not in ex.issues[0].message


def test_a_gm_vote_count_header_is_not_a_gm_vote() -> None:
    seats = roster("Alice", "Bob", "Dave")
    c = ctx(seats, "en", "mafia-majority")
    header = "<u><b>Vote Count:</b></u><br><b>Bob -2-</b> Alice, Dave<br><b>Not voting:</b> Bob"
    assert extract_post(post(header, author="GM"), c).issues == ()
    assert codes(extract_post(post("<b>vote: Bob</b>", author="GM"), c)) == ["gm_vote"]
