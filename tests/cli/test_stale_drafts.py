"""Issue 15, item 3: never publish a stale draft. Through the CLI on an archive game: a vote
count is drafted, a new vote arrives and `drafts` marks the draft stale, `publish` refuses
naming --stale-ok (not --resend), `publish --stale-ok` sends it; a post that does not change
the count keeps the draft fresh; a stale GM edit is shown against the fresh render; `draft
KIND --print` shows the stored text under its id."""

import json
import shlex
from datetime import datetime, timezone
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.store import Store

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
POSTS = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Eve[/b]")]


@pytest.fixture
def game(tmp_path):
    write_posts(tmp_path, POSTS, T0)
    players = players_toml(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], {"Ann": "mafia"})
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players), encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def cli(capsys, *argv):
    capsys.readouterr()
    rc = main([*argv[:1], "--config", str(argv[-1]), *argv[1:-1]])
    got = capsys.readouterr()
    return rc, got.out, got.err


def cli_json(capsys, *argv):
    rc, out, _ = cli(capsys, *argv[:-1], "--json", argv[-1])
    data = json.loads(out)  # JSON v1: the command's list under its plural key
    return rc, next((data[k] for k in ("drafts", "publications", "passes") if k in data), data)


def new_posts(cfg: Path, *posts) -> None:
    write_posts(cfg.parent, POSTS + list(posts), T0)
    assert main(["poll", "--config", str(cfg)]) == 0


def drafted_votecount(capsys, cfg) -> int:
    rc, made = cli_json(capsys, "draft", "votecount", cfg)
    assert rc == 0 and made[0]["draft_state"]["state"] == "fresh"
    return made[0]["id"]


def state(capsys, cfg, did) -> dict:
    rc, rows = cli_json(capsys, "drafts", cfg)
    assert rc == 0
    return next(r for r in rows if r["id"] == did)["draft_state"]


def outbox(cfg: Path) -> list[dict]:
    p = cfg.parent / "posts.outbox.jsonl"
    return [json.loads(ln) for ln in p.read_text(encoding="utf-8").splitlines()] if p.exists() else []


def test_a_new_vote_makes_the_drafted_count_stale_and_publish_refuses_until_stale_ok(game, capsys):
    did = drafted_votecount(capsys, game)
    new_posts(game, ("Dan", "[b]vote: Eve[/b]"))

    st = state(capsys, game, did)
    assert st["state"] == "stale" and st["flag"] == "--stale-ok"
    assert st["rendered_from"]["last_post"] == 3 and st["fresh_from"]["last_post"] == 4
    rc, out, _ = cli(capsys, "drafts", game)
    assert f"{did}" in out and "stale" in out and f"forummod publish {did} --stale-ok" in out

    rc, out, err = cli(capsys, "publish", str(did), game)
    assert rc != 0 and outbox(game) == []
    assert "is stale" in err and "--stale-ok" in err and "--resend" not in err
    assert "Dan (#4" in err  # what changed: the new vote, as the fresh render reads

    rc, out, err = cli(capsys, "publish", str(did), "--stale-ok", game)
    assert rc == 0 and f"draft {did} published" in out
    [sent] = outbox(game)
    assert "Eve[/b] (2)" in sent["bbcode"] and "Dan (#4" not in sent["bbcode"]  # the draft as it stood
    assert state(capsys, game, did)["state"] == "published"


def test_a_post_that_does_not_change_the_count_keeps_the_draft_fresh_and_publishable(game, capsys):
    did = drafted_votecount(capsys, game)
    new_posts(game, ("Fay", "good morning, who do we suspect?"))
    assert state(capsys, game, did)["state"] == "fresh"
    rc, out, _ = cli(capsys, "publish", str(did), game)
    assert rc == 0 and f"draft {did} published" in out and len(outbox(game)) == 1


def test_a_poll_pass_rerenders_an_unedited_stale_count_so_it_is_fresh_again(game, capsys):
    did = drafted_votecount(capsys, game)
    new_posts(game, ("Dan", "[b]vote: Eve[/b]"))
    assert state(capsys, game, did)["state"] == "stale"
    rc, made = cli_json(capsys, "draft", "votecount", game)  # what a poll pass does: render and store
    assert made[0]["id"] == did and "Dan (#4" in made[0]["body"]
    assert state(capsys, game, did)["state"] == "fresh"


def test_an_edited_stale_draft_keeps_the_edit_and_shows_it_against_the_fresh_render(game, capsys):
    did = drafted_votecount(capsys, game)
    with Store(game.parent / "s.sqlite") as s:  # what the preview's Edit form does
        body = s.draft(did).body
        s.edit_draft(did, body + "\nMod note: day ends at the deadline, no extensions.", datetime.now(timezone.utc))
    assert state(capsys, game, did)["state"] == "fresh"  # an edit alone is not stale: the count is current
    new_posts(game, ("Dan", "[b]vote: Eve[/b]"))

    st = state(capsys, game, did)
    assert st["state"] == "stale" and st["edited"]
    assert "+++ fresh render" in st["diff"] and "--- your edit" in st["diff"]
    assert "-Mod note: day ends at the deadline" in st["diff"] and "+[b]Eve[/b] (3)" in st["diff"]
    rc, out, _ = cli(capsys, "drafts", "--show", str(did), game)
    assert "STALE" in out and "your edit against the fresh render" in out and "+[b]Eve[/b] (3)" in out

    # draft --print shows the stored text (the GM's edit) under the id, and says it is stale
    rc, out, _ = cli(capsys, "draft", "votecount", "--print", game)
    assert f"draft {did}:" in out and "[stale, edited]" in out and "Mod note: day ends" in out
    assert "Dan (#4" not in out

    rc, out, err = cli(capsys, "publish", str(did), game)
    assert rc != 0 and "--stale-ok" in err and "Your edit is kept" in err and outbox(game) == []
    # publish shows the edit beside the fresh render: the changed lines, the draft's against now
    assert "  draft: Mod note: day ends at the deadline" in err and "  now:   [b]Eve[/b] (3)" in err


def test_tick_auto_publishes_counts_but_never_a_stale_edit(tmp_path, capsys):
    write_posts(tmp_path, POSTS, T0)
    players = players_toml(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], {"Ann": "mafia"})
    cfg = tmp_path / "forummod.toml"
    day = f'[games.g.schedule]\nstart = "{T0.isoformat()}"\nvote_close = "20000h"\nday_end = "20000h"\n'
    cfg.write_text(archive_config(tmp_path, players, tables=day + '[games.g.publish]\nauto = ["votecount"]\n'),
                   encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    did = drafted_votecount(capsys, cfg)
    with Store(tmp_path / "s.sqlite") as s:
        s.edit_draft(did, s.draft(did).body + "\nMod: hammer is on.", datetime.now(timezone.utc))
    write_posts(tmp_path, POSTS + [("Dan", "[b]vote: Eve[/b]")], T0)
    capsys.readouterr()
    main(["tick", "--config", str(cfg)])
    assert "g: D1" in capsys.readouterr().out  # still the day the edited count is about
    assert outbox(cfg) == [] and state(capsys, cfg, did)["state"] == "stale"



def _as_schema_4_store(cfg: Path) -> None:
    """The store as a forummod before migration 5 left it: drafts, but no render records."""
    import sqlite3

    db = sqlite3.connect(cfg.parent / "s.sqlite")
    db.execute("DROP TABLE draft_renders")
    db.execute("UPDATE meta SET value='4' WHERE key='schema_version'")
    db.commit()
    db.close()


def test_a_draft_from_a_schema_4_store_is_rerendered_and_compared_not_taken_as_fresh(game, capsys):
    did = drafted_votecount(capsys, game)
    _as_schema_4_store(game)
    with Store(game.parent / "s.sqlite") as s:  # migrations 5 and 6: the old draft's record has no hash
        assert s.draft_render(did)["render_hash"] == "" and s.draft(did).status == "draft"
    assert state(capsys, game, did)["state"] == "fresh"  # a render now writes exactly its text

    new_posts(game, ("Dan", "[b]vote: Eve[/b]"))  # a poll fetches; it does not re-render the draft
    st = state(capsys, game, did)
    assert st["state"] == "stale" and st["rendered_from"]["render_hash"] == "" and "not recorded" in st["changed"]
    assert "+[b]Eve[/b] (3)" in st["diff"]
    rc, out, err = cli(capsys, "publish", str(did), game)
    assert rc != 0 and "--stale-ok" in err and outbox(game) == []

    rc, made = cli_json(capsys, "draft", "votecount", game)  # the next render records what it came from
    assert made[0]["id"] == did and state(capsys, game, did)["state"] == "fresh"
    with Store(game.parent / "s.sqlite") as s:
        assert s.draft_render(did)["render_hash"] != ""


def test_draft_print_and_the_stored_draft_show_one_text_under_one_id(game, capsys):
    did = drafted_votecount(capsys, game)
    for edit in (None, "[b]My own count[/b]\nEve (2)"):
        if edit is not None:
            with Store(game.parent / "s.sqlite") as s:
                s.edit_draft(did, edit, datetime.now(timezone.utc))
        rc, out, _ = cli(capsys, "draft", "votecount", "--print", game)
        with Store(game.parent / "s.sqlite") as s:
            stored = s.draft(did).body
        assert rc == 0 and out.splitlines()[0].startswith(f"draft {did}:")
        assert "\n".join(out.splitlines()[1:]).strip() == stored.strip()
        rc, made = cli_json(capsys, "draft", "votecount", game)
        assert [m["id"] for m in made] == [did] and made[0]["body"] == stored


def test_draft_kind_keeps_an_edit_stale_and_revert_renders_it_again(game, capsys):
    """Issue 28, item 11: `draft KIND` keeps the GM's edit (it stays stale, and says so);
    `draft KIND --revert` drops the edit for a render from now, which is fresh."""
    did = drafted_votecount(capsys, game)
    with Store(game.parent / "s.sqlite") as s:
        s.edit_draft(did, s.draft(did).body + "\nMy own line.", datetime.now(timezone.utc))
    new_posts(game, ("Dan", "[b]vote: Eve[/b]"))
    rc, out, _ = cli(capsys, "draft", "votecount", game)
    assert f"draft {did}:" in out and "[stale, edited]" in out and "your edit is kept" in out
    rc, out, _ = cli(capsys, "draft", "votecount", "--revert", "--print", game)
    assert f"draft {did}:" in out and "[fresh]" in out and "My own line." not in out and "(3)" in out
    assert state(capsys, game, did)["state"] == "fresh" and not state(capsys, game, did)["edited"]


def role_pms(capsys, cfg) -> dict[str, int]:
    rc, made = cli_json(capsys, "draft", "role_pm", cfg)
    assert rc == 0
    return {d["target"][3:]: d["id"] for d in made}


def test_the_command_a_stale_refusal_names_renders_that_draft_fresh_again(game, capsys):
    """Issue 34: the advice must be a command that renders that draft (kind, phase, player)."""
    ids = role_pms(capsys, game)
    game.write_text(game.read_text(encoding="utf-8").replace('name = "Bob", role = "town"',
                                                             'name = "Bob", role = "mafia"'), encoding="utf-8")
    rc, out, err = cli(capsys, "publish", str(ids["Bob"]), game)
    assert rc != 0 and "is stale" in err and outbox(game) == []
    advice = err.split("Render it again with '")[1].split("'")[0]
    assert advice == "forummod draft role_pm --to Bob"
    words = shlex.split(advice)[1:]
    assert main([*words, "--config", str(game)]) == 0  # the command as the GM would paste it
    assert state(capsys, game, ids["Bob"])["state"] == "fresh"
    assert state(capsys, game, ids["Ann"])["state"] == "stale"  # her PM names her new partner: not touched
    rc, out, err = cli(capsys, "publish", str(ids["Bob"]), game)
    assert rc == 0 and [r["to"] for r in outbox(game)] == ["Bob"]


def test_a_draft_that_no_longer_applies_is_refused_with_discard_advice_not_a_render_that_cannot_make_it(game, capsys):
    ids = role_pms(capsys, game)
    game.write_text(game.read_text(encoding="utf-8").replace(', { name = "Gus", role = "town" }', ""),
                    encoding="utf-8")  # Gus left before the game began
    rc, out, err = cli(capsys, "publish", str(ids["Gus"]), game)
    assert rc != 0 and outbox(game) == []
    assert "no longer applies" in err and f"discard it with 'forummod discard {ids['Gus']}'" in err
    assert "Render it again" not in err
    rc, out, _ = cli(capsys, "draft", "role_pm", "--to", "Gus", game)  # what the old advice led to
    assert rc == 1 and "no role_pm applies" in out
    rc, out, err = cli(capsys, "discard", str(ids["Gus"]), game)
    assert rc == 0 and state(capsys, game, ids["Gus"])["state"] == "discarded"
