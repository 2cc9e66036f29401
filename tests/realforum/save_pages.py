"""Save pages of the running, seeded engines as fixtures for fast offline adapter tests.

    .venv/bin/python -m tests.realforum.save_pages [--engine flaskbb|spirit|all] [--out DIR]

Starts each engine with the harness (the cached install and seed; a cold install the first
time), fetches its pages over HTTP and writes them to tests/realforum/pages/<engine>-<name>.html
with `pages/manifest.json`: for every page its URL path, the account it was fetched as, and what
it holds (post ids, authors, UTC times, numbers, edits; conversation ids and messages), taken from
the seed, so an offline test can check a parser against it without a server.

The pages are the project's own seeded content. What would change from run to run is made
fixed: CSRF tokens become "csrf-token-fixed" and the server's port becomes 8000.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from .base import RealForum
from .flaskbb_engine import FlaskBBForum
from .harness import EngineUnavailable
from .spirit_engine import SpiritForum

PAGES = Path(__file__).resolve().parent / "pages"
FIXED_PORT = 8000
ENGINES: dict[str, type[RealForum]] = {"flaskbb": FlaskBBForum, "spirit": SpiritForum}


def scrub(html: str, forum: RealForum) -> str:
    html = html.replace(f"127.0.0.1:{forum.port}", f"127.0.0.1:{FIXED_PORT}")
    html = html.replace(f"127.0.0.1%3A{forum.port}", f"127.0.0.1%3A{FIXED_PORT}")
    html = re.sub(r'(csrfToken:\s*")[^"]+(")', r"\1csrf-token-fixed\2", html)
    html = re.sub(r'(name="(?:csrf_token|csrfmiddlewaretoken)"[^>]*?value=")[^"]+(")', r"\1csrf-token-fixed\2", html)
    html = re.sub(r'(value=")[^"]+("[^>]*?name="(?:csrf_token|csrfmiddlewaretoken)")', r"\1csrf-token-fixed\2", html)
    html = re.sub(r'(<meta name="csrf-token" content=")[^"]+(")', r"\1csrf-token-fixed\2", html)
    return html


def _posts(forum: RealForum, thread: str, page: int | None = None) -> list[dict]:
    return [{"key": p.key, "id": p.id, "number": p.number, "page": p.page, "author": p.author,
             "at": p.at.isoformat(), "edited": p.edited_at is not None,
             "edited_at": p.edited_at.isoformat() if p.edited_at else None}
            for p in forum.seeded_posts(thread) if page is None or p.page == page]


def _conversation(forum: RealForum, key: str) -> dict:
    conv = forum.script.conversation(key)
    return {"key": key, "id": forum.pm_id(key), "subject": conv.subject, "from": conv.sender, "to": conv.recipient,
            "messages": [{"author": m.author, "at": m.at.isoformat(), "body": m.body} for m in conv.messages]}


def page_specs(forum: RealForum) -> list[tuple[str, str, str | None, dict]]:
    """(name, url, account or None for a guest, what the page holds)."""
    gm = forum.gm.name
    tid = forum.thread_id
    specs: list[tuple[str, str, str | None, dict]] = []
    for page in range(1, len(forum.expected_page_sizes()) + 1):
        specs.append((f"thread-page{page}", forum.thread_url(page), None,
                      {"thread_id": tid, "page": page, "pages": len(forum.expected_page_sizes()),
                       "posts": _posts(forum, "game", page)}))
    last = len(forum.expected_page_sizes())
    specs.append((f"thread-page{last}-logged-in", forum.thread_url(last), gm,
                  {"thread_id": tid, "page": last, "posts": _posts(forum, "game", last),
                   "note": "as the GM: carries the reply form"}))
    specs.append(("graveyard", forum.graveyard_url(), None,
                  {"thread_id": forum.graveyard_id, "page": 1, "posts": _posts(forum, "graveyard")}))
    specs.append(("pm-inbox", forum.inbox_url(), gm,
                  {"conversations": [_conversation(forum, c.key) for c in forum.script.conversations]}))
    specs.append(("pm-conversation", forum.conversation_url(forum.pm_id("aldo")), gm, _conversation(forum, "aldo")))
    specs.append(("login", forum.url(forum.login_path), None, {"note": "the login form"}))
    specs.append(("reply-form", forum.url(forum.reply_form_path()), gm, {"note": "the reply form of the game thread"}))
    specs.append(("pm-new-form", forum.url(forum.new_pm_path), gm, {"note": "the form that starts a PM"}))
    return specs


def save(forum: RealForum, out: Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    sessions: dict[str | None, object] = {None: forum.session()}
    manifest = {}
    for name, url, who, holds in page_specs(forum):
        if who not in sessions:
            sessions[who] = forum.login(who)
        r = sessions[who].get(url, timeout=30)  # type: ignore[attr-defined]
        r.raise_for_status()
        fname = f"{forum.engine}-{name}.html"
        (out / fname).write_text(scrub(r.text, forum), encoding="utf-8")
        manifest[fname] = {"engine": f"{forum.engine} {forum.version}", "url": url.replace(forum.base_url, "/"),
                           "as": who, "base_url": f"http://127.0.0.1:{FIXED_PORT}/", **holds}
        print(f"  {fname}: {len(r.text)} bytes ({url})")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=[*ENGINES, "all"], default="all")
    ap.add_argument("--out", type=Path, default=PAGES)
    args = ap.parse_args(argv)
    manifest_path = args.out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    for engine in (ENGINES if args.engine == "all" else [args.engine]):
        with tempfile.TemporaryDirectory(prefix=f"realforum-pages-{engine}-") as tmp:
            forum = ENGINES[engine](Path(tmp) / "run")
            try:
                forum.prepare()
            except EngineUnavailable as e:
                print(f"{engine}: unavailable: {e}", file=sys.stderr)
                continue
            try:
                print(f"{engine} at {forum.base_url}")
                manifest = {k: v for k, v in manifest.items() if not k.startswith(f"{engine}-")}
                manifest.update(save(forum, args.out))
            finally:
                forum.close()
    args.out.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
