"""Open the preview or console page in the GM's browser without its token on a command line.

`webbrowser.open(url)` starts the browser with the URL in its arguments, which any local user
reads in the process list (`ps aux`), token and all. As notebook servers do (Jupyter's
`open_browser`), the browser gets a file instead: an HTML page readable by the GM alone (0600,
in a folder only the GM can enter) that forwards to the tokenised URL. The file goes when the
server stops.
"""

from __future__ import annotations

import html
import os
import secrets
import stat
import tempfile
import webbrowser
from pathlib import Path


def _private(folder: Path) -> bool:
    """An existing real folder of this user that nobody else may enter."""
    try:
        st = folder.lstat()
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return stat.S_ISDIR(st.st_mode) and mine and stat.S_IMODE(st.st_mode) & 0o077 == 0


def runtime_dir() -> Path:
    """$XDG_RUNTIME_DIR/forummod when the session has a private runtime folder, else a new
    folder of the system's temporary area made private to this user (`mkdtemp`: 0700)."""
    base = os.environ.get("XDG_RUNTIME_DIR", "")
    if base and _private(Path(base)):
        folder = Path(base) / "forummod"
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
        except OSError:
            pass
        if _private(folder):
            return folder
    return Path(tempfile.mkdtemp(prefix="forummod-"))


def redirect_page(url: str, title: str) -> str:
    """A page that sends the browser on to `url` at once (and offers the link if it does not)."""
    u, t = html.escape(url, quote=True), html.escape(title)
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={u}">'
            f"<title>{t}</title></head>\n<body><p><a href=\"{u}\">{t}</a></p></body></html>\n")


def write_redirect(url: str, title: str, folder: Path | None = None) -> Path:
    """The redirect file, created owner-only (0600) whatever the umask; never an existing file."""
    folder = folder or runtime_dir()
    path = folder / f"{title.split()[-1]}-{os.getpid()}-{secrets.token_hex(4)}.html"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(redirect_page(url, title))
    return path


def remove_redirect(path: Path) -> None:
    """The redirect file gone (and the folder made for it, when there was no runtime folder)."""
    path.unlink(missing_ok=True)
    if path.parent.name.startswith("forummod-"):
        try:
            path.parent.rmdir()
        except OSError:  # not empty: another preview's file is in it
            pass


def open_browser(url: str, title: str) -> Path | None:
    """Show `url` in the GM's browser through a private redirect file; the file's path (to
    remove when the server stops), or None when no file could be written (nothing opened)."""
    try:
        path = write_redirect(url, title)
    except OSError:
        return None
    webbrowser.open(path.as_uri())
    return path
