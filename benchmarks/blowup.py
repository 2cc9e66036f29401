"""No quadratic blow-up on huge posts: parse time of a 4 MB post against a 1 MB one (issue 19).

A hostile or broken forum can serve one post of megabytes: a wall of text, one line without
a space, thousands of bold votes, quotes nested thousands deep, a sea of entities, tags that
never close. Everything forummod does with a post from the network is timed on a thread page
holding one such post of `small` and of `large` bytes: the page parser (phpBB profile), the
post's text model, the vote grammar, and the BBCode converter on the post's source. Linear
work gives a ratio of large/small (4 for 1 MB → 4 MB); the target is a ratio of at most 5
for each shape and step. CPU time, best of `repeat` runs, as the rest of the suite.

    .venv/bin/python -m benchmarks.blowup                       # 1 MB and 4 MB (a few minutes)
    .venv/bin/python -m benchmarks.blowup --small 20000 --large 80000 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable
from zoneinfo import ZoneInfo

TARGET_RATIO = 5.0
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
cpu = time.process_time


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


SHAPES: dict[str, Callable[[int], str]] = {
    "prose": lambda n: _repeat("Ann was seen near the well at night, and Bob says so. ", n),
    "one long line": lambda n: _repeat("x", n),
    "bold votes": lambda n: _repeat("[b]VOTE: Ann[/b] [b]unvote[/b] ", n),
    "nested quotes": lambda n: "[quote]" * (n // 16) + "deep" + "[/quote]" * (n // 16),
    "entities": lambda n: _repeat("&<>\"' ", n),
    "unclosed tags": lambda n: _repeat("[b][i][u]<b><i> ", n),
}


def page_with(bbcode: str) -> str:
    """The thread page HTML of a demo phpBB thread holding one post of `bbcode`."""
    from forummod.demo.site import PhpbbSite, SiteThread

    site = PhpbbSite(name="Blow-up Forum")
    site.threads[1] = SiteThread(1, "Huge posts")
    site.add_post(1, "Mod", T0, "[b]Day 1[/b] begins.")
    site.add_post(1, "Ann", T0 + timedelta(minutes=1), bbcode)
    return site.thread_page(1, 0, None)


def steps(bbcode: str) -> dict[str, Callable[[], Any]]:
    from forummod.extract.names import name_index
    from forummod.extract.votes import grammar
    from forummod.forum.html_engine import parse_thread_page
    from forummod.forum.registry import get_profile
    from forummod.markup.bbcode import to_html
    from forummod.model import PlayerSlot, Roster

    page = page_with(bbcode)
    prof = get_profile("phpbb")
    now = T0 + timedelta(days=1)

    def parse() -> Any:
        return parse_thread_page(prof, page, url="http://forum.example/viewtopic.php?t=1", tz=ZoneInfo("UTC"), now=now)

    body = max(parse().posts, key=lambda p: len(p.html)).html
    index = name_index(Roster(tuple(PlayerSlot(n) for n in ("Ann", "Bob", "Cat")), ("Mod",)), "en")
    g = grammar("en")

    return {
        "page parser": parse,
        "post text": lambda: _uncached_post_text(body),
        "vote grammar": lambda: g.find(_uncached_post_text(body), index, at=now),
        "bbcode to html": lambda: to_html(bbcode),
    }


def _uncached_post_text(html: str) -> Any:
    """The text model built afresh (post_text remembers recent bodies; a hit would time nothing)."""
    from forummod.extract.text import _post_text

    return _post_text(html)


def best_time(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = cpu()
        fn()
        best = min(best, cpu() - t)
    return best


def measure(small: int, large: int, repeat: int, log: Callable[[str], None] = print) -> dict[str, Any]:
    out: dict[str, Any] = {"small_bytes": small, "large_bytes": large, "target_ratio": TARGET_RATIO, "shapes": {}}
    for shape, make in SHAPES.items():
        times = {}
        for size in (small, large):
            log(f"  {shape}, {size:,} bytes")
            for step, fn in steps(make(size)).items():
                times.setdefault(step, {})[size] = best_time(fn, repeat)
        out["shapes"][shape] = {
            step: {"small_s": t[small], "large_s": t[large],
                   "ratio": (t[large] / t[small]) if t[small] > 0 else None}
            for step, t in times.items()}
    ratios = [v["ratio"] for s in out["shapes"].values() for v in s.values() if v["ratio"] is not None]
    out["worst_ratio"] = max(ratios) if ratios else None
    out["met"] = out["worst_ratio"] is not None and out["worst_ratio"] <= TARGET_RATIO
    return out


def table(res: dict[str, Any]) -> str:
    steps_ = list(next(iter(res["shapes"].values())))
    head = f"| {res['small_bytes']:,} → {res['large_bytes']:,} bytes | " + " | ".join(steps_) + " |"
    lines = [head, "|---|" + "---:|" * len(steps_)]
    for shape, per in res["shapes"].items():
        cells = []
        for st in steps_:
            v = per[st]
            cells.append(f"{v['ratio']:.2f} ({v['large_s']:.2f} s)" if v["ratio"] is not None else "n/a")
        lines.append(f"| {shape} | " + " | ".join(cells) + " |")
    verdict = "met" if res["met"] else "NOT met"
    lines.append(f"\nworst ratio {res['worst_ratio']:.2f} (target ≤ {TARGET_RATIO:g}): {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.blowup", description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", type=int, default=1 << 20, help="bytes of the small post (default 1 MiB)")
    ap.add_argument("--large", type=int, default=4 << 20, help="bytes of the large post (default 4 MiB)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each step; the fastest counts")
    ap.add_argument("--output", type=Path, default=Path(__file__).parent / "results" / "blowup.json")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    res = measure(args.small, args.large, args.repeat, log=(lambda s: None) if args.quiet else print)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(res, indent=2), encoding="utf-8")
    if not args.quiet:
        print(table(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
