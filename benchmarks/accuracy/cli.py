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
                   help="accept forummod's own alias proposals (what --approve-all accepts: one candidate "
                        "each); without it every other proposal (lynches, nights) is approved, no name")
    p.add_argument("--peer", action="store_true", help="run the peer vote counter (donbot-python) on the same days")
    p.add_argument("--peer-python", default="/tmp/peer-venv/bin/python",
                   help="the Python of the venv where donbot-python is installed")
    p.add_argument("--peer-cmd", action="append", default=[],
                   help="a peer vote counter behind a command speaking the forummod-peer/1 JSON protocol "
                        "(benchmarks/accuracy/peer.py): run once per game on the days and moderator counts "
                        "forummod is scored on, e.g. \"node /work/peer/jv-adapter/dist/adapter.js\"; repeat it for several peers")
    return p


_CORPUS: Corpus | None = None


_APPROVE_NAMES = False
_PEER_CMDS: tuple[str, ...] = ()


def _init(root: str, approve_names: bool = False, peer_cmds: tuple[str, ...] = ()) -> None:
    global _CORPUS, _APPROVE_NAMES, _PEER_CMDS
    _CORPUS = Corpus.open(Path(root))
    _APPROVE_NAMES = approve_names
    _PEER_CMDS = tuple(peer_cmds)


def _one(thread: str):
    """forummod's report of one game and each peer command's on the same days."""
    from benchmarks.accuracy.game import evaluate
    from benchmarks.accuracy.peer import evaluate_peer

    assert _CORPUS is not None
    fm = evaluate(_CORPUS, thread, approve_names=_APPROVE_NAMES)
    return fm, [evaluate_peer(_CORPUS, thread, fm, cmd) for cmd in _PEER_CMDS]


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
        with ProcessPoolExecutor(args.jobs, initializer=_init,
                                 initargs=(str(root), args.approve_names, tuple(args.peer_cmd))) as ex:
            done = dict(zip(order, ex.map(_one, order)))
    else:
        _init(str(root), args.approve_names, tuple(args.peer_cmd))
        done = {t: _one(t) for t in order}
    games = [done[t][0] for t in ids]
    peer = None
    if args.peer:
        from benchmarks.accuracy.peer import run_peer

        peer = run_peer(corpus, games, args.peer_python)
    if args.peer_cmd:
        from benchmarks.accuracy.peer import command_summary

        runs = [command_summary(cmd, [done[t][1][i] for t in ids]) for i, cmd in enumerate(args.peer_cmd)]
        peer = {"summary": f"{len(runs)} peer command(s) on the same days and counts as forummod.",
                "commands": runs, "donbot_python": peer}
    import forummod

    meta = {"started": started.isoformat(timespec="seconds"), "wall_seconds": time.time() - t0, "jobs": args.jobs,
            "corpus": str(root), "forummod_version": getattr(forummod, "__version__", ""),
            "approve_names": args.approve_names, "ids": ids, "peer_cmd": args.peer_cmd}
    report.write(args.out, games, meta, peer)
    tot = report.totals(games)
    print(f"{len(games)} games in {meta['wall_seconds']:.0f} s: days right {tot['days_right']}/{tot['days_with_outcome']}, "
          f"counts exact {tot['counts_exact']}/{tot['counts']} (strict {tot['counts_strict']}), "
          f"moderator errors {tot['moderator_errors']}; report in {args.out}")
    for run in (peer or {}).get("commands", ()):
        pt = run["all"]
        print(f"peer {run['peer'].get('name') or run['command']}: days right {pt['days_right']}/{pt['days_with_outcome']}, "
              f"counts exact {pt['counts_exact']}/{pt['counts']} (forummod on the same: {pt['forummod_days_right']} days, "
              f"{pt['forummod_counts_exact']} counts); {pt['failed_games']} games failed")
    for g in games:
        if g.error:
            print(f"  {g.thread}: {g.error.splitlines()[0]}")
    for run in (peer or {}).get("commands", ()):
        for pg in run["games"]:
            if pg["error"]:
                print(f"  peer {run['peer'].get('name') or run['command']} {pg['thread']}: {pg['error'].splitlines()[0]}")
    return 0
