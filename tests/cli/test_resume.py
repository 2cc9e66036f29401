"""Joining a game under way (issue 14, item 5): `[games.x.resume] phase, from_post`, the earlier
history as `[[games.x.events]]` (kills with their phase and cause, `kind = "state"` for what only
the state knows), counting from the resume post; played through the CLI on example games."""

import json
from datetime import datetime, timedelta, timezone

from forummod.cli import main
from forummod.engine.registry import get_ruleset_class, ruleset_names

from tests.cli.test_example_defaults import P, SEVEN, SIX
from tests.example_game import write_example_game

H = timedelta(hours=1)
M = timedelta(minutes=1)


def _status(capsys, cfg, now):
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--json", "--approve-all", "--now", now.isoformat()]) == 0
    return json.loads(capsys.readouterr().out)


def test_village_resumed_at_day_2_with_the_sheriff_and_a_dead_seer(tmp_path, capsys):
    """VIL-B-FARM VIL-V-4: the Sheriff given as a state event votes x2; the D1 vote before the
    resume post is not counted; the history's death keeps its phase and cause"""
    t0 = datetime(2026, 3, 2, 20, 0, tzinfo=timezone.utc)
    r = t0 + 80 * H  # the Day 2 dawn post, where the GM hands over to forummod
    posts = [("GM", "第一夜", t0), ("阿花", "[b]投票 小红[/b]", t0 + 40 * H), ("GM", "第二天，天亮了", r)]
    posts += [(v, f"[b]投票 {t}[/b]", r + (37 + i) * H)
              for i, (v, t) in enumerate((("小明", "阿强"), ("小红", "阿强"), ("老李", "阿花"), ("阿强", "阿花")))]
    events = [{"kind": "kill", "player": "老王", "phase": "N1", "cause": "wolves"},
              {"kind": "state", "key": "sheriff", "player": "小明"}]
    cfg = write_example_game(tmp_path, "village", SIX, posts=posts, extra={"resume": {"phase": "D2", "from_post": 3}},
                             events=events)
    assert main(["poll", "--config", str(cfg)]) == 0
    st = _status(capsys, cfg, r + 45 * H)
    assert st["phase"] == "D2" and st["phase_start_at"] == r.isoformat()
    assert [(d["player"], d["phase"], d["cause"]) for d in st["dead"]] == [("老王", "N1", "wolves")]
    assert ("小明", "sheriff") in {(n["player"], n["what"]) for n in st["night_desk"]["notes"]}
    capsys.readouterr()
    assert main(["tally", "--config", str(cfg), "--json", "--at", (r + 45 * H).isoformat()]) == 0
    cands = {c["name"]: c["total"] for c in json.loads(capsys.readouterr().out)["tally"]["candidates"]}
    assert cands == {"阿强": 3.0, "阿花": 2.0}  # Sheriff x2; 阿花's D1 vote (post 2) is history, not counted
    st = _status(capsys, cfg, r + 60 * H)
    assert {d["player"]: d["cause"] for d in st["dead"]} == {"老王": "wolves", "阿强": "lynch"}


def test_witch_hunt_resumed_at_night_2_follows_the_given_recruitment_rotation(tmp_path, capsys):
    """WH-C1 D18: the order and last night's recruiter are state events; tonight's right is the next witch's"""
    t0 = datetime(2026, 5, 4, 18, 0, tzinfo=timezone.utc)
    r = t0 + 72 * H  # Night 2 opens (N1 24 h, D1 48 h)
    events = [{"kind": "state", "key": "recruitment_order", "value": "Анна, Борис"},
              {"kind": "state", "key": "last_recruiter", "player": "Анна"},
              {"kind": "kill", "player": "Жанна", "phase": "D1", "cause": "lynch"}]
    cfg = write_example_game(tmp_path, "witch_hunt", SEVEN, posts=[("GM", "Ночь 1", t0), ("GM", "Ночь 2", r)],
                             messages=[("Глеб", "молюсь за Дина", r + H)],
                             extra={"resume": {"phase": "N2", "from_post": 2}}, events=events)
    assert main(["poll", "--config", str(cfg)]) == 0
    st = _status(capsys, cfg, r + 2 * H)
    assert st["phase"] == "N2" and [d["player"] for d in st["dead"]] == ["Жанна"]
    recruiter = [n for n in st["night_desk"]["notes"] if n["what"] == "recruiter"]
    assert [n["player"] for n in recruiter] == ["Борис"]


def test_lupus_resumed_at_day_2_counts_from_the_resume_post(tmp_path, capsys):
    """LUP-V1 LUP-R4: a protection in force is a state event; D1's votes are not re-counted"""
    from zoneinfo import ZoneInfo
    rome = ZoneInfo("Europe/Rome")
    d2 = datetime(2026, 12, 3, 9, 0, tzinfo=rome)
    players = P("Aldo=werewolf", "Bianca=werewolf", "Carlo=seer", "Dario=twin_guard", "Elena=twin_guard",
                "Fabio=farmer", "Gino=farmer", "Ugo=farmer")
    posts = [("Narratore", "Notte 1", datetime(2026, 12, 1, 21, 0, tzinfo=rome)),
             ("Gino", "[b]voto Carlo[/b]", datetime(2026, 12, 2, 12, 0, tzinfo=rome)),
             ("Narratore", "Giorno 2", d2)]
    posts += [(v, f"[b]voto {t}[/b]", d2 + (i + 1) * H)
              for i, (v, t) in enumerate((("Carlo", "Aldo"), ("Dario", "Aldo"), ("Aldo", "Fabio")))]
    events = [{"kind": "kill", "player": "Ugo", "phase": "N2", "cause": "wolves"},
              {"kind": "state", "key": "protected", "player": "Carlo", "value": "N2"}]
    cfg = write_example_game(tmp_path, "lupus", players, posts=posts, events=events,
                             extra={"resume": {"phase": "D2", "from_post": 3}})
    assert main(["poll", "--config", str(cfg)]) == 0
    st = _status(capsys, cfg, d2 + 5 * H)
    assert st["phase"] == "D2" and [(d["player"], d["phase"]) for d in st["dead"]] == [("Ugo", "N2")]
    assert ("Carlo", "protected", "N2") in {(n["player"], n["what"], n["detail"])
                                           for n in st["night_desk"]["protections"]}
    st = _status(capsys, cfg, d2 + 14 * H)
    assert {d["player"]: d["cause"] for d in st["dead"]} == {"Ugo": "wolves", "Aldo": "lynch"}


def test_an_unknown_state_key_is_refused_with_the_rulesets_keys(tmp_path, capsys):
    t0 = datetime(2026, 5, 4, 18, 0, tzinfo=timezone.utc)
    cfg = write_example_game(tmp_path, "witch_hunt", SEVEN, posts=[("GM", "Ночь 1", t0), ("GM", "Ночь 2", t0 + 72 * H)],
                             extra={"resume": {"phase": "N2", "from_post": 2}},
                             events=[{"kind": "state", "key": "sheriff", "player": "Анна"}])
    assert main(["poll", "--config", str(cfg)]) == 0
    capsys.readouterr()
    main(["check", "--config", str(cfg), "--json", "--now", (t0 + 73 * H).isoformat()])
    out = capsys.readouterr().out
    # the refusal is worded in the game's language (Russian, issue 20); the ruleset's keys are named as they are
    assert "неизвестный ключ состояния" in out and "recruitment_order" in out


def test_every_ruleset_documents_its_resumable_keys():
    for name in ruleset_names():
        cls = get_ruleset_class(name)
        assert all(doc for doc in cls.RESUMABLE.values()), name
    assert {"sheriff", "token", "potion_used"} <= set(get_ruleset_class("village").RESUMABLE)
    assert {"recruitment_order", "last_recruiter"} <= set(get_ruleset_class("witch-hunt").RESUMABLE)


def test_the_readme_table_lists_every_rulesets_resumable_keys():
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for name in ruleset_names():
        for key in get_ruleset_class(name).RESUMABLE:
            assert f"| `{name}` | `{key}` |" in readme, (name, key)


def test_mafia_majority_resumed_at_day_2_with_the_nights_kill(tmp_path, capsys):
    """MafiaScum majority after a resume: the living count (and so the majority) leaves out the dead"""
    from tests.archive_game import archive_config, players_toml, write_posts
    t0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    write_posts(tmp_path, [("Mod", "Day 1"), ("Bob", "[b]vote: Eve[/b]"), ("Mod", "Day 2 begins"),
                           ("Bob", "[b]vote: Ann[/b]"), ("Cat", "[b]vote: Ann[/b]"), ("Dan", "[b]vote: Ann[/b]")],
                t0 + 80 * H)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], {"Ann": "mafia"}),
                                  tables="""[games.g.resume]
phase = "D2"
from_post = 3

[[games.g.events]]
kind = "kill"
player = "Fay"
phase = "N1"
cause = "night_kill"
"""), encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    capsys.readouterr()
    assert main(["tally", "--config", str(cfg), "--json", "--at", "6"]) == 0
    t = json.loads(capsys.readouterr().out)["tally"]
    assert t["majority"] == 3 and [(c["name"], c["total"]) for c in t["candidates"]] == [("Ann", 2.0)]
    st = _status(capsys, cfg, t0 + 90 * H)
    assert st["phase"] in ("D2", "N2") and {d["player"]: (d["phase"], d["cause"]) for d in st["dead"]} == \
        {"Fay": ("N1", "night_kill"), "Ann": ("D2", "lynch")}


def test_a_resume_without_its_post_or_with_a_bad_phase_is_a_config_error(tmp_path, capsys):
    t0 = datetime(2026, 5, 4, 18, 0, tzinfo=timezone.utc)
    for resume, key in (({"phase": "D3"}, "resume.from_post"), ({"phase": "Tag 3", "from_post": 2}, "resume.phase")):
        cfg = write_example_game(tmp_path, "witch_hunt", SEVEN, posts=[("GM", "Ночь 1", t0)], extra={"resume": resume})
        capsys.readouterr()
        assert main(["status", "--config", str(cfg)]) == 2
        assert f"games.witch_hunt.{key}" in capsys.readouterr().err
