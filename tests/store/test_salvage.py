"""The way back from a damaged store (issue 34): `store check` says it is damaged, `store
salvage` copies every row SQLite can still read into a new store and says what was lost, the
copy passes `store check`, and once in place the next poll fetches the posts it lacks.

Real files and real SQLite; the damage is garbage written into the file's bytes.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.adapter_records import RawPost
from forummod.cli import main
from forummod.errors import StoreDamaged, StoreError
from forummod.store import Store
from forummod.store_file import check_file
from forummod.store_salvage import salvage

from tests.archive_game import archive_config, players_toml, write_posts

T = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def rows(path: Path, table: str) -> set[tuple]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return set(map(tuple, db.execute(f"SELECT * FROM {table}")))
    finally:
        db.close()


def spoil(path: Path, at: float, size: int = 8192) -> None:
    with open(path, "r+b") as f:
        f.seek(int(os.path.getsize(path) * at))
        f.write(bytes((i * 7919) % 251 for i in range(size)))


@pytest.fixture
def damaged(tmp_path) -> tuple[Path, Path]:
    """A store of 400 posts and a GM log, and a copy of it with garbage in the middle."""
    good = tmp_path / "good.sqlite"
    with Store(good) as s:
        s.save_posts("f", "t", [RawPost(post_id=str(i), author="Ann", created_at=T + timedelta(minutes=i),
                                        html=f"<p>{'words ' * 150}{i}</p>", number=i, page=1 + i // 25)
                                for i in range(1, 401)], T)
        for i in range(5):
            s.append_event("g", T, "note", {"text": f"ruling {i}"})
    bad = tmp_path / "s.sqlite"
    bad.write_bytes(good.read_bytes())
    spoil(bad, 0.5)
    return good, bad


def test_salvage_copies_every_readable_row_past_the_damage_and_leaves_the_damaged_file_alone(damaged, tmp_path):
    good, bad = damaged
    before = bad.read_bytes()
    done = salvage(bad, tmp_path / "copy.sqlite")
    assert bad.read_bytes() == before
    assert done.problems == () and check_file(done.copy)[1] == []  # the copy is a sound store
    by = {t.table: t for t in done.tables}
    posts = rows(done.copy, "posts")
    assert posts <= rows(good, "posts")  # nothing made up from garbage
    assert by["posts"].copied == len(posts) and by["posts"].skipped and len(posts) < 400  # the damage hit posts
    assert len(posts) >= 380  # and only the rows on the damaged pages are lost
    assert rows(done.copy, "events") == rows(good, "events")  # the GM log's pages were not hit: all of it
    assert by["cursors"].left_out and not rows(done.copy, "cursors")  # posts lost: the next poll reads them again
    assert not done.complete


def test_salvage_of_an_undamaged_store_copies_everything(damaged, tmp_path):
    good, _ = damaged
    done = salvage(good, tmp_path / "copy.sqlite")
    assert done.complete and done.problems == ()
    for table in ("posts", "post_status", "events", "meta"):
        if table != "meta":
            assert rows(done.copy, table) == rows(good, table)


def test_salvage_writes_no_copy_over_a_file_and_nothing_from_an_empty_one(damaged, tmp_path):
    _, bad = damaged
    (tmp_path / "copy.sqlite").write_text("mine")
    with pytest.raises(StoreError, match="exists already"):
        salvage(bad, tmp_path / "copy.sqlite")
    assert (tmp_path / "copy.sqlite").read_text() == "mine"
    (tmp_path / "empty.sqlite").write_bytes(b"")
    with pytest.raises(StoreDamaged, match="nothing to salvage"):
        salvage(tmp_path / "empty.sqlite", tmp_path / "other.sqlite")
    assert not (tmp_path / "other.sqlite").exists()


def test_from_refusal_to_a_working_store_by_the_commands_the_advice_names(tmp_path, capsys):
    """The whole way, as the GM walks it: a command refuses the damaged store naming `store
    salvage`; the salvage reports the loss; `store check` passes the copy; the copy moved into
    place, the next poll fetches the lost posts and the count is whole again."""
    posts = [("Mod", "Day 1 begins")] + [("Ann" if i % 2 else "Bob", f"[b]vote: Cat[/b] {'words ' * 150}")
                                          for i in range(300)]
    write_posts(tmp_path, posts, T, timedelta(minutes=1))
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat"]), tables=(
        f'[games.g.schedule]\nstart = "{(T - timedelta(hours=1)).isoformat()}"\n')), encoding="utf-8")
    assert main(["poll", "--config", str(cfg), "-q"]) == 0
    assert main(["gm", "note", "a ruling", "--config", str(cfg), "-q"]) == 0
    store = tmp_path / "s.sqlite"
    with Store(store, readonly=True) as s:
        log = s.events("g")
    spoil(store, 0.5)
    capsys.readouterr()

    assert main(["store", "check", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert "damaged" in out and "forummod store salvage" in out and "Do not delete it" in out
    assert main(["publish", "1", "--config", str(cfg)]) == 2  # a send checks the store first
    assert "store salvage" in capsys.readouterr().err

    assert main(["store", "salvage", "--config", str(cfg)]) == 1  # rows were lost: exit 1, and said
    out = capsys.readouterr().out
    copy = tmp_path / "s.sqlite.salvaged"
    assert "damaged stretch(es) skipped" in out and f"forummod store check {copy}" in out
    assert main(["store", "check", str(copy)]) == 0
    assert "sound" in capsys.readouterr().out

    store.rename(tmp_path / "s.sqlite.damaged")  # as the report says: keep it, put the copy in place
    copy.rename(store)
    assert main(["poll", "--config", str(cfg)]) == 0  # no cursor: the thread is read again
    lost = int(capsys.readouterr().out.split("g: ")[1].split(" new posts")[0])
    assert lost > 0  # the posts on the damaged pages, fetched again
    with Store(store) as s:
        assert s.post_count("a", "game") == 301 and s.events("g") == log
    assert main(["tally", "--config", str(cfg), "--json", "--now", (T + timedelta(hours=6)).isoformat()]) == 0
    tally = json.loads(capsys.readouterr().out)["tally"]
    assert [(c["name"], c["total"]) for c in tally["candidates"]] == [("Cat", 2)]  # Ann and Bob, as before
