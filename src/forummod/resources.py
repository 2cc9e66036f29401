"""Find the bundled `adapters/` and `templates/` folders, from a wheel or from a checkout.

The wheel carries them as `forummod/_data/<name>`; an editable install or a plain checkout
finds them at the project root. A user folder named in the config is searched first.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def bundled_dir(name: str) -> Path:
    """The built-in folder `name` ("adapters" or "templates")."""
    installed = _PACKAGE_DIR / "_data" / name
    if installed.is_dir():
        return installed
    checkout = _PACKAGE_DIR.parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"bundled folder {name!r} not found (looked in {installed} and {checkout}); "
        "reinstall forummod"
    )


def bundled_file(name: str) -> Path:
    """A file shipped beside the bundled folders (e.g. "config.example.toml")."""
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent.parent / name):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"bundled file {name!r} not found; reinstall forummod")


def search_path(name: str, user_dir: Path | None = None) -> list[Path]:
    """Folders to search for `name` files, user folder first so it overrides the defaults."""
    dirs: list[Path] = []
    if user_dir is not None:
        dirs.append(user_dir)
    dirs.append(bundled_dir(name))
    return dirs
