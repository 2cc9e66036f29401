"""The console and the drafts section speak the game's language: every label of their own comes
from the gettext catalogs (msgctxt `console` / `preview`), and every catalog carries them all."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from forummod.console.server import ConsoleServer
from forummod.drafting import refresh_drafts
from forummod.preview.server import PreviewServer
from forummod.render.catalog import available_languages, catalog
from forummod.service import analyse_game
from tests.console.conftest import AMBIGUOUS
from tests.preview.test_server import post, request
from tests.render.game import at, day_one

ROOT = Path(__file__).resolve().parents[2]

#: The main English labels of the console and the drafts section: none may show on an Italian page.
ENGLISH = ["Poll now", "Phase and deadlines", "Vote closes", "Waiting for your decision", "Corrections",
           "Set or fix a vote", "Enter a night action", "Replace a player", "Extend the phase", "End the phase",
           "Write a note into the log", "Check…", "Night actions received", "Drafts", "Your decisions",
           "Publish…", "Discard", "Edit", "Copy the text", "Copy with its marker", "Save my version",
           "Preview (not saved)", "Yes, publish", "Published and discarded", "Drafts of earlier phases",
           "Raw bbcode text", "updated", "edited by you", "Nothing to send now"]


def italian_game(root: Path):
    g = day_one(root, language="it")
    g.post("Fay", 5.5, AMBIGUOUS)
    g.now = at(6)
    ws = g.workspace()
    refresh_drafts(ws, "g", analyse_game(ws, "g", now=at(6)))
    return ws


def text_of(page: str) -> str:
    soup = BeautifulSoup(page, "html.parser")
    for tag in soup(["script", "style"]):
        tag.decompose()
    words = [soup.get_text(" ")]
    words += [e["aria-label"] for e in soup.select("[aria-label]")]
    return " ".join(words)


@pytest.fixture
def served(tmp_path: Path):
    ws = italian_game(tmp_path)
    server = ConsoleServer(ws).start()
    try:
        yield server
    finally:
        server.stop()
        ws.close()


def console_page(server) -> str:
    status, _, body = request(server, "GET", f"/?token={server.token}&game=g")
    assert status == 200
    return body


def test_an_italian_games_console_and_drafts_read_in_italian(served):
    page = console_page(served)
    assert '<html lang="it"' in page
    text = text_of(page)
    for italian in ("Aggiorna ora", "Fase e scadenze", "Correzioni", "Imposta o correggi un voto", "Bozze",
                    "Pubblica…", "Scarta", "Modifica", "Salva la mia versione", "Anteprima (non salvata)"):
        assert italian in text, italian
    left = [label for label in ENGLISH if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text)]
    assert left == []
    soup = BeautifulSoup(page, "html.parser")
    states = {s.get_text() for s in soup.select("#drafts .status")}
    assert states and states <= {catalog("it").gettext(s, "preview") for s in ("fresh", "stale", "parts")}
    assert "fresh" not in states


def test_an_italian_games_confirmation_and_messages_are_italian(served):
    status, _, body = post(served, "/gm/note", game="g", text="Eve chiede tempo")
    assert status == 200 and "Sì, registralo" in body and "Annulla" in body and "Yes, record it" not in body
    assert post(served, "/gm/set-vote", game="g", voter="Zed", target="Ann", confirm="1")[0] == 303
    flash = html.unescape(re.search(r'id="flash"[^>]*>(.*?)</p>', console_page(served), re.S).group(1))
    assert flash.startswith("Non fatto: ") and "Not done" not in flash
    assert post(served, "/gm/note", game="g", text="Eve chiede tempo", confirm="1")[0] == 303
    assert "Registrato #" in console_page(served)


def test_the_preview_page_of_an_italian_game_is_italian(tmp_path: Path):
    ws = italian_game(tmp_path)
    server = PreviewServer(ws).start()
    try:
        status, _, page = request(server, "GET", f"/?token={server.token}")
    finally:
        server.stop()
        ws.close()
    assert status == 200 and '<html lang="it"' in page
    text = text_of(page)
    assert "Rigenera le bozze dall'ultimo aggiornamento" in text and "Scarta" in text
    assert [label for label in ENGLISH if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text)] == []


def page_messages() -> set[tuple[str, str]]:
    from forummod.render.catalog_tools import extract

    return {(m.context, m.id) for m in extract(ROOT) if m.context in ("console", "preview")}


def test_the_extraction_finds_the_console_and_drafts_section_labels():
    found = page_messages()
    assert ("console", "Poll now") in found and ("preview", "Discard") in found
    assert ("preview", "Published and discarded: %(n)s") in found  # a template call with keywords
    assert ("preview", "Send (%(where)s)") in found  # a call in the page's code
    from forummod.draft_state import State

    assert {("preview", s.value) for s in State} <= found  # every state name the page shows


@pytest.mark.parametrize("lang", available_languages())
def test_every_console_and_drafts_section_label_is_in_every_catalog(lang):
    cat = catalog(lang)
    missing = sorted(msgid for ctx, msgid in page_messages() if not cat.has(msgid, ctx))
    assert missing == []
    placeholders = re.compile(r"%\(\w+\)s")
    wrong = [msgid for ctx, msgid in page_messages()
             if sorted(placeholders.findall(cat.gettext(msgid, ctx))) != sorted(placeholders.findall(msgid))]
    assert wrong == []


def test_the_copy_scripts_messages_are_the_pages_language(served):
    """The script's own words (Copied., Not recorded: …) come from the page, so they follow its language."""
    soup = BeautifulSoup(console_page(served), "html.parser")
    drafts = soup.select_one("div#drafts")
    assert drafts["data-copied"] == "Copiato." and drafts["data-not-recorded"] == "Non registrato: "


def test_an_italian_games_gm_confirmations_are_italian_and_in_the_games_zone(served):
    """Issue 28, item 10: the console's confirmations were English with times in UTC."""
    status, _, body = post(served, "/gm/extend", game="g", phase="D1", until="2026-01-07T12:00", close="")
    assert status == 200
    what = html.unescape(re.search(r'id="confirm-what"[^>]*>(.*?)</', body, re.S).group(1))
    assert what.startswith("Giorno 1: fine spostata a 2026-01-07 12:00 CET") and "UTC" not in what, what
    assert post(served, "/gm/extend", game="g", phase="D1", until="2026-01-07T12:00", close="", confirm="1")[0] == 303
    flash = html.unescape(re.search(r'id="flash"[^>]*>(.*?)</p>', console_page(served), re.S).group(1))
    assert "Registrato #" in flash and "fine spostata a 2026-01-07 12:00 CET" in flash and "moved" not in flash
