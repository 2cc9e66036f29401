"""`check_store.PostTexts`: the texts the checks quote are remembered in the store by the body's
hash and the extraction code's version, and read again when either changes (issue 17: a cold
check run reads no HTML for the posts it quoted before); the new ones are written once a pass,
whatever their number (issue 30: a write per text made a big game's first check quadratic)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import forummod.checks.words as words
import forummod.extract.saved as saved
from forummod.check_store import PostTexts
from forummod.checks.conduct import check_dead_posts
from forummod.engine.types import Death
from forummod.store import Store

from tests.checks.helpers import ctx, day, h, post, T0

BODY = "<div>I am <b>not</b> dead <blockquote data-fm='quote'>VOTE: Bea</blockquote>, really</div>"


def game(html: str = BODY):
    dead = {"Aldo": Death("D1", "lynch", at=h(2))}
    return ctx(["Aldo", "Bea"], phases=(day(1, T0),), now=h(5), dead=dead,
               game_posts=[post("Aldo", h(3), pid="55", html=html), post("Bea", h(1))])


def quotes(c, texts=None):
    out = [f.quote for f in check_dead_posts(replace(c, texts=texts))]
    if texts is not None:
        texts.save()  # as `check_store.run_checks_saving` does at the end of the checks
    return out


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "s.sqlite") as s:
        yield s


def counting(monkeypatch):
    calls = []
    real = words.post_text

    def post_text(html):
        calls.append(html)
        return real(html)

    monkeypatch.setattr(words, "post_text", post_text)
    return calls


def test_the_quote_is_the_same_and_the_second_run_reads_no_html(store, monkeypatch):
    c = game()
    plain = quotes(c)
    assert plain == ["I am not dead , really"]
    calls = counting(monkeypatch)
    assert quotes(c, PostTexts(store, "g1", h(5))) == plain and calls == [BODY]
    assert store.snapshot("g1", PostTexts.KEY)["code"] == saved.CODE_VERSION
    assert quotes(c, PostTexts(store, "g1", h(5))) == plain and calls == [BODY]  # remembered: no read


def test_an_edited_body_is_read_again(store, monkeypatch):
    quotes(game(), PostTexts(store, "g1", h(5)))
    calls = counting(monkeypatch)
    edited = BODY.replace("really", "truly")
    assert quotes(game(edited), PostTexts(store, "g1", h(5))) == ["I am not dead , truly"] and calls == [edited]
    assert quotes(game(BODY), PostTexts(store, "g1", h(5))) == ["I am not dead , really"] and calls == [edited]


def test_changed_extraction_code_reads_every_body_again(store, monkeypatch):
    quotes(game(), PostTexts(store, "g1", h(5)))
    calls = counting(monkeypatch)
    monkeypatch.setattr(saved, "CODE_VERSION", "another")
    assert quotes(game(), PostTexts(store, "g1", h(5))) == ["I am not dead , really"] and calls == [BODY]


def test_texts_are_kept_per_game(store, monkeypatch):
    quotes(game(), PostTexts(store, "g1", h(5)))
    calls = counting(monkeypatch)
    quotes(game(), PostTexts(store, "g2", h(5)))
    assert calls == [BODY]


def test_a_read_only_store_is_read_and_not_written(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite"
    Store(path).close()
    with Store(path, readonly=True) as ro:
        assert quotes(game(), PostTexts(ro, "g1", h(5))) == ["I am not dead , really"]
    with Store(path) as s:
        assert s.snapshot("g1", PostTexts.KEY) is None


def test_many_new_texts_are_written_once(store, monkeypatch):
    bodies = [BODY.replace("really", f"really {i}") for i in range(40)]
    dead = {"Aldo": Death("D1", "lynch", at=h(2))}
    c = ctx(["Aldo", "Bea"], phases=(day(1, T0),), now=h(5), dead=dead,
            game_posts=[post("Aldo", h(3), pid=str(100 + i), html=b) for i, b in enumerate(bodies)])
    writes = []
    real = store.remember
    monkeypatch.setattr(store, "remember", lambda *a, **kw: writes.append(a[1]) or real(*a, **kw))
    texts = PostTexts(store, "g1", h(5))
    assert len(quotes(c, texts)) == 40
    assert writes == [PostTexts.KEY]  # one write for the 40 texts read
    assert len(store.snapshot("g1", PostTexts.KEY)["texts"]) == 40
    texts.save()
    assert writes == [PostTexts.KEY]  # nothing new since: nothing written


def test_texts_not_saved_are_read_again_next_time(store, monkeypatch):
    c = game()
    [f.quote for f in check_dead_posts(replace(c, texts=PostTexts(store, "g1", h(5))))]  # no save
    assert store.snapshot("g1", PostTexts.KEY) is None
    calls = counting(monkeypatch)
    assert quotes(c, PostTexts(store, "g1", h(5))) == ["I am not dead , really"] and calls == [BODY]
