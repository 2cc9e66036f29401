"""The browser never sees the page's token on its command line (issue 34, item 6): `preview` and
`console` hand it a private file (0600, in a folder only the GM may enter) that forwards to the
tokenised URL, as notebook servers do; any local user can read a process's arguments.

A fake browser (the `BROWSER` command Python's webbrowser runs) records its arguments, follows
the file's forward to the running server and gets the page."""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forummod.preview.launch import redirect_page, write_redirect
from tests.render.game import day_one

FAKE_BROWSER = """#!{python}
import json, re, sys, urllib.parse, urllib.request
uri = sys.argv[1]
path = urllib.parse.unquote(urllib.parse.urlsplit(uri).path)
page = open(path, encoding="utf-8").read()
target = re.search(r'content="0;url=([^"]+)"', page).group(1).replace("&amp;", "&")
with urllib.request.urlopen(target, timeout=10) as r:
    status, body = r.status, r.read().decode("utf-8")
json.dump({{"argv": sys.argv, "file": path, "status": status, "page": body[:3000]}}, open({out!r}, "w"))
"""


def wait_for(path: Path, proc: subprocess.Popen, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "the browser was not started"
        time.sleep(0.05)
    time.sleep(0.1)  # the fake browser finished writing


@pytest.mark.parametrize("command", ["preview", "console"])
def test_the_browser_gets_a_private_file_never_the_token(tmp_path: Path, command):
    config = day_one(tmp_path).write()
    out = tmp_path / "browser.json"
    browser = tmp_path / "fake-browser"
    browser.write_text(FAKE_BROWSER.format(python=sys.executable, out=str(out)), encoding="utf-8")
    browser.chmod(0o700)
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "BROWSER": f"{browser} %s", "XDG_RUNTIME_DIR": str(runtime)}
    proc = subprocess.Popen([sys.executable, "-m", "forummod", command, "--config", str(config)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        printed = proc.stdout.readline()
        wait_for(out, proc)
        seen = json.loads(out.read_text(encoding="utf-8"))
        redirect = Path(seen["file"])
        assert redirect.exists() and redirect.parent == runtime / "forummod"
        assert stat.S_IMODE(redirect.stat().st_mode) == 0o600
        assert stat.S_IMODE(redirect.parent.stat().st_mode) == 0o700
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C: the command stops its server
        rest, err = proc.communicate(timeout=30)
    token = re.search(r"\?token=([\w-]+)", printed).group(1)  # the terminal shows the URL, as the README says
    assert seen["argv"][1:] == [redirect.as_uri()]
    assert token not in " ".join(seen["argv"])
    assert seen["status"] == 200 and "<html" in seen["page"]  # the file led the browser to the page
    assert proc.returncode == 0 and f"{command} stopped" in rest, err
    assert not redirect.exists()  # gone with the server


def test_the_redirect_file_is_owner_only_whatever_the_umask_and_escapes_the_url(tmp_path: Path):
    folder = tmp_path / "private"
    folder.mkdir(mode=0o700)
    old = os.umask(0)
    try:
        path = write_redirect('http://127.0.0.1:8000/?token=a"b<c', "forummod preview", folder)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text(encoding="utf-8")
    assert text == redirect_page('http://127.0.0.1:8000/?token=a"b<c', "forummod preview")
    assert 'url=http://127.0.0.1:8000/?token=a&quot;b&lt;c"' in text and 'a"b<c' not in text
