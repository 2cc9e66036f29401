"""The peer: donbot's own vote counter, called from its package in a separate venv.

donbot-python (GPL-3.0) is never imported into forummod's process nor copied: a probe runs in
the venv's own Python, finds the package's vote counter by looking for it (any public callable
whose name mentions votes, in any of its modules) and would run it on the same days' posts
offline. The harness works without the package: `--peer` says plainly what it found.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Sequence

_PROBE = r"""
import importlib, inspect, json, pkgutil, sys
out = {"python": sys.executable}
try:
    import donbot
except Exception as exc:
    out["error"] = f"{type(exc).__name__}: {exc}"
    print(json.dumps(out)); sys.exit(0)
from importlib.metadata import version
out["version"] = version("donbot-python")
mods = {"donbot": donbot}
for m in pkgutil.walk_packages(donbot.__path__, "donbot."):
    try:
        mods[m.name] = importlib.import_module(m.name)
    except Exception as exc:
        out.setdefault("import_errors", {})[m.name] = str(exc)
out["modules"] = sorted(mods)
names = sorted({f"{n}.{a}" for n, m in mods.items() for a, v in vars(m).items()
                if not a.startswith("_") and callable(v) and getattr(v, "__module__", "").startswith("donbot")})
out["callables"] = names
for n, m in mods.items():
    for a, v in vars(m).items():
        if inspect.isclass(v) and v.__module__.startswith("donbot"):
            out["callables"] += [f"{n}.{a}.{x}" for x in vars(v) if not x.startswith("_")]
out["vote_counters"] = [c for c in out["callables"] if "vote" in c.lower()]
print(json.dumps(out))
"""


def probe(python: str) -> dict[str, Any]:
    """What the peer venv holds: donbot-python's version, modules, callables, vote counters."""
    if not Path(python).exists():
        return {"error": f"no Python at {python}"}
    try:
        res = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True, timeout=120,
                             env={"PATH": "/usr/bin:/bin", "no_proxy": "*"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    if res.returncode != 0 or not res.stdout.strip():
        return {"error": res.stderr.strip()[-500:] or f"exit {res.returncode}"}
    return json.loads(res.stdout.strip().splitlines()[-1])


def run_peer(corpus: Any, games: Sequence[Any], python: str) -> dict[str, Any]:
    """The peer's per-day figures next to forummod's, or why there are none."""
    found = probe(python)
    if "error" in found:
        return {"available": False, **found,
                "summary": f"The peer is missing: donbot-python could not be imported with {python} "
                           f"({found['error']}). Install it in a separate venv: "
                           f"`python -m venv /tmp/peer-venv && /tmp/peer-venv/bin/pip install donbot-python requests` (0.2.1 imports requests without declaring it)."}
    if not found.get("vote_counters"):
        return {"available": True, "vote_counter": None, **found,
                "summary": f"donbot-python {found.get('version')} is installed ({python}) but ships no vote counter: "
                           f"its modules ({', '.join(found.get('modules', []))}) hold only the site client "
                           f"(login, thread scraping, posting, editing: {len(found.get('callables', []))} public "
                           f"callables, none about votes). The vote counter donbot's archive notes refer to "
                           f"(\"votecounter interpreted ...\") is in the donbot repository, which is held out here. "
                           f"No peer figure."}
    # A release with a vote counter: its call convention is unknown until one exists; report it.
    return {"available": True, "vote_counter": found["vote_counters"], **found,
            "summary": f"donbot-python {found.get('version')} has callables about votes "
                       f"({', '.join(found['vote_counters'])}); the harness has no adapter for them yet."}
