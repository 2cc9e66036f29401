"""The console in a real headless Chromium: a GM's day driven through the page.

Poll a new post and see the vote count draft turn stale, re-render, edit and publish it,
correct a vote, approve the hammer's lynch; screenshots at desktop (1280 px) and phone (390 px)
widths go to $FORUMMOD_ARTIFACTS (else the test's tmp folder); accessibility: the page's lang is
the game's, every form field has a label, every button's text has 4.5:1 contrast.

Needs Debian's `chromium` and `chromium-driver` (installed by `.ci/run`); skipped without them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.preview.test_browser import _wait_for, browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser

#: Every visible form field without a label (for=, an enclosing <label>, aria-label, aria-labelledby).
UNLABELLED_JS = """
var root = arguments[0] ? document.querySelector(arguments[0]) : document;
return Array.from(root.querySelectorAll('input, select, textarea')).filter(function (e) {
  if (e.type === 'hidden') return false;
  if (e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || e.closest('label')) return false;
  return !(e.id && document.querySelector('label[for="' + e.id + '"]'));
}).map(function (e) { return e.outerHTML.slice(0, 120); });
"""

#: (text colour, background colour, label) of every button, the background taken from the first
#: ancestor that paints one.
BUTTON_COLOURS_JS = """
function bg(e) {
  for (; e; e = e.parentElement) {
    var c = getComputedStyle(e).backgroundColor;
    if (c && c !== 'transparent' && !/rgba\\(.*,\\s*0\\)$/.test(c)) return c;
  }
  return 'rgb(255, 255, 255)';
}
return Array.from(document.querySelectorAll('button, summary.publish')).map(function (b) {
  return [getComputedStyle(b).color, bg(b), (b.id || b.textContent).trim().slice(0, 40)];
});
"""


def _rgb(css: str) -> tuple[float, ...]:
    inside = css[css.index("(") + 1:css.index(")")]
    return tuple(float(x) for x in inside.split(",")[:3])


def luminance(css: str) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(css))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, bg: str) -> float:
    """WCAG 2 contrast ratio of two computed colours."""
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_is_computed_as_wcag_defines_it():
    assert round(contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)"), 1) == 21.0
    assert round(contrast("rgb(255, 255, 255)", "rgb(119, 119, 119)"), 2) == 4.48


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    out = Path(os.environ.get("FORUMMOD_ARTIFACTS") or tmp_path / "artifacts") / "console"
    out.mkdir(parents=True, exist_ok=True)
    return out


#: Elements of the open page that are cut off: wider than the viewport, or scrolling (or hiding)
#: their own text sideways. Text in a closed <details> and the edit boxes are left out.
CLIPPED_JS = """
const out = [], width = document.documentElement.clientWidth;
for (const el of document.querySelectorAll('body *')) {
  if (el.closest('details:not([open]) > :not(summary)') || el.closest('textarea, select')) continue;
  const r = el.getBoundingClientRect(), st = getComputedStyle(el);
  if (!r.width || st.visibility === 'hidden') continue;
  const scrolls = ['auto', 'scroll', 'hidden'].includes(st.overflowX) && el.scrollWidth > el.clientWidth + 1;
  if (r.right > width + 1 || scrolls) out.push(el.tagName + '#' + el.id + '.' + el.className + ': ' + el.textContent.slice(0, 60));
}
return out.slice(0, 12);
"""


def screenshot(driver, path: Path, width: int) -> None:
    """The whole page at `width` CSS pixels (the window grown to the page's height)."""
    driver.set_window_size(width, 900)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(int(height) + 120, 12000))
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000


def check_accessibility(driver, lang: str) -> None:
    assert driver.find_element("css selector", "html").get_attribute("lang") == lang
    for part in ("#votecount", "#phase", "#pending", "#notes", "#corrections", "#night", "#prod", "#drafts", "body > .topbar"):
        assert driver.execute_script(UNLABELLED_JS, part) == [], part
    colours = driver.execute_script(BUTTON_COLOURS_JS)
    checked = {label for _, _, label in colours}
    assert {"poll", "ask-publish", "publish", "discard", "by-hand"} <= {x.rsplit("-", 1)[0] for x in checked}, \
        checked  # the drafts section's buttons are measured too, on the console's backgrounds
    low = [(label, round(contrast(fg, bg), 2)) for fg, bg, label in colours if contrast(fg, bg) < 4.5]
    assert low == []


def _shows(driver, css: str, text: str) -> str:
    """Wait until `css` holds `text`: after a click the previous page (and its flash) stays in
    the window until the next one loads, so a mere presence check can read the old message."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))
    return driver.find_element(By.CSS_SELECTOR, css).text


def _click(driver, css: str):
    el = _wait_for(driver, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    el.click()
    return el


def _submit(driver, css: str) -> None:
    """Click a button that sends a form and wait until the next page replaced this one: until
    then the old page (its flash, its draft cards) is still what the driver would read."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    old = driver.find_element(By.TAG_NAME, "html")
    _click(driver, css)
    WebDriverWait(driver, 30).until(lambda _driver: _is_gone(old))


def _is_gone(element) -> bool:
    """Whether the page that held `element` has been replaced. Chromium reports a node of the
    unloaded page either as a stale reference or, in the middle of the navigation, as an
    inspector error "Node with given id does not belong to the document" (a plain
    WebDriverException): both mean the old document is gone; any other error is asked again."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    try:
        element.is_enabled()
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        if "does not belong to the document" in str(error):
            return True
        return False
    return False


def test_a_gms_day_in_the_console(console, browser, artifacts):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    server, ws, g, outbox = console
    vc = next(r.id for r in ws.store.drafts("g") if r.kind == "votecount")
    browser.set_window_size(1280, 900)
    browser.get(server.url)
    _wait_for(browser, "#votecount")
    assert browser.find_element(By.CSS_SELECTOR, '#votecount tr[data-candidate="Ann"]').get_attribute("data-mark") \
        == "l_minus_1"
    left = browser.find_element(By.CSS_SELECTOR, "#deadline-phase_end .left").text
    assert left.startswith("in ") and "min" in left  # the countdown, rewritten by the page's script
    check_accessibility(browser, "en")
    screenshot(browser, artifacts / "console-desktop.png", 1280)
    screenshot(browser, artifacts / "console-narrow.png", 390)
    check_accessibility(browser, "en")
    browser.set_window_size(1280, 900)

    # a new post arrives; Poll now fetches it and the vote count draft is stale
    g.vote("Fay", "Bob", 5.8).write()
    _submit(browser, "#poll")
    assert "1 new post" in _shows(browser, "#flash", "1 new post")
    assert browser.find_element(By.ID, f"draft-{vc}").get_attribute("data-state") == "stale"
    assert browser.find_element(By.ID, f"stale-{vc}").is_displayed()
    screenshot(browser, artifacts / "console-stale-desktop.png", 1280)
    browser.set_window_size(1280, 900)

    # re-render, edit and publish the vote count
    _submit(browser, "#refresh")
    _wait_for(browser, "#flash")
    vc = next(r.id for r in ws.store.drafts("g", status="draft") if r.kind == "votecount")
    assert browser.find_element(By.ID, f"draft-{vc}").get_attribute("data-state") == "fresh"
    section = browser.find_element(By.ID, f"draft-{vc}")
    edit = next(d for d in section.find_elements(By.TAG_NAME, "details")
                if d.find_elements(By.CSS_SELECTOR, "textarea[name=body]"))
    edit.find_element(By.TAG_NAME, "summary").click()
    box = edit.find_element(By.CSS_SELECTOR, "textarea[name=body]")
    box.clear()
    box.send_keys("[b]Vote count — Day 1[/b]\nAnn 4, Bob 2. Checked by hand.")
    _submit(browser, f"#save-{vc}")
    assert "is saved" in _shows(browser, "#flash", "is saved")
    _click(browser, f"#ask-publish-{vc}")
    _submit(browser, f"#publish-{vc}")
    assert f"Draft {vc} published" in _shows(browser, "#flash", f"Draft {vc} published")
    [sent] = outbox()
    assert sent["bbcode"].startswith("[b]Vote count — Day 1[/b]\nAnn 4, Bob 2. Checked by hand.")

    # correct a vote: Fay meant Ann; that is the hammer
    _click(browser, "#fix-vote summary")
    Select(browser.find_element(By.ID, "sv-voter")).select_by_visible_text("Fay")
    Select(browser.find_element(By.ID, "sv-target")).select_by_visible_text("Ann")
    _submit(browser, "#sv-go")
    assert "Fay now votes Ann" in _shows(browser, "#confirm-what", "Fay now votes Ann")
    check_accessibility_confirm = browser.find_element(By.CSS_SELECTOR, "html").get_attribute("lang")
    assert check_accessibility_confirm == "en"
    screenshot(browser, artifacts / "console-confirm-narrow.png", 390)
    browser.set_window_size(1280, 900)
    _submit(browser, "#confirm")
    assert "Recorded #" in _shows(browser, "#flash", "Recorded #")
    assert browser.find_element(By.CSS_SELECTOR, '#votecount tr[data-candidate="Ann"]').get_attribute("data-mark") \
        == "hammer"

    # a proposal waits: the page at a phone's width clips no line (issue 28, item 10: command lines were)
    browser.set_window_size(390, 900)
    browser.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = true; })")
    screenshot(browser, artifacts / "console-pending-narrow.png", 390)  # every box open: the GM notes' commands too
    assert browser.execute_script(CLIPPED_JS) == []
    browser.get(server.url)
    browser.set_window_size(1280, 900)

    # approve the lynch the hammer proposes
    _submit(browser, "#approve-lynch-D1")
    assert "lynch:D1 approved" in _shows(browser, "#confirm-what", "lynch:D1 approved")
    _submit(browser, "#confirm")
    assert "lynch:D1 approved" in _shows(browser, "#flash", "lynch:D1 approved")
    assert browser.find_elements(By.ID, "approve-lynch-D1") == []
    assert [(e.kind, e.payload) for e in ws.store.events("g")][-1] == ("decision", {"key": "lynch:D1",
                                                                                    "verdict": "approve"})
    check_accessibility(browser, "en")
    screenshot(browser, artifacts / "console-after-desktop.png", 1280)
    screenshot(browser, artifacts / "console-after-narrow.png", 390)
    from forummod.console.drafts import script_hash

    scripts = browser.execute_script("return Array.from(document.scripts).map(function (s) { return s.textContent; })")
    allowed = server.csp.split("script-src", 1)[1].split(";")[0].split()
    assert scripts and all(script_hash(code) in allowed for code in scripts)  # no script but the page's own


def test_the_console_of_an_italian_game_says_so_in_its_lang(tmp_path: Path, browser, artifacts):  # noqa: F811
    from forummod.console.server import ConsoleServer
    from tests.render.game import at, day_one

    from forummod.drafting import refresh_drafts
    from forummod.service import analyse_game

    g = day_one(tmp_path, language="it")
    g.now = at(6)
    ws = g.workspace()
    refresh_drafts(ws, "g", analyse_game(ws, "g", now=at(6)))  # the drafts section's buttons are measured too
    server = ConsoleServer(ws).start()
    try:
        browser.get(server.url)
        _wait_for(browser, "#votecount")
        check_accessibility(browser, "it")
        assert "Votazione — Giorno 1" in browser.find_element("id", "votecount-h").text
        assert browser.find_element("id", "poll").text == "Aggiorna ora"
        assert browser.find_element("css selector", "#drafts button.discard").text == "Scarta"
        screenshot(browser, artifacts / "console-it-narrow.png", 390)
    finally:
        server.stop()
        ws.close()
