"""Keep secrets out of logs: every password, API key and cookie value is registered here and
replaced by `***` in any log record, whatever logger or format prints it.

Session ids are masked by their place too, registered or not: a forum puts them in URLs
(phpBB's `sid=`, SMF's `PHPSESSID=`, vBulletin's `s=`) before any cookie carries them, and a
URL shows up in every request line of `-vv` and in error messages."""

from __future__ import annotations

import functools
import logging
import re
import threading

_SECRETS: set[str] = set()
_LOCK = threading.Lock()
# Where a secret's VALUE stands next to its name: a header line ("Cookie: sid=..."), a form or
# query field ("password=..."), a quoted mapping entry ("'password': '...'"). Only the value
# is masked; words and names around it ("unknown key 'password'", "no password: set
# $FORUM_PASSWORD") are not secrets and stay readable.
_SECRET_NAMES = r"(?:set-cookie|cookie|authorization|api-key|api_key|x-csrf-token|password|passwd|passwrd|pass)"
# A session id as a URL or form parameter, or a cookie named after one ("phpbb3_x_sid=...");
# `s` (vBulletin) only with a token-like value, so an ordinary "s=" stays readable.
_SESSION_NAMES = r"(?:(?:[\w-]*_)?(?:sid|sessid|phpsessid|session|sessionid|session_id)|s(?==[0-9a-fA-F]{16}))"
_VALUE_PATTERNS = (
    r"(?im)^(\s*(?:set-cookie|cookie|authorization|api-key|api-username|x-csrf-token):[ \t]*)(\S[^\r\n]*)",
    r"(?i)((?<![\w.-])" + _SECRET_NAMES + r"=)([^&;\s'\"]+)",
    r"(?i)(['\"]" + _SECRET_NAMES + r"['\"]\s*:\s*['\"])([^'\"]+)",
    r"(?i)((?<![\w.\[-])" + _SESSION_NAMES + r"=)([^&;#\s'\"<>]+)",
)


@functools.cache
def _value_rx() -> tuple[re.Pattern[str], ...]:
    """Compiled on the first redaction: a command that logs nothing (a cron `tally`) never pays."""
    return tuple(re.compile(p) for p in _VALUE_PATTERNS)


def register_secret(value: str | None) -> None:
    """Remember a secret (at least 4 characters) so that no log line can show it."""
    if value and len(value) >= 4:
        with _LOCK:
            _SECRETS.add(value)


def redact(text: str) -> str:
    with _LOCK:
        secrets = sorted(_SECRETS, key=len, reverse=True)
    for s in secrets:
        text = text.replace(s, "***")
    for rx in _value_rx():
        text = rx.sub(r"\1***", text)
    return text


class RedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            msg = record.getMessage()
        except Exception:  # a bad format string is not our problem to hide
            return True
        clean = redact(msg)
        if clean != msg:
            record.msg, record.args = clean, ()
        return True


def install_redaction() -> None:
    """Attach the filter to every handler of the root logger (idempotent)."""
    root = logging.getLogger()
    for h in root.handlers:
        if not any(isinstance(f, RedactingFilter) for f in h.filters):
            h.addFilter(RedactingFilter())
