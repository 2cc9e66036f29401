"""`python -m benchmarks.accuracy`: every development game, in worker processes, one report."""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from benchmarks.accuracy.corpus import Corpus

ROOT = Path(__file__).resolve().parents[2]


def default_corpus() -> Path:
    """$FORUMMOD_CORPUS/donbot, else the nearest ../shared/corpus/donbot above the checkout (a
    git worktree may sit a level deeper than the main checkout)."""
    env = os.environ.get("FORUMMOD_CORPUS")
    if env:
        return Path(env) / "donbot"
    for parent in ROOT.parents:
        if (parent / "shared" / "corpus").is_dir():
            return parent / "shared" / "corpus" / "donbot"
    return ROOT.parent / "shared" / "corpus" / "donbot"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.accuracy", description=__doc__)
    p.add_argument("--corpus", type=Path, default=None, help="the donbot folder (default ../shared/corpus/donbot)")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "accuracy",
                   help="report folder (accuracy.md, accuracy.json)")
    p.add_argument("--games", type=int, default=0, help="only the first N games (of ids.txt's order)")
    p.add_argument("--ids", default="", help="comma-separated thread ids")
    p.add_argument("--half", choices=("tune", "check"), help="only one half of the split")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (2 at most on a shared machine)")
    p.add_argument("--approve-names", action="store_true",
                   help="accept forummod's own name suggestions (what --approve-all approves); the harness "
                        "always approves every proposal, so this only records the choice until name proposals exist")
    p.add_argument("--peer", action="store_true", help="run the peer vote counter (donbot-python) on the same days")
    p.add_argument("--peer-python", default="/tmp/peer-venv/bin/python",
                   help="the Python of the venv where donbot-python is installed")
    return p


_CORPUS: Corpus | None = None


def _init(root: str) -> None:
    global _CORPUS
    _CORPUS = Corpus.open(Path(root))


def _one(thread: str):
    from benchmarks.accuracy.game import evaluate

    assert _CORPUS is not None
    return evaluate(_CORPUS, thread)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.accuracy import report
    from benchmarks.accuracy.corpus import half_of

    args = parser().parse_args(argv)
    root = args.corpus or default_corpus()
    if not (root / "archive.txt").is_file():
        print(f"no donbot corpus at {root} (set --corpus or FORUMMOD_CORPUS)")
        return 2
    corpus = Corpus.open(root)
    ids = corpus.ids()
    if args.ids:
        wanted = [t.strip() for t in args.ids.split(",") if t.strip()]
        ids = [t for t in wanted if t in set(ids)]
    if args.half:
        ids = [t for t in ids if half_of(t) == args.half]
    if args.games:
        ids = ids[:args.games]
    started = datetime.now(timezone.utc)
    t0 = time.time()
    # the biggest games first, so a worker is not left with one long game at the end
    order = sorted(ids, key=lambda t: -(root / f"{t}.jsonl.xz").stat().st_size)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=_init, initargs=(str(root),)) as ex:
            done = dict(zip(order, ex.map(_one, order)))
    else:
        _init(str(root))
        done = {t: _one(t) for t in order}
    games = [done[t] for t in ids]
    peer = None
    if args.peer:
        from benchmarks.accuracy.peer import run_peer

        peer = run_peer(corpus, games, args.peer_python)
    import forummod

    meta = {"started": started.isoformat(timespec="seconds"), "wall_seconds": time.time() - t0, "jobs": args.jobs,
            "corpus": str(root), "forummod_version": getattr(forummod, "__version__", ""),
            "approve_names": args.approve_names, "ids": ids}
    report.write(args.out, games, meta, peer)
    tot = report.totals(games)
    print(f"{len(games)} games in {meta['wall_seconds']:.0f} s: days right {tot['days_right']}/{tot['days_with_outcome']}, "
          f"counts exact {tot['counts_exact']}/{tot['counts']} (strict {tot['counts_strict']}), "
          f"moderator errors {tot['moderator_errors']}; report in {args.out}")
    for g in games:
        if g.error:
            print(f"  {g.thread}: {g.error.splitlines()[0]}")
    return 0
