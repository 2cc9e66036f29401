"""Vote grammar in five languages (issue 4 item 2) and how posts become vote intents."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from forummod.extract import extract_post
from forummod.model import NO_LYNCH, PlayerSlot, Replacement, Source, VoteIntent

from .helpers import T0, codes, ctx, post, roster, votes


@dataclass(frozen=True)
class Lang:
    code: str
    ruleset: str
    seats: tuple[str, ...]  # author, short name X, long name starting with X, Y, name with spaces/BBCode chars
    vote_forms: tuple[str, ...]  # {x}: the target as typed
    typed: dict  # how X is typed in this language's vote (Russian declines it)
    unvotes: tuple[str, ...]
    named_unvote: str  # {x}: X as typed after the unvote words
    no_lynch: tuple[str, ...]
    narrative: str  # talks about voting X, without vote markup


LANGS = [
    Lang("en", "mafia-majority", ("Anna", "Marco", "Marco Rossi", "Luca", "Mr. [Wright]"),
         ("<b>VOTE: {x}</b>", "<b>vote {x}</b>", "[b]Vote: {x}[/b]", "[vote]{x}[/vote]",
          '<span class="bbvote" title="This is an official vote.">VOTE: {x}</span>', "<b>I vote {x}</b>",
          "<b>Vote:</b> {x}"),
         {}, ("<b>UNVOTE</b>", "<b>Unvote:</b>", "[unvote][/unvote] <b>unvote</b>"), "<b>UNVOTE: {x}</b>",
         ("<b>VOTE: no lynch</b>", "<b>Vote: No-lynch.</b>", "[vote]NL[/vote]", "<b>Vote to No Lynch</b>"),
         "I would vote {x} but I am not sure yet."),
    # LUP §8
    Lang("it", "lupus-eresia", ("Anna", "Marco", "Marco Rossi", "Luca", "Gian [Luca]"),
         ("<b>Voto: {x}</b>", "<b>Voto {x}</b>", "<b>Rogo: {x}</b>", "<b>Rogo {x}</b>", "[voto]{x}[/voto]",
          "[b]VOTO: {x}[/b]", "<b>VOTE: {x}</b>"),
         {}, ("<b>Tolgo il voto</b>", "<b>Ritiro il voto</b>", "<b>Unvote</b>"), "<b>Tolgo il voto a {x}</b>",
         ("<b>Voto: nessun rogo</b>", "<b>Voto: nessuno</b>", "<b>VOTE: no lynch</b>"),
         "Il mio voto andrebbe a {x}, ma aspetto."),
    # WH §6: names are declined (D8)
    Lang("ru", "witch-hunt", ("Анна", "Маша", "Маша Петрова", "Игорь", "Саша [М]"),
         ("<b>Голосую за {acc}</b>", "<b>Голос: {x}</b>", "<b>Голос {x}</b>", "<b>Казнить {acc}</b>",
          "<b>На костёр {acc}</b>", "<b>На костер {x}</b>", "Голосую за <b>{acc}</b>", "<b>VOTE: {x}</b>"),
         {"Маша": {"acc": "Машу", "gen": "Маши"}, "Маша Петрова": {"acc": "Машу Петрову", "gen": "Маши Петровой"},
          "Игорь": {"acc": "Игоря", "gen": "Игоря"}, "Саша [М]": {"acc": "Саша [М]", "gen": "Саша [М]"}},
         ("<b>Снимаю голос</b>", "<b>Отзываю голос</b>", "<b>UNVOTE</b>"), "<b>Снимаю голос с {gen}</b>",
         ("<b>Голос: никого</b>", "<b>Казнить никого</b>", "<b>VOTE: no lynch</b>"),
         "Я бы голосовал за {acc}, но пока не уверен."),
    # ON §6 (thread declarations, ON-V2; PM votes are in test_actions)
    Lang("nl", "one-night", ("Anna", "Daan", "Daan de Vries", "Fenna", "Berber [NL]"),
         ("<b>Ik stem op {x}</b>", "<b>Stem: {x}</b>", "<b>Stem {x}</b>", "<b>Lynch {x}</b>", "<b>VOTE: {x}</b>"),
         {}, ("<b>Ontstem</b>", "<b>Ik trek mijn stem in</b>", "<b>Unvote</b>"), "<b>Ontstem {x}</b>",
         ("<b>Stem: niemand</b>", "<b>Stem: geen lynch</b>", "<b>VOTE: no lynch</b>"),
         "Ik zou op {x} stemmen, maar ik twijfel."),
    # VIL §6.8, simplified and traditional
    Lang("zh", "village", ("安娜", "小明", "小明明", "小红", "阿 [强]"),
         ("<b>投票 {x}</b>", "<b>投票给{x}</b>", "<b>投票給 {x}</b>", "<b>我投 {x}</b>", "<b>投{x}</b>",
          "<b>票 {x}</b>", "<b>放逐 {x}</b>", "<b>VOTE: {x}</b>"),
         {}, ("<b>撤票</b>", "<b>取消投票</b>", "<b>收回投票</b>", "<b>弃票</b>", "<b>棄票</b>"), "<b>撤票 {x}</b>",
         ("<b>投票 无人</b>", "<b>投票 無人</b>", "<b>VOTE: no lynch</b>"),
         "我本来想投{x}，但是还不确定。"),
]
IDS = [lang.code for lang in LANGS]


def typed(lang: Lang, name: str, form: str) -> dict:
    forms = lang.typed.get(name, {})
    return {"x": name, "acc": forms.get("acc", name), "gen": forms.get("gen", name)}


def run(lang: Lang, html: str, **kw):
    return extract_post(post(html, author=lang.seats[0]), ctx(roster(*lang.seats), lang.code, lang.ruleset, **kw))


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_every_vote_form_of_the_language(lang: Lang) -> None:
    x = lang.seats[3]
    for form in lang.vote_forms:
        ex = run(lang, form.format(**typed(lang, x, form)))
        assert votes(ex) == [f"vote:{x}"], form
        assert ex.issues == (), form


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_general_unvotes(lang: Lang) -> None:
    for html in lang.unvotes:
        ex = run(lang, html)
        assert votes(ex) and set(votes(ex)) == {"unvote"}, html


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_unvote_of_a_named_player(lang: Lang) -> None:
    x = lang.seats[1]
    ex = run(lang, lang.named_unvote.format(**typed(lang, x, "")))
    assert votes(ex) == [f"unvote:{x}"]


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_votes_for_no_lynch(lang: Lang) -> None:
    for html in lang.no_lynch:
        assert votes(run(lang, html)) == [f"vote:{NO_LYNCH}"], html


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_vote_inside_a_quote_never_counts(lang: Lang) -> None:
    vote = lang.vote_forms[0].format(**typed(lang, lang.seats[3], ""))
    for html in (f"<blockquote><div><cite>Bob wrote:</cite>{vote}</div></blockquote>ok",
                 f'<div data-fm="quote">{vote}</div>ok', f"[quote=Bob]{vote}[/quote]ok",
                 f"<blockquote><blockquote>{vote}</blockquote>{vote}</blockquote>ok"):
        ex = run(lang, html)
        assert ex.intents == () and ex.issues == (), html


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_vote_in_a_spoiler_never_counts(lang: Lang) -> None:
    vote = lang.vote_forms[0].format(**typed(lang, lang.seats[3], ""))
    for html in (f'<div data-fm="spoiler">{vote}</div>', f"<details><summary>s</summary>{vote}</details>",
                 f"[spoiler]{vote}[/spoiler]"):
        assert run(lang, html).intents == (), html


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_talking_about_a_vote_without_markup_is_not_a_vote(lang: Lang) -> None:
    ex = run(lang, lang.narrative.format(**typed(lang, lang.seats[3], "")))
    assert ex.intents == () and ex.issues == ()


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_two_votes_in_one_post_are_both_emitted_in_order_and_reported(lang: Lang) -> None:
    a, b = lang.seats[3], lang.seats[1]
    html = (lang.vote_forms[0].format(**typed(lang, a, "")) + "<br>blah<br>"
            + lang.vote_forms[0].format(**typed(lang, b, "")))
    ex = run(lang, html)
    assert votes(ex) == [f"vote:{a}", f"vote:{b}"]
    assert codes(ex) == ["multiple_votes"]
    assert ex.issues[0].severity == "info"


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_a_name_that_is_a_prefix_of_another(lang: Lang) -> None:
    short, long = lang.seats[1], lang.seats[2]
    form = lang.vote_forms[0]
    assert votes(run(lang, form.format(**typed(lang, short, form)))) == [f"vote:{short}"]
    assert votes(run(lang, form.format(**typed(lang, long, form)))) == [f"vote:{long}"]


@pytest.mark.parametrize("lang", LANGS, ids=IDS)
def test_a_name_with_spaces_and_bbcode_characters(lang: Lang) -> None:
    odd = lang.seats[4]
    for form in (lang.vote_forms[0], "[b]VOTE: {x}[/b]", "[vote]{x}[/vote]"):
        assert votes(run(lang, form.format(**typed(lang, odd, form)))) == [f"vote:{odd}"], form


# --------------------------------------------------------------------------- forms


R = roster("Anna", "Luca", "Marco", "Marco Rossi", "AntB", "Ant_to_the_max",
           PlayerSlot("werewolf555", replacements=(Replacement("Hiraki"),)), "Beefster", "boberz")


@pytest.mark.parametrize("html, forms, expected", [
    ("Vote: Luca", ("bold", "tag"), []),
    ("Vote: Luca", ("plain",), ["vote:Luca"]),
    ("Well.\nVOTE Luca\nbye", ("plain",), ["vote:Luca"]),
    ("##vote Luca", ("bold", "tag"), []),
    ("##vote Luca", ("hash",), ["vote:Luca"]),
    ("ok ##unvote", ("hash",), ["unvote"]),
    ("[vote]Luca[/vote]", ("bold",), []),
    ("<b>VOTE: Luca</b>", ("tag",), []),
    ("<b>VOTE: Luca</b>", ("bold",), ["vote:Luca"]),
])
def test_only_configured_forms_count(html: str, forms: tuple[str, ...], expected: list[str]) -> None:
    ex = extract_post(post(html), ctx(R, forms=forms))
    assert votes(ex) == expected
    if not expected:
        assert codes(ex) == ["vote_form_not_counted"]


def test_plain_form_reads_only_line_starts() -> None:
    ex = extract_post(post("I think we should vote Luca today.\nthen vote: Marco"), ctx(R, forms=("plain",)))
    assert ex.intents == ()


@pytest.mark.parametrize("html, expected", [
    ("<b>Unvote, vote Luca</b>", ["unvote", "vote:Luca"]),
    ("<b>unvote Marco vote Luca</b>", ["unvote:Marco", "vote:Luca"]),
    ("<b>Cross fingers, vote Luca.</b>", ["vote:Luca"]),  # archive index, game 16769 (counted by the mod)
    ("<b>@mod vote count please</b>", []),
    ("<b>Vote count please</b>", []),
    ("<b>VigVote Luca</b>", []),  # archive index, game 22900: not a vote
    ("<b>I still think the vote on Luca was bad</b>", []),
    ("<b>Vote: Luca -- Mod, please note this is only one vote, thanks.</b>", ["vote:Luca"]),  # game 22206
    ("<b>unvoteing Luca</b>", ["unvote:Luca"]),  # game 1091 post 940
    ("<b>vote beefster</b>", ["vote:Beefster"]),  # game 1091 post 484: dead target, still Beefster
    ("<b>Vote: Hiraki</b>", ["vote:werewolf555"]),  # a vote for the replaced player goes to the seat
    ("<b>VOTE: AttM</b>", ["vote:Ant_to_the_max"]),
])
def test_bold_phrases(html: str, expected: list[str]) -> None:
    assert votes(extract_post(post(html), ctx(R))) == expected


@pytest.mark.parametrize("html, code, candidates", [
    ("<b>VOTE: Ant</b>", "ambiguous_name", {"AntB", "Ant_to_the_max"}),
    ("<b>VOTE: Friendship</b>", "unknown_name", set()),  # game 18952: not GLaDOS
    ("<b>VOTE: Lucа</b>", "homoglyph_name", {"Luca"}),  # Cyrillic а
    ("<b>Vote: Luca / or / Marco</b>", "ambiguous_name", {"Luca", "Marco"}),  # game 37632: undecided
    ("[vote]VOTE: (mv^2)/2[/vote]", "unknown_name", set()),  # game 23772
])
def test_unresolvable_targets_become_issues_never_votes(html: str, code: str, candidates: set[str]) -> None:
    ex = extract_post(post(html), ctx(R))
    assert ex.intents == ()
    assert codes(ex) == [code]
    assert set(ex.issues[0].candidates) >= candidates


def test_weak_phrases_with_unknown_names_stay_silent() -> None:
    ex = extract_post(post("<b>Nothing new, vote whoever you like</b>"), ctx(R))
    assert ex.intents == () and ex.issues == ()


def test_vote_intent_fields() -> None:
    p = post("<b>VOTE: Luca</b>", author="hiraki")
    (v,) = extract_post(p, ctx(R)).intents
    assert v == VoteIntent("werewolf555", "Luca", T0,
                           Source("post", "p7", 7, "game", "https://forum.example/p7", 1), "VOTE: Luca", "thread")


def test_author_found_by_user_id_when_the_name_changed() -> None:
    seats = roster(PlayerSlot("Luca", user_id="42"), "Marco")
    ex = extract_post(post("<b>VOTE: Marco</b>", author="Luca_renamed", author_id="42"), ctx(seats))
    assert [i.voter for i in ex.intents] == ["Luca"]


def test_gm_and_non_players_are_reported_not_counted() -> None:
    ex = extract_post(post("<b>VOTE: Luca</b>", author="gm"), ctx(R))
    assert ex.intents == () and codes(ex) == ["gm_vote"]
    ex = extract_post(post("<b>VOTE: Luca</b>", author="Lurker"), ctx(R))
    assert ex.intents == () and codes(ex) == ["non_player_vote"]
    ex = extract_post(post("<b>Votecount 1.01</b>\nLuca - 1 - Marco", author="GM"), ctx(R))
    assert ex == type(ex)()


def test_votes_only_come_from_the_game_thread() -> None:
    ex = extract_post(post("<b>VOTE: Luca</b>"), ctx(R, thread_role="graveyard"))
    assert ex.intents == () and codes(ex) == ["vote_outside_game_thread"]


def test_no_lynch_can_be_switched_off() -> None:
    ex = extract_post(post("<b>VOTE: no lynch</b>"), ctx(R, count_no_lynch=False))
    assert ex.intents == () and codes(ex) == ["no_lynch_not_counted"]
