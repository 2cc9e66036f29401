"""Forum text on the GM's terminal: control characters are shown, never obeyed.

A post, a PM, a player's name or a forum's error page can carry terminal controls: OSC 0
retitles the window, OSC 52 writes the clipboard, CSI 2K erases the line a "not counted"
warning stands on, a carriage return overwrites it, and a bidi override (U+202E) reorders
what the GM reads. `visible` shows each such character as an escape (``\\x1b``, ``\\u202e``)
and leaves every other character alone (Chinese, Cyrillic, emoji, tabs and line breaks).

The CLI routes everything it writes through `visible` at one place: `safe_streams` wraps
stdout and stderr for the whole command (prints, log lines, error messages), so no command
can forget it. `--json` output goes around it (`unfiltered`): `json.dumps` escapes control
characters itself, and a JSON reader must get exactly the bytes it always got. Pure apart
from the wrapper, which only delegates.
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from typing import Any, Iterator, TextIO

#: C0 controls but tab and line feed, DEL, C1 controls, the bidi embeddings, overrides and
#: isolates; a carriage return only where no line feed follows (CRLF ends a line harmlessly).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")


def _shown(m: re.Match[str]) -> str:
    code = ord(m.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every terminal control and bidi override written as a visible escape."""
    if _UNSAFE.search(text) is None:  # the common case: nothing to replace, no copy
        return text
    return _UNSAFE.sub(_shown, text)


class SafeStream:
    """A text stream that writes `visible(text)` to the stream it wraps; everything else
    (flush, isatty, encoding, fileno...) is the wrapped stream's."""

    def __init__(self, stream: TextIO):
        self.unfiltered = stream

    def write(self, text: str) -> int:
        self.unfiltered.write(visible(text))
        return len(text)  # what the caller gave, as TextIO.write promises

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unfiltered, name)


def unfiltered(stream: Any) -> Any:
    """The stream under a `SafeStream` (for output that escapes itself: JSON, a progress bar)."""
    return getattr(stream, "unfiltered", stream) if isinstance(stream, SafeStream) else stream


@contextmanager
def safe_streams() -> Iterator[None]:
    """sys.stdout and sys.stderr wrapped in `SafeStream` for the duration (not twice)."""
    saved = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)  # type: ignore[assignment]
    if not isinstance(sys.stderr, SafeStream):
        sys.stderr = SafeStream(sys.stderr)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
