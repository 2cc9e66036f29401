"""The preview page in a real headless Chromium: rendering, no injected script, publish once.

Needs Debian's `chromium` and `chromium-driver` (installed by `.ci/run`); skipped without them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.preview.conftest import HOSTILE_POST

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


def chromium_driver(profile: Path, *, javascript: bool = True):
    """Debian's headless Chromium through its driver, with a profile of its own (the test skips
    where the packages are missing); `javascript=False` for pages that must need none."""
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("headless Chromium not installed: apt-get install -y chromium chromium-driver")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    if not javascript:
        opts.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture
def browser(tmp_path: Path):
    profile = tmp_path / "chromium-profile"
    driver = chromium_driver(profile)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _wait_for(driver, css: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def test_preview_renders_drafts_safely_and_publishes_one_exactly_once(served, browser):
    from selenium.webdriver.common.by import By

    server, ws, ids, outbox = served
    vc = ids[("votecount", "thread")]
    pasted = ids[("role_pm", "Cat")]
    ws.store.edit_draft(pasted, HOSTILE_POST, ws.clock())  # the GM pasted a hostile post into a draft

    browser.get(server.url)
    _wait_for(browser, f"#draft-{vc}")

    # rendered as the forum would show it: BBCode became HTML
    rendered = browser.find_element(By.CSS_SELECTOR, f"#draft-{vc} .rendered")
    assert [e.text for e in rendered.find_elements(By.TAG_NAME, "strong")][:2] == ["Vote Count — Day 1", "Ann"]
    assert "<script>alert(1)</script>" in rendered.text  # a player's name, shown as text

    # nothing injected ran or became active
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    from forummod.preview.page import DRAFTS_JS

    scripts = browser.execute_script("return Array.from(document.scripts, s => [s.src, s.text])")
    assert scripts == [["", DRAFTS_JS]]  # the page's own script, no other
    assert browser.find_elements(By.CSS_SELECTOR, "img[onerror], [onerror], a[href^='javascript']") == []
    hostile = browser.find_element(By.CSS_SELECTOR, f"#draft-{pasted} .rendered")
    assert "window.__pwned=4" in hostile.text
    raw = browser.find_element(By.CSS_SELECTOR, f"#draft-{pasted} textarea.raw")
    assert raw.get_attribute("value") == HOSTILE_POST  # the raw markup to copy, intact

    # GM notes quote the hostile post; it is text there too
    notes = browser.find_element(By.CSS_SELECTOR, f"#draft-{ids[('warnings', 'gm')]} .rendered")
    assert "<script>window.__pwned=1</script>" in notes.text
    assert browser.find_elements(By.ID, f"publish-{ids[('warnings', 'gm')]}") == []

    # publish the vote count from the page: Publish… asks first
    assert not browser.find_element(By.ID, f"publish-{vc}").is_displayed()
    browser.find_element(By.ID, f"ask-publish-{vc}").click()
    browser.find_element(By.ID, f"publish-{vc}").click()
    flash = _wait_for(browser, "#flash")
    assert f"Draft {vc} published" in flash.text
    assert browser.find_element(By.CSS_SELECTOR, f"#draft-{vc}").get_attribute("data-status") == "published"
    assert browser.find_elements(By.ID, f"publish-{vc}") == []
    browser.refresh()
    _wait_for(browser, f"#draft-{vc}")
    assert browser.execute_script("return typeof window.__pwned") == "undefined"

    [row] = outbox()
    assert row["kind"] == "reply" and row["bbcode"].startswith("[b]Vote Count — Day 1[/b]")
    assert ws.store.publication(vc).state == "sent" and ws.store.publication(vc).remote_id == row["id"]


def test_a_form_on_another_site_cannot_publish_even_with_the_token(served, browser, tmp_path: Path):
    """Another origin (here another local port) posting a form at the preview gets 403."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from selenium.webdriver.common.by import By

    server, ws, ids, outbox = served
    vc = ids[("votecount", "thread")]
    evil_page = f"""<!doctype html><form id="f" method="post"
        action="http://127.0.0.1:{server.port}/drafts/{vc}/publish">
        <input name="token" value="{server.token}"></form>
        <script>document.getElementById('f').submit()</script>"""

    class Evil(BaseHTTPRequestHandler):
        def do_GET(self):
            data = evil_page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *a):
            pass

    evil = ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    evil.daemon_threads = True  # an idle preconnection from the browser must not block shutdown
    t = threading.Thread(target=evil.serve_forever, daemon=True)
    t.start()
    try:
        browser.get(f"http://127.0.0.1:{evil.server_address[1]}/")
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.support.ui import WebDriverWait

        # the evil page sends its form at once: while Chromium navigates, the body read can meet
        # the unloading page (a stale node or an inspector error), so those are asked again
        WebDriverWait(browser, 30, ignored_exceptions=(WebDriverException,)).until(
            lambda d: "cross-site request refused" in d.find_element(By.TAG_NAME, "body").text)
    finally:
        evil.shutdown()
        evil.server_close()
    assert outbox() == [] and ws.store.draft(vc).status == "draft"


def _clipboard(browser) -> str:
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.clipboard.readText().then(done, e => done('ERROR ' + e));")


def test_copy_takes_the_text_with_its_marker_and_the_live_preview_follows_the_edit(served, browser):
    """Issue 15, item 4: one click copies exactly what the forum must get (marker included, so
    the next poll recognises a post made by hand); typing in the editor re-renders the draft as
    the forum will show it, through the same-origin preview route, without saving."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    server, ws, ids, outbox = served
    vc = ids[("votecount", "thread")]
    pm = ids[("role_pm", "Cat")]
    origin = f"http://127.0.0.1:{server.port}"
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": [
        "clipboardReadWrite", "clipboardSanitizedWrite"]})
    browser.get(server.url)
    _wait_for(browser, f"#draft-{vc}")

    browser.find_element(By.CSS_SELECTOR, f"#draft-{vc} details.raw-box > summary").click()
    browser.find_element(By.ID, f"by-hand-{vc}").click()
    WebDriverWait(browser, 30).until(lambda d: "Copied with its marker" in d.find_element(By.ID, f"copied-{vc}").text)
    pub = ws.store.publication(vc)
    expected = ws.store.draft(vc).body.rstrip("\n") + f"\n[size=1]{pub.marker}[/size]\n"
    assert _clipboard(browser) == expected and pub.state == "uncertain" and outbox() == []

    browser.refresh()  # now the card holds the marked text; its plain copy button copies it again
    _wait_for(browser, f"#copy-{vc}")
    browser.execute_async_script("navigator.clipboard.writeText('other').then(arguments[arguments.length - 1])")
    browser.find_element(By.CSS_SELECTOR, f"#draft-{vc} details.raw-box > summary").click()
    copy = browser.find_element(By.ID, f"copy-{vc}")
    assert copy.is_displayed()
    copy.click()
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, f"copied-{vc}").text == "Copied.")
    assert _clipboard(browser) == expected

    before = ws.store.draft(pm)
    browser.find_element(By.CSS_SELECTOR, f"#draft-{pm} details.edit > summary").click()
    area = browser.find_element(By.ID, f"body-{pm}")
    area.clear()
    area.send_keys("[b]Live words[/b] and [i]more[/i]")
    live = f"#live-{pm}"
    WebDriverWait(browser, 30).until(
        lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, f"{live} strong")] == ["Live words"])
    assert browser.find_element(By.CSS_SELECTOR, live).get_attribute("data-state") == "live"
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, f"{live} em")] == ["more"]
    assert ws.store.draft(pm).body == before.body and not ws.store.draft(pm).edited_by_gm  # nothing saved
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
