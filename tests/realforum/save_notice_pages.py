"""Save the notice pages of the real phpBB, MyBB and SMF (issue 34, item 8) as offline fixtures.

    .venv/bin/python -m tests.realforum.save_notice_pages [--out DIR]

Each engine runs with the harness (the cached install and seed) and is asked, as a guest, for a
topic that does not exist, the game thread with the board closed for maintenance (the engine's
own setting, with a reason of ours), the game thread with a table of its database gone (its SQL
error page) and its login page. The pages go to tests/forum/fixtures/notice_pages/<engine>-<kind>.html
with `manifest.json` (the URL path and the HTTP status of each). What changes from run to run is
made fixed: the port becomes 8000, session ids, form tokens and session variables fixed values.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

import requests

from .harness import EngineUnavailable
from .mybb_engine import MyBBForum
from .phpbb_engine import PhpBBForum
from .smf_engine import SmfForum

OUT = Path(__file__).resolve().parents[1] / "forum" / "fixtures" / "notice_pages"
REASON = "Manutenzione del database: si riapre stasera alle 21."
FIXED_PORT = 8000


def scrub(html: str, port: int) -> str:
    html = html.replace(f"127.0.0.1:{port}", f"127.0.0.1:{FIXED_PORT}")
    html = re.sub(r"\bsid(=|&#x3D;)[0-9a-f]{32}", lambda m: "sid" + m.group(1) + "0" * 32, html)
    html = re.sub(r"PHPSESSID=[0-9a-z]+", "PHPSESSID=fixed", html)
    html = re.sub(r'(name="(?:form_token|creation_time|my_post_key|sid)" value=")[^"]*"', r'\1fixed"', html)
    html = re.sub(r'(name="(?:my_post_key|sid)" type="hidden" value=")[^"]*"', r'\1fixed"', html)
    html = re.sub(r'(my_post_key = ")[0-9a-f]+"', r'\1fixed"', html)
    html = re.sub(r'(smf_session_(?:id|var) = ")[^"]*"', r'\1fixed"', html)
    html = re.sub(r'<input type="hidden" name="[0-9a-f]{6,}" value="[0-9a-f]{32}"', '<input type="hidden" name="fixed" value="fixed"', html)
    return re.sub(r"(Current time: )[^<]+", r"\1fixed", html)


def save(forum, out: Path) -> dict:
    found: dict[str, dict] = {}

    def fetch(kind: str, url: str) -> None:
        r = requests.get(url, timeout=60)
        name = f"{forum.engine}-{kind}.html"
        (out / name).write_text(scrub(r.text, forum.port), encoding="utf-8")
        found[name] = {"engine": f"{forum.engine} {forum.version}", "url": url.replace(forum.base_url, "/"),
                       "status": r.status_code}
        print(f"  {name}: HTTP {r.status_code}, {len(r.text)} bytes")

    fetch("not-found", forum.missing_thread_url())
    forum.close_board(REASON)
    fetch("closed", forum.thread_url())
    forum.reset()
    forum.break_database()
    fetch("sql-error", forum.thread_url())
    forum.reset()
    fetch("login", forum.url(forum.login_path))
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, dict] = {}
    for cls in (PhpBBForum, MyBBForum, SmfForum):
        with tempfile.TemporaryDirectory(prefix=f"realforum-notices-{cls.engine}-") as tmp:
            forum = cls(Path(tmp) / "run")
            try:
                forum.prepare()
            except EngineUnavailable as e:
                print(f"{cls.engine}: unavailable: {e}", file=sys.stderr)
                continue
            try:
                print(f"{forum.engine} at {forum.base_url}")
                manifest.update(save(forum, args.out))
            finally:
                forum.close()
    (args.out / "manifest.json").write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n",
                                            encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
