"""Make FlaskBB 2.2.0 run on Python 3.12 and let members open topics. Idempotent.

Run with the FlaskBB venv's python:  python patch_flaskbb.py SITE_PACKAGES/flaskbb

1. FlaskBB 2.2.0 was written for Python 3.14's lazy annotations: on 3.12 modules that import
   names only under `if TYPE_CHECKING:` fail at import (`NameError: name 'Distribution' is not
   defined`). Adding `from __future__ import annotations` (after the module docstring) fixes it.
2. `ForumNotLocked.fulfill` returns `self._is_forum_locked()`, the opposite of its name, so
   members get "You are not allowed to post a topic here". It must return the negation.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

FUTURE = "from __future__ import annotations\n"
LOCK_BUG = "        return self._is_forum_locked()\n"
LOCK_FIX = "        return not self._is_forum_locked()\n"


def add_future_import(path: Path) -> bool:
    src = path.read_text(encoding="utf-8")
    if "TYPE_CHECKING" not in src or FUTURE.strip() in src:
        return False
    tree = ast.parse(src)
    after = 0
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        after = first.end_lineno or 0
    lines = src.splitlines(keepends=True)
    lines.insert(after, FUTURE)
    path.write_text("".join(lines), encoding="utf-8")
    return True


def fix_forum_not_locked(path: Path) -> str:
    src = path.read_text(encoding="utf-8")
    start = src.index("class ForumNotLocked")
    end = src.find("\nclass ", start + 1)
    end = len(src) if end < 0 else end
    body = src[start:end]
    if LOCK_FIX in body:
        return "already fixed"
    if body.count(LOCK_BUG) != 1:
        raise SystemExit(f"ForumNotLocked: expected line not found in {path}")
    path.write_text(src[:start] + body.replace(LOCK_BUG, LOCK_FIX) + src[end:], encoding="utf-8")
    return "fixed"


def main(root: Path) -> None:
    patched = [p.relative_to(root).as_posix() for p in sorted(root.rglob("*.py")) if add_future_import(p)]
    print(f"future annotations added to {len(patched)} modules: {', '.join(patched)}")
    print("ForumNotLocked:", fix_forum_not_locked(root / "utils" / "requirements.py"))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
