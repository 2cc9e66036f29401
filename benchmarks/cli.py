"""`python -m benchmarks`: run the suite, print the table, write the JSON."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.corpus import corpus_table, measure_corpus_parse
from benchmarks.markup import ENGINES
from benchmarks.report import scaling_table, table, write_json
from benchmarks.suite import Options, run_case

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results" / "latest.json"


def _sizes(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip().lower().replace("_", "")
        mult = 1000 if part.endswith("k") else 1
        out.append(int(float(part.rstrip("k")) * mult))
    if any(n < 20 for n in out):
        raise argparse.ArgumentTypeError("sizes must be at least 20 posts")
    return out


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--sizes", type=_sizes, default=[1000, 10000, 50000],
                   help="game sizes in posts, comma-separated (1k, 10k, 50k...)")
    p.add_argument("--engines", default=",".join(ENGINES), help=f"engines, comma-separated ({', '.join(ENGINES)})")
    p.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    p.add_argument("--repeat", type=int, default=5, help="runs of each timed step (the median counts)")
    p.add_argument("--bs4-pages", type=int, default=8, help="pages in the BeautifulSoup reference sample")
    p.add_argument("--no-corpus", action="store_true", help="skip the parse set of real corpus pages")
    p.add_argument("--no-memory", action="store_true", help="skip the replay subprocess (peak memory)")
    p.add_argument("--no-tracemalloc", action="store_true", help="measure the peak RSS only, not tracemalloc's peak")
    p.add_argument("--keep", type=Path, default=None, help="keep the workspaces (config, store) under this folder")
    p.add_argument("--quiet", action="store_true", help="print only the table")
    p.add_argument("--show", type=Path, metavar="JSON", help="print the tables of an earlier results file and stop")
    p.add_argument("--markdown", action="store_true", help="with --show: the main figures as a Markdown table")
    return p


def show(path: Path, markdown: bool = False) -> int:
    import json

    from benchmarks.report import markdown as md

    doc = json.loads(path.read_text(encoding="utf-8"))
    if markdown:
        print(md(doc["cases"]))
        return 0
    m = doc.get("machine", {})
    print(f"{doc.get('generated_at', '?')}: {m.get('cpu', '?')}, {m.get('cores', '?')} cores, Python "
          f"{m.get('python', '?')}, lxml {m.get('lxml', '?')} / libxml2 {m.get('libxml2', '?')}, "
          f"load average at start {' '.join(m.get('loadavg_at_start') or ['?'])}")
    if "corpus_parse" in doc:
        print(corpus_table(doc["corpus_parse"]))
        print()
    print(table(doc["cases"]))
    sc = scaling_table(doc["cases"])
    if sc:
        print()
        print(sc)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.show is not None:
        return show(args.show, markdown=args.markdown)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = [e for e in engines if e not in ENGINES]
    if unknown:
        print(f"unknown engines {unknown}; known: {', '.join(ENGINES)}", file=sys.stderr)
        return 2
    opts = Options(repeat=max(1, args.repeat), bs4_pages=max(1, args.bs4_pages), memory=not args.no_memory,
                   tracemalloc=not args.no_tracemalloc, keep=args.keep)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    cases: list[dict[str, Any]] = []
    started = time.monotonic()
    corpus: dict[str, Any] = {"skipped": "--no-corpus"}
    if not args.no_corpus:
        log("real corpus pages: parse throughput")
        corpus = measure_corpus_parse(opts.repeat)
    for n in args.sizes:
        for engine in engines:
            log(f"{engine}, {n:,} posts")
            cases.append(run_case(ENGINES[engine], n, opts, log=log))
    meta = {"sizes": args.sizes, "engines": engines, "repeat": opts.repeat,
            "corpus_parse": corpus, "seconds": round(time.monotonic() - started, 1), "command": "python -m benchmarks " + " ".join(argv or sys.argv[1:])}
    write_json(args.output, cases, meta)
    print(corpus_table(corpus))
    print()
    print(table(cases))
    sc = scaling_table(cases)
    if sc:
        print()
        print(sc)
    print(f"\nwritten: {args.output}")
    return 0
