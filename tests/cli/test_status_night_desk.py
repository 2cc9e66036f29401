"""`status` shows what the GM needs at night (issue 14, item 7), in text and in `--json`
(`night_desk`): the actions received (who sent what, valid or not, which counts), every private
result with its recipient, protections, tonight's recruiter, tokens and one-shot powers left,
and who still owes a required action (also named by `check`)."""

import json

from forummod.cli import main

from tests.cli.test_example_defaults import SEVEN, VIL_T0, WH_T0, H, P
from tests.cli.test_lupus_live import N2, PLAYERS, POSTS, T0, M
from tests.example_game import write_example_game


def _status(capsys, cfg, now, *extra):
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--now", now.isoformat(), *extra]) == 0
    return capsys.readouterr().out


def _game(tmp_path, gid, players, posts, pms):
    cfg = write_example_game(tmp_path, gid, players, posts=posts, messages=pms)
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def test_status_lists_night_actions_valid_or_not_and_which_counts_and_private_results(tmp_path, capsys):
    """LUP-R9 LUP-D2 LUP-R1: the later kill PM counts, a seer's kill PM is rejected, the Veggente's
    result is listed with its recipient"""
    cfg = _game(tmp_path, "lupus", PLAYERS, POSTS,
                [("Carlo", "indago Aldo", T0 + H), ("Bianca", "sbraniamo Carlo", N2 + 5 * M),
                 ("Carlo", "sbraniamo Dario", N2 + 6 * M), ("Aldo", "Cambio vittima: sbraniamo Dario", N2 + 8 * M)])
    now = N2 + 20 * M
    desk = json.loads(_status(capsys, cfg, now, "--json"))["night_desk"]
    assert desk["night"] == "N2"
    assert [(x["actor"], x["targets"], x["status"], x["reason"]) for x in desk["actions"]] == [
        ("Bianca", ["Carlo"], "replaced", None), ("Carlo", ["Dario"], "rejected", "wrong_role"),
        ("Aldo", ["Dario"], "counts", None)]  # D2: the pack's last kill PM counts, whoever sends it
    assert [(r["to"], r["key"], r["params"]) for r in desk["private_results"]] == \
        [("Carlo", "seer_result", {"target": "Aldo", "verdict": "LOSCO"})]
    text = _status(capsys, cfg, now)
    # the Italian game's GM reads the desk's words in Italian (issue 20); the codes stay in --json
    assert "azioni notturne (Notte 2):" in text and "Carlo: kill Dario (MP m3," in text
    assert "respinta — ruolo sbagliato" in text
    assert "risultato per Carlo (Notte 1, in attesa): seer_result (target=Aldo, verdict=LOSCO)" in text


def test_status_shows_the_recruiter_the_protection_and_who_owes_the_inquisitors_action(tmp_path, capsys):
    """WH-C1 D18 (recruiter), WH-H1 (heal), WH-I2 (the Inquisitor must act: status and check name him)"""
    cfg = _game(tmp_path, "witch_hunt", SEVEN, [("GM", "Ночь 1", WH_T0)],
                [("Анна", "жертва Егор", WH_T0 + H), ("Вера", "лечу Егор", WH_T0 + 2 * H)])
    now = WH_T0 + 3 * H
    desk = json.loads(_status(capsys, cfg, now, "--json"))["night_desk"]
    recruiter = [n for n in desk["notes"] if n["what"] == "recruiter"]
    assert len(recruiter) == 1 and recruiter[0]["player"] in ("Анна", "Борис")
    assert [(n["player"], n["what"], n["detail"]) for n in desk["protections"]] == [("Егор", "heal", "by Вера")]
    assert [(o["players"], o["rule"]) for o in desk["owed"]] == [(["Глеб"], "WH-I2")]
    assert "должен: Глеб — pray / fire [WH-I2]" in _status(capsys, cfg, now)  # the game's language
    capsys.readouterr()
    main(["check", "--config", str(cfg), "--json", "--now", now.isoformat()])
    owed = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["code"] == "missing_action"]
    assert [f["player"] for f in owed] == ["Глеб"] and "Глеб" in owed[0]["message"]


def test_status_shows_tokens_and_one_shot_powers_left(tmp_path, capsys):
    """VIL-N-11 (the Witch's potions), VIL-B-TAVERN (the Barkeeper's token), VIL-S-POSTER"""
    players = P("小明=villager@tavern", "小红=villager@farm", "阿强=werewolf", "阿花=scandalmonger", "老王=witch",
                "老李=werewolf")
    cfg = _game(tmp_path, "village", players, [("GM", "第一夜", VIL_T0)],
                [("阿强", "刀 小红", VIL_T0 + H), ("老李", "刀 小红", VIL_T0 + 2 * H), ("阿花", "海报 小明", VIL_T0 + 3 * H)])
    desk = json.loads(_status(capsys, cfg, VIL_T0 + 4 * H, "--json", "--approve-all"))["night_desk"]
    notes = {(n["player"], n["what"]): n["detail"] for n in desk["notes"]}
    assert notes[("老王", "heal potion")] == "left" and notes[("老王", "poison potion")] == "left"
    assert notes[("小明", "tavern token")] == "held"
    text = _status(capsys, cfg, VIL_T0 + 4 * H, "--approve-all")
    assert "能力: 老王: 解药 未用" in text and "能力: 小明: tavern 令牌 持有" in text  # the game's language (zh)


def test_status_lists_an_action_the_gm_entered_beside_the_pms_and_it_replaces_the_earlier_pm(tmp_path, capsys):
    """LUP-D2: the pack's last kill counts, here the one the GM entered by hand (`gm action`),
    listed as `GM #N`; an undone one is gone from the desk"""
    cfg = _game(tmp_path, "lupus", PLAYERS, POSTS, [("Bianca", "sbraniamo Carlo", N2 + 5 * M)])
    assert main(["gm", "--config", str(cfg), "--at", (N2 + 9 * M).isoformat(), "action", "Aldo", "kill", "Dario"]) == 0
    eid = int(capsys.readouterr().out.split("#", 1)[1].split(":", 1)[0])
    now = N2 + 20 * M
    desk = json.loads(_status(capsys, cfg, now, "--json"))["night_desk"]
    assert [(x["actor"], x["targets"], x["source"], x["status"]) for x in desk["actions"]] == [
        ("Bianca", ["Carlo"], "PM m1", "replaced"), ("Aldo", ["Dario"], f"GM #{eid}", "counts")]
    assert main(["gm", "--config", str(cfg), "undo", str(eid)]) == 0
    desk = json.loads(_status(capsys, cfg, now, "--json"))["night_desk"]
    assert [(x["actor"], x["status"]) for x in desk["actions"]] == [("Bianca", "counts")]
