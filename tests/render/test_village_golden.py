"""Golden posts of the village ruleset, built from a real engine run on fixture F8 (village.md §8).

Night 2: the pack attacks P6, the Pyromaniac (P3) burns P6's farm, the Seer (P4) looks at P7 and
the Witch (P8) poisons P2, the Hunter. At dawn P6 survives as a Vagabond, P5 (the wolf nearest the
Pyromaniac's right) burns, P2 dies and may shoot, and the Bailiff (P4) may hand out P2's hovel.
Day 2: the Hunter shoots P8, P1 becomes Sheriff as the only Farmer, the vote designates P6, who
pleads, and the Lord (P7) pardons them.

Golden files: `village_<case>.<markup>.<lang>.txt` in `golden/`, Chinese and English. Regenerate
with `FORUMMOD_UPDATE_GOLDEN=1` and review the diff like code (as in `test_golden.py`).
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from forummod.engine.types import GameRun
from forummod.render import LANGUAGES, MARKUPS, build, phrasebook_for, render_post
from forummod.render.view import GameView

from tests.engine.village_f8 import F8, H, M, Segment

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("FORUMMOD_UPDATE_GOLDEN") == "1"
TZ = ZoneInfo("Asia/Shanghai")
LANGS = ("zh", "en")


def played() -> tuple[F8, Segment, Segment]:
    f = F8(roles={"P2": "hunter", "P3": "pyromaniac", "P4": "seer", "P6": "villager", "P7": "werewolf",
                  "P8": "witch"},
           buildings={"P1": "farm", "P2": "hovel", "P3": "school", "P4": "bailiff", "P6": "farm", "P7": "manor",
                      "P8": "church"})
    n = f.night(2, pack={"target": "P6"}, pyromaniac={"building_of": "P6"},
                witch={"heal": False, "poison": "P2"})
    f.g.act("P4", "check", "P7", at=n.phase.start + 5 * M)
    d = f.day(2)
    f._in_hunter_shot(d, "P8", slot="morning")
    f._in_votes(d, {"P1": "P6", "P4": "P6", "P6": "P1"})
    f._in_plea(d, "P6")
    f._in_lord(d, {"pardon": "P6"})
    return f, n, d


def view(f: F8, now) -> GameView:
    run: GameRun = f.g.run(now=now)
    return GameView("g", "Millers Hollow", f.g.rs, run, now, TZ)


def dawn_post(pb):
    f, _, d = played()
    gv = view(f, d.phase.start + timedelta(seconds=30))  # after the dawn post, before the Hunter shoots
    return "day_start", build.build_day_start(gv, pb, "D2")


def day_end_post(pb):
    f, _, d = played()
    return "day_end", build.build_day_end(view(f, d.phase.end + timedelta(seconds=1)), pb, "D2")


def night_pm(player: str):
    """The PMs of Night 2 once Wave 1 has closed: the Seer's result, the Witch's question (§3.2)."""
    def make(pb):
        f, n, _ = played()
        pms = build.build_night_results(view(f, n.phase.actions_due_at() + timedelta(hours=1)), pb, "N2")
        return "night_result", next(pm for pm in pms if pm.player == player)
    return make


def role_pm(player: str):
    """The role PM at setup: the card, then the player's building and its power (§2.2, §5.2)."""
    def make(pb):
        f, _, _ = played()
        return "role_pm", build.build_role_pm(view(f, f.g.phases[0].start + timedelta(minutes=1)), pb, player)
    return make


CASES = (
    ("village_day_start", dawn_post),
    ("village_day_end", day_end_post),
    ("village_night_result_seer", night_pm("P4")),
    ("village_night_result_witch", night_pm("P8")),
    ("village_role_pm_bailiff", role_pm("P4")),  # the Seer in the Bailiff's house
    ("village_role_pm_vagabond", role_pm("P5")),  # a werewolf without a building
)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("markup", MARKUPS)
@pytest.mark.parametrize("case,make", CASES, ids=[c[0] for c in CASES])
def test_village_post_matches_golden_file(case, make, markup, lang):
    pb = phrasebook_for(lang, "village", markup)
    kind, post = make(pb)
    text = render_post(kind, post, markup, lang)
    path = GOLDEN / f"{case}.{markup}.{lang}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with FORUMMOD_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("markup", MARKUPS)
def test_english_dawn_post_has_the_lines_the_spec_tests_match(markup):
    """village.md §3.3: "farm of P6 burned; P6 is now a Vagabond" and "P5 — Werewolf", as plain
    text in either markup (the §8 scenarios match on them)."""
    kind, post = dawn_post(phrasebook_for("en", "village", markup))
    text = render_post(kind, post, markup, "en")
    assert "farm of P6 burned; P6 is now a Vagabond" in text
    assert "P2 — Hunter" in text and "P5 — Werewolf" in text
    assert text.index("P2 — Hunter") < text.index("P5 — Werewolf")  # seat order


@pytest.mark.parametrize("markup", MARKUPS)
def test_confessor_pm_has_the_card_line_and_the_thread_only_the_target(markup):
    """village.md §5.2.2 / VIL-T-13: the PM says "P5: Werewolf"; the thread learns only the target."""
    f = F8(buildings={"P1": "church", "P2": "hovel"})
    d = f.day(1, confessor={"target": "P5"})
    gv = view(f, d.phase.end + timedelta(seconds=1))
    pb = phrasebook_for("en", "village", markup)
    (pm,) = [pm for pm in build.build_night_results(gv, pb, "D1") if pm.player == "P1"]
    assert "P5: Werewolf" in render_post("night_result", pm, markup, "en")
    public = render_post("day_end", build.build_day_end(gv, pb, "D1"), markup, "en")
    assert "Confessor" in public and "P5" in public and "Werewolf" not in public


# ---------------------------------------------------------------------- what the drafts say and leave out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_nightfall_fact_stays_out_of_the_next_dawn_post(lang):
    """VIL-N-00: "Night N: night actions by PM" belongs to nightfall, not to the next morning."""
    kind, post = dawn_post(phrasebook_for(lang, "village", "bbcode"))
    f, _, _ = played()
    nightfall = phrasebook_for(lang, "village", "bbcode").with_tz(TZ).fact(
        next(x for ph, x in view(f, f.g.phases[-1].end).run.facts if x.key == "nightfall"))
    assert str(nightfall) and str(nightfall) not in render_post(kind, post, "bbcode", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_deadlines_in_facts_are_shown_in_the_game_timezone(lang):
    """§3.3: open windows are announced "with their deadlines"; the Hunter's window and the
    Bailiff's morning of the F8 dawn, and the day's vote and the Lord's window, in Asia/Shanghai."""
    pb = phrasebook_for(lang, "village", "bbcode")
    f, n, d = played()
    run = view(f, d.phase.end).run
    for key in ("reaction_window", "bailiff_morning", "vote_open", "lord_window"):
        fact = next(x for _, x in run.facts if x.key == key)
        local = pb.when(datetime.fromisoformat(fact.get("deadline")), TZ, "deadline")
        assert local in pb.with_tz(TZ).fact(fact), key
    kind, post = dawn_post(pb)
    text = render_post(kind, post, "bbcode", lang)
    assert "CST" in text and "hovel@" not in text and pb.word("building", "hovel") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_gm_kill_reveals_the_card_once_and_a_dawn_death_line_is_not_repeated(lang):
    """§3.3, VIL-V-7: a village death line shows the card ("P1 — Villager"), so no second reveal
    line follows it; a GM kill's line does not, so the reveal sentence shows the card."""
    f = F8(roles={"P3": "seer"})
    n = f.night(2, pack={"target": "P1"})
    f.g.gm("kill", "P3", at=n.day.start + 2 * H)
    pb = phrasebook_for(lang, "village", "bbcode")
    gv = view(f, n.day.start + 3 * H)
    dawn = render_post("day_start", build.build_day_start(gv, pb, "D2"), "bbcode", lang)
    villager = pb.role("villager")
    assert dawn.count(villager) == 1 and "P1" in dawn  # the death line only
    end = build.build_day_end(view(f, n.day.end + M), pb, "D2")
    text = render_post("day_end", end, "bbcode", lang)
    assert [d.player for d in end.deaths] == ["P3"] and pb.role("seer") in str(end.deaths[0].sentence)
    assert text.count(pb.role("seer")) == 1


PLACEHOLDERS = {"en": ("NAME",), "it": ("NOME",), "ru": ("ИМЯ",), "nl": ("NAAM",), "zh": ("X", "Y"), "de": ("NAME",)}
QUOTED = re.compile(r"«([^»]+)»|\"([^\"]+)\"|“([^”]+)”")


def _building_commands():
    for lang in LANGUAGES:
        pb = phrasebook_for(lang, "village", "bbcode")  # German has no village source: English, read in German
        entry = pb.data.get("facts", {}).get("your_building") or pb.fallback["facts"]["your_building"]
        for code, text in entry.items():
            if code == "by":
                continue
            for m in QUOTED.finditer(text):
                yield pytest.param(lang, code, next(g for g in m.groups() if g), id=f"{lang}-{code or 'vagabond'}")


@pytest.mark.parametrize("lang,code,command", list(_building_commands()))
def test_a_command_quoted_in_a_building_s_role_pm_is_understood(lang, code, command):
    """§6.8, VIL-B-*: what a role PM tells a building holder (or a Vagabond) to send is read as
    that building's action, names filled in, with no issue for the GM."""
    from forummod.extract import extract_message
    from forummod.model import ActionIntent, VoteIntent

    from tests.extract.helpers import ctx, message, roster

    names = ("小明", "小红") if lang == "zh" else ("Marco", "Luca")
    filled = command
    for placeholder in PLACEHOLDERS[lang]:
        filled = filled.replace(placeholder, names[0], 1).replace(placeholder, names[1], 1)
    ex = extract_message(message(filled, sender="Anna"),
                         ctx(roster("Anna", *names), language=lang, ruleset="village", forms=("bold", "plain", "pm")))
    assert not ex.issues, [i.message for i in ex.issues]
    assert ex.intents and all(isinstance(i, (ActionIntent, VoteIntent)) for i in ex.intents), command
    actions = {i.action for i in ex.intents if isinstance(i, ActionIntent)}
    assert actions <= BUILDING_ACTIONS[code], (command, actions)


#: the actions each building's holder (or a Vagabond) is told about (§5.2, §6.8)
BUILDING_ACTIONS = {
    "farm": {"elect", "sheriff_choice", "successor"}, "church": {"confess"}, "hovel": {"restore"},
    "school": {"silence"}, "bakery": {"watch"}, "barbershop": {"barber"}, "bailiff": {"assign", "accept", "refuse"},
    "tavern": set(), "manor": {"plead", "pardon"}, "": {"accept", "refuse"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_every_village_role_pm_names_the_building_or_the_vagabond(lang, markup):
    """§2.2: a village role PM says the player's building and its power, or that they are a Vagabond."""
    f, _, _ = played()
    gv = view(f, f.g.phases[0].start + M)
    pb = phrasebook_for(lang, "village", markup)
    for p in gv.state.players:
        post = build.build_role_pm(gv, pb, p.name)
        assert len(post.notes) == 1 and "⟨" not in post.notes[0], p.name
        text = render_post("role_pm", post, markup, lang)
        assert str(post.notes[0]) in text
