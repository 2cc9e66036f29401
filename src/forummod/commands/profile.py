"""`forummod profile suggest PAGE.html`: a starter profile for a forum no profile knows.

The structural fallback finds the page's repeated post blocks and the selectors that read
them; this writes those as a profile file a GM can rename, check with `forummod parse
PAGE --engine NAME --adapters DIR`, and complete (login, inbox, posting) by hand.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from forummod.cli import add_common
from forummod.errors import UsageError

NAME = "profile"
HELP = "write a starter engine profile from a saved thread page (profile suggest PAGE.html)"


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="profile_command", metavar="ACTION", required=True)
    s = sub.add_parser("suggest", help="infer the post selectors of a saved thread page and write a profile")
    s.add_argument("page", type=Path, metavar="PAGE.html", help="a saved thread page of the forum")
    s.add_argument("--name", default="myforum", help="engine name of the profile (default: myforum)")
    s.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="where to write it (default: print it; refuses to overwrite a file)")
    add_common(s, json=False)


def run(args) -> int:
    from forummod.forum.html_engine import parse_html, parse_thread_page
    from forummod.forum.http import decode_body
    from forummod.forum.structural import StructureUnsure, infer_structure, to_toml

    if not re.fullmatch(r"[a-z][a-z0-9_-]*", args.name):
        raise UsageError(f"--name {args.name!r}: a profile name is lowercase letters, digits, - and _ (e.g. myforum)")
    try:
        text = decode_body(args.page.read_bytes(), None)
    except OSError as e:
        raise UsageError(f"cannot read {args.page}: {e.strerror}") from None
    try:
        structure = infer_structure(parse_html(text), url=str(args.page))
        doubt = ""
    except StructureUnsure as e:  # the GM asked for a starting point: the best reading, marked as such
        structure, doubt = e.structure, e.reason
    data = dict(structure.profile_data, name=args.name, title=f"{args.name} (suggested from {args.page.name})",
                verified=f"suggested by forummod profile suggest from {args.page.name}: check it on more pages")
    from datetime import datetime, timezone

    from forummod.errors import LayoutChanged

    try:
        posts = parse_thread_page(structure.profile(), text, url=args.page.resolve().as_uri(), tz=timezone.utc,
                                  now=datetime.now(timezone.utc)).posts
    except LayoutChanged:
        posts = ()
    warn = [f"# NOT TRUSTED: {doubt}.", "# forummod would not read the page with these selectors: correct them "
            "by hand (see adapters/generic.example.toml)."] if doubt else []
    head = [*warn, "# Suggested by `forummod profile suggest` from one saved page. Check it on other pages",
            "# (first, middle and last page of a thread) with", f"#     forummod parse PAGE.html --engine {args.name} "
            "--adapters DIR", "# and add [urls], [dates], [login], [inbox] and [reply] by hand (see "
            "adapters/generic.example.toml).", *(f"# {line}" for line in structure.explain()), ""]
    out = "\n".join(head) + to_toml(data)
    if args.output:
        if args.output.exists():
            raise UsageError(f"{args.output} exists; choose another --output or remove it")
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(out, encoding="utf-8")
        print(f"wrote {args.output}: {len(posts)} posts read on {args.page.name} "
              f"({', '.join(sorted({p.author for p in posts if p.author})[:5])}…)"
              + (f"; NOT TRUSTED: {doubt}" if doubt else ""))
    else:
        sys.stdout.write(out)
    return 0
