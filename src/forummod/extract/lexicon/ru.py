"""Russian (witch-hunt): phrases from rules/witch-hunt.md §6–7, and name case endings (D8)."""

from types import MappingProxyType as _M

from forummod.extract.lexicon.words import Act, Words

WORDS = Words(
    # WH §6: "Голосую за ИМЯ", "Голос: ИМЯ", "Голос ИМЯ", "Казнить ИМЯ", "На костёр ИМЯ"
    vote=(r"голосую(?:\s+за)?", r"я\s+голосую(?:\s+за)?", r"голос(?:\s+за)?", r"мой\s+голос(?:\s+за)?",
          r"казнить", r"казним", r"на\s+кост[её]р", r"отдаю\s+голос\s+за"),
    # WH §6: "Снимаю голос", "Отзываю голос" (optionally "... с ИМЯ")
    unvote=(r"снимаю\s+(?:свой\s+|мой\s+)?голос", r"отзываю\s+(?:свой\s+|мой\s+)?голос",
            r"отменяю\s+(?:свой\s+|мой\s+)?голос", r"анвоут"),
    abstain=(r"воздерживаюсь",),
    no_lynch=(r"никого", r"против\s+всех", r"нет\s+казни", r"без\s+казни", r"никто"),
    connectors=(r"за", r"с", r"со", r"на", r"против"),
    stop=("это", "был", "была", "будет", "не", "за", "у", "мой", "свой", "ваш", "что", "если",
          "когда", "потому", "подсчёт", "подсчет", "отдан", "отдала", "отдал"),
    self_words=(r"себя", r"себе", r"меня", r"мне"),
    conj=(r"и", r","),
    alt=(r"или", r"либо", r"/"),
    roles=_M({"травник": "herbalist", "сплетница": "gossip", "ведьма": "witch", "ковен": "witch"}),
)

ACTIONS = {
    "witch-hunt": (
        Act("heal", r"лечу|лечить|исцеляю|лечение"),  # WH-H1
        Act("pray", r"молюсь\s+за|молитва(?:\s+за)?|молюсь|молиться\s+за"),  # WH-I3
        Act("fire", r"святой\s+огонь(?:\s+(?:на|по))?|огонь(?:\s+(?:на|по))?|сжигаю|сжечь"),  # WH-I5
        Act("check", r"узнаю(?:\s+про|\s+о)?|проверяю|проверка|проверить"),  # WH-G1
        Act("kill", r"жертва|убиваю|убить"),  # WH-K1
        Act("recruit", r"вербую|обращаю|вербовка|обратить|завербовать"),  # WH-C1
        Act("pass", r"пропускаю|пропуск|пас"),  # WH-C2
    ),
    "mafia-majority": (  # the commands the Russian role PMs quote
        Act("check", r"проверяю|проверить"),
        Act("protect", r"лечу|защищаю"),
        Act("kill", r"убиваю|убить"),
    ),
}

#: D8: nominative ending -> endings of the other cases (genitive, dative, accusative,
#: instrumental, prepositional), so "за Машу", "с Маши", "Игорю", "Петра" find the player.
#: Longest ending first; "" is a name ending in a consonant (Петр, Иван).
ENDINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ия", ("ии", "ию", "ией", "иею")),
    ("ья", ("ьи", "ье", "ью", "ьей")),
    ("а", ("ы", "и", "е", "у", "ой", "ою")),
    ("я", ("и", "е", "ю", "ей", "ею")),
    ("й", ("я", "ю", "ем", "е")),
    ("ь", ("я", "ю", "ем", "е", "и", "ью")),
    ("о", ("а", "у", "ом", "е")),
    ("", ("а", "у", "ом", "ым", "е")),
)

#: Vowels that drop out before a case ending (Павел -> Павла, Лёвушек -> ...).
FLEETING = ("е", "ё", "о")
