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
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from forummod.engine.types import GameRun
from forummod.render import MARKUPS, build, phrasebook_for, render_post
from forummod.render.view import GameView

from tests.engine.village_f8 import F8, M, Segment

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


CASES = (
    ("village_day_start", dawn_post),
    ("village_day_end", day_end_post),
    ("village_night_result_seer", night_pm("P4")),
    ("village_night_result_witch", night_pm("P8")),
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
