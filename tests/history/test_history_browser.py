"""The vote history, the player page and the post-game archive in a real headless Chromium
(issue 32, item 5): each page read at desktop (1280 px) and phone (390 px) width, screenshots to
$FORUMMOD_ARTIFACTS/history/ (else the test's tmp folder); the charts are drawn with no script
at all (JavaScript switched off in the browser), and the thread's view holds no secret vote.

Needs Debian's `chromium` and `chromium-driver`; skipped without them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forummod.archive_export import export_game
from forummod.console.server import ConsoleServer
from tests.console.test_console_browser import screenshot
from tests.history.demo_game import demo_workspace
from tests.preview.test_browser import _wait_for, chromium_driver

pytestmark = pytest.mark.browser

WIDTHS = (("desktop", 1280), ("phone", 390))


@pytest.fixture
def no_script_browser(tmp_path: Path):
    """Headless Chromium with JavaScript off: what the pages show must need none."""
    driver = chromium_driver(tmp_path / "profile", javascript=False)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    out = Path(os.environ.get("FORUMMOD_ARTIFACTS") or tmp_path / "artifacts") / "history"
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture
def demo_console(tmp_path: Path):
    ws = demo_workspace(tmp_path / "demo")
    server = ConsoleServer(ws).start()
    try:
        yield server, ws
    finally:
        server.stop()
        ws.close()


def chart_box(driver, css: str) -> dict:
    """The drawn chart's size and its wagons' drawn lengths (0 would mean nothing was painted)."""
    return driver.execute_script("""
var svg = document.querySelector(arguments[0]); if (!svg) return null;
var r = svg.getBoundingClientRect();
return {width: r.width, height: r.height,
        wagons: Array.from(svg.querySelectorAll('path.wagon')).map(function (p) {
          return [p.getAttribute('data-candidate'), p.getAttribute('data-final'), p.getTotalLength()]; }),
        hammer: !!svg.querySelector('g.hammer'), majority: !!svg.querySelector('path.majority')};""", css)


def test_the_history_pages_read_at_both_widths_without_script(demo_console, no_script_browser, artifacts):
    from selenium.webdriver.common.by import By

    server, _ = demo_console
    d = no_script_browser
    for view in ("gm", "public"):
        url = f"{server.url.split('/?')[0]}/history?token={server.token}&game=demo" + ("&view=public" if view == "public" else "")
        for name, width in WIDTHS:
            d.set_window_size(width, 900)
            d.get(url)
            _wait_for(d, "#chart-D1")
            assert d.execute_script("return document.documentElement.lang") == "it"
            box = chart_box(d, "#chart-D1")
            assert box["width"] >= 300 and box["height"] > 200, (view, name, box)
            assert all(length > 50 for _, _, length in box["wagons"])
            # the page fits the phone: nothing but the scrollable tables and chart may overflow
            assert d.execute_script("return document.documentElement.scrollWidth") <= width + 1
            screenshot(d, artifacts / f"history-{view}-{name}.png", width)
        finals = {c: f for c, f, _ in box["wagons"]}
        text = d.find_element(By.TAG_NAME, "body").text
        if view == "gm":
            assert finals["Fede"] == "8" and "voto segreto" in text  # LUP-R7: Elio's x3
        else:  # LUP-D11: the thread never sees the Boia's vote or weight
            assert finals["Fede"] == "5" and "voto segreto" not in text and "×3" not in text
            rows = d.find_elements(By.CSS_SELECTOR, "#day-D1 table.history tbody tr")
            assert not [r.text for r in rows if "PM" in r.text]


def test_a_players_page_reads_at_both_widths(demo_console, no_script_browser, artifacts):
    from selenium.webdriver.common.by import By

    server, _ = demo_console
    d = no_script_browser
    url = f"{server.url.split('/?')[0]}/player?token={server.token}&game=demo&name=Elio"
    for name, width in WIDTHS:
        d.set_window_size(width, 900)
        d.get(url)
        _wait_for(d, "#posts")
        assert d.execute_script("return document.documentElement.scrollWidth") <= width + 1
        screenshot(d, artifacts / f"player-{name}.png", width)
    votes = d.find_element(By.ID, "votes").text
    assert "Dora → Fede" in votes and "voto segreto" in votes  # the GM's page shows his secret vote
    assert d.find_elements(By.CSS_SELECTOR, "#counts td")


def test_the_archive_page_reads_at_both_widths_with_nothing_fetched(demo_console, no_script_browser, artifacts,
                                                                    tmp_path):
    _, ws = demo_console
    for public in (False, True):
        r = export_game(ws, "demo", tmp_path / ("public" if public else "full"), public=public, png=False)
        page = next(f for f in r.files if f.suffix == ".html")
        d = no_script_browser
        for name, width in WIDTHS:
            d.set_window_size(width, 900)
            d.get(page.as_uri())
            _wait_for(d, "#roster")
            box = chart_box(d, "#chart-D1")
            assert box["width"] >= 300 and all(length > 50 for _, _, length in box["wagons"])
            assert d.execute_script("return document.documentElement.scrollWidth") <= width + 1
            # nothing external: every resource the page loaded is the page itself
            loaded = d.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
            assert loaded == []
            screenshot(d, artifacts / f"archive-{'public' if public else 'full'}-{name}.png", width)
        finals = {c: f for c, f, _ in box["wagons"]}
        assert finals["Fede"] == ("5" if public else "8")
