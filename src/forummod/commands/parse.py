"""`forummod parse PAGE.html`: print the posts of a saved forum page (bug reports, profile writing).

Without --engine the engine is recognised from the page itself; a page that no profile
recognises is read by the structural fallback (the page's repeated post blocks), and said so.
`--explain` prints the selectors the fallback found, how sure it is and the runner-up
(`forummod profile suggest` writes them out as a starter profile). A page with no repeated
post blocks, or whose blocks the fallback does not trust as posts, is an error (exit code 2)
that says why; the fallback never answers with junk.
"""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from forummod.cli import add_common
from forummod.errors import UsageError

NAME = "parse"
HELP = "print the posts of a saved forum page (recognises the engine unless --engine is given)"


def add_arguments(p) -> None:
    p.add_argument("page", type=Path, metavar="PAGE.html", help="a saved thread page (HTML, or Discourse JSON)")
    p.add_argument("--engine", metavar="NAME", help="engine profile to use (default: recognise it)")
    p.add_argument("--timezone", metavar="TZ", default="UTC", help="timezone the page shows times in (default UTC)")
    p.add_argument("--url", metavar="URL", default="", help="the page's address (page numbers, links)")
    p.add_argument("--adapters", type=Path, metavar="DIR", help="folder of your own profiles (overrides bundled)")
    p.add_argument("--saved-at", metavar="TIME",
                   help="when the page was saved (ISO 8601): relative dates ('Today', '5 minutes ago') are read "
                        "against it (default: the time the page itself states, e.g. 'It is currently …', else now)")
    p.add_argument("--explain", action="store_true",
                   help="show the selectors the structural fallback finds on the page (also when a profile matches)")
    add_common(p)


def run(args) -> int:
    from forummod.errors import LayoutChanged, UnknownEngine
    from forummod.forum.http import decode_body

    try:
        tz = ZoneInfo(args.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"unknown timezone {args.timezone!r}") from None
    try:
        text = decode_body(args.page.read_bytes(), None)
    except OSError as e:
        raise UsageError(f"cannot read {args.page}: {e.strerror}") from None
    try:
        return _parse(args, text, tz)
    except (LayoutChanged, UnknownEngine) as e:  # no posts: is the page a notice (maintenance, an error)?
        from forummod.forum.error_pages import page_trouble
        from forummod.forum.html_engine import parse_html

        prof = getattr(e, "profile", None)
        trouble = page_trouble(parse_html(text), text, login_selectors=prof.login.login_page if prof else ())
        if trouble is None:
            raise
        raise trouble.error(args.url or str(args.page)) from None


def _parse(args, text: str, tz) -> int:
    from forummod.errors import LayoutChanged, UnknownEngine
    from forummod.forum.detect import detect_engine
    from forummod.forum.discourse import is_json, parse_topic_json
    from forummod.forum.html_engine import parse_thread_page, text_without_marks
    from forummod.forum.registry import get_profile, profiles

    user_dir = args.adapters
    structure = None
    fallback_why = ""
    try:
        engine = args.engine or detect_engine(profiles(user_dir), text, where=str(args.page))
        prof = get_profile(engine, user_dir)
    except UnknownEngine as e:
        if args.engine or is_json(text):
            raise
        fallback_why = str(e).split(". Supported:")[0]
        engine = "structural"
    if args.explain or engine == "structural":
        from forummod.forum.html_engine import parse_html
        from forummod.forum.structural import StructureUnsure, infer_structure

        try:
            structure = infer_structure(parse_html(text), url=str(args.page))
        except StructureUnsure as e:
            if engine != "structural":
                structure = e.structure  # --explain on a profile's page: shown, not used
            else:
                if args.explain:
                    print("structural fallback found:\n  " + "\n  ".join(e.structure.explain()), file=sys.stderr)
                raise UnknownEngine(f"{fallback_why}, and the structural fallback will not guess: {e.reason}. "
                                    f"`forummod profile suggest {args.page}` writes its best reading as a starter "
                                    "profile to correct by hand") from None
        except LayoutChanged:
            if engine != "structural":
                raise
            raise UnknownEngine(f"{fallback_why}, and the page repeats no post block with an author and a date "
                                "(the structural fallback found nothing to read; a saved thread page is needed)") from None
        if engine == "structural":
            prof = structure.profile()
    url = args.url or args.page.resolve().as_uri()
    now, read_at_from = _read_at(args, prof, text, tz)
    if prof.adapter == "discourse" and is_json(text):
        page = parse_topic_json(prof, text, url=url, base_url=args.url or "https://discourse.invalid", tz=tz)
    else:
        try:
            page = parse_thread_page(prof, text, url=url, tz=tz, now=now, clock_known=read_at_from != "now")
        except LayoutChanged as e:
            e.profile = prof  # whose login form the notice check looks for
            raise
        if engine != "structural":
            from forummod.forum.structural import fill_from_structure

            page = fill_from_structure(page, text, url=url, tz=tz, now=now)
    rows = [{
        "id": p.post_id, "number": p.number, "author": p.author, "author_id": p.author_id,
        "created_at": p.created_at.isoformat(), "edited_at": p.edited_at.isoformat() if p.edited_at else None,
        "edited": p.edited, "date_guessed": p.date_guessed, "page": p.page, "text": text_without_marks(p.html), "html": p.html,
    } for p in page.posts]
    explain = structure.explain() if structure is not None and args.explain else None
    if args.json:
        from forummod.commands._common import print_json

        print_json("parse", {"engine": engine, "title": page.title, "read_at": now.isoformat(), "read_at_from": read_at_from, **({"explain": explain} if explain else {}), "page": page.page, "last_page": page.last_page,
                             "next_url": page.next_url, "posts": rows,
                             "issues": [{"code": i.code, "message": i.message} for i in page.issues]})
        return 0
    if read_at_from == "page":
        print(f"relative dates read against {now:%Y-%m-%d %H:%M} UTC, the time the page states (--saved-at to "
              "give another)", file=sys.stderr)
    if fallback_why:
        print(f"{fallback_why}: read by the structural fallback (check the result; "
              f"`forummod profile suggest {args.page}` writes a starter profile)", file=sys.stderr)
    if explain:
        print("structural fallback found:\n  " + "\n  ".join(explain))
    print(f"{args.page}: {engine}, {len(rows)} posts, page {page.page} of {page.last_page}"
          + (f", {page.title!r}" if page.title else ""))
    imprecise = {i.message.split(":", 1)[0][5:] for i in page.issues if i.code == "date_imprecise"}
    for r in rows:
        edited = f" (edited {r['edited_at'] or ''})".replace(" )", ")") if r["edited"] else ""
        head = f"#{r['number']} [{r['id']}] {r['author']}" + (f" ({r['author_id']})" if r["author_id"] else "")
        guessed = "" if not r["date_guessed"] else (
            " (date as printed lacks the minute: guessed, ordering only)" if r["id"] in imprecise
            else " (date not shown on the page: guessed, ordering only)")
        print(f"\n{head} {r['created_at']}{guessed}{edited}")
        body = r["text"]
        print("  " + (body[:500] + ("…" if len(body) > 500 else "")).replace("\n", "\n  "))
    for i in page.issues:
        print(f"! {i.code}: {i.message}", file=sys.stderr)
    return 0


def _read_at(args, prof, text: str, tz) -> tuple[datetime, str]:
    """(the instant relative dates are read against, where it came from: "given", "page", "now")."""
    from forummod.commands._common import parse_time

    if args.saved_at:
        return parse_time(args.saved_at, tz), "given"
    now = datetime.now(timezone.utc)
    from forummod.forum.discourse import is_json
    from forummod.forum.html_engine import saved_page_clock

    if is_json(text):  # Discourse's JSON carries ISO times: nothing is relative
        return now, "now"

    stated = saved_page_clock(prof, text, tz=tz, now=now)
    return (stated, "page") if stated is not None else (now, "now")
