"""One exception tree, so the CLI can map every failure to a clear message and exit code.

Exit codes: 0 ok, 1 findings or a failed operation, 2 usage or configuration error.
"""

from __future__ import annotations

from datetime import datetime


class ForummodError(Exception):
    """Base of every error the tool raises on purpose; `exit_code` is what the CLI returns."""

    exit_code = 1


class UsageError(ForummodError):
    """The command line asks for something impossible."""

    exit_code = 2


class ConfigError(ForummodError):
    """The config file is wrong; `path` is the dotted key path that failed."""

    exit_code = 2

    def __init__(self, path: str, message: str, *, file: str | None = None):
        self.path = path
        self.message = message
        self.file = file
        where = f"{file}: " if file else ""
        super().__init__(f"{where}{path}: {message}" if path else f"{where}{message}")


class ArchiveError(ForummodError):
    """A local archive file (JSONL posts or messages) is malformed."""

    exit_code = 2


class StoreError(ForummodError):
    """The SQLite store cannot be used (corrupt, newer schema, locked)."""

    exit_code = 2


class LockBusy(ForummodError):
    """Another forummod run holds the workspace lock."""

    exit_code = 1


class ForumError(ForummodError):
    """Talking to a forum failed after the allowed retries."""


class NetworkError(ForumError):
    """Connection, timeout or server error that outlived the retries."""


class SiteBackoff(NetworkError):
    """The forum asked us to wait (Retry-After), or keeps failing (5xx, timeouts, no connection),
    longer than a request may wait: no request to it before `until` (aware UTC). Raised instead
    of sleeping, so a poll never holds the workspace lock, or a daemon pass, for minutes."""

    def __init__(self, message: str, until: datetime, *, asked: bool = False):
        super().__init__(message)
        self.until = until
        self.asked = asked  # the forum's own Retry-After, not our guess from its failures


class Stopped(ForummodError):
    """The daemon is stopping: a request or a wait was abandoned before anything was stored."""


class BudgetExceeded(ForumError):
    """The site's hourly request budget is used up; the next poll goes on from the cursor."""


class LoginRequired(ForumError):
    """The forum answered with a login page where content was expected (session expired)."""


class LoginFailed(ForumError):
    """The forum refused the credentials."""


class LayoutChanged(ForumError):
    """Selectors found no posts on a page that has them: the forum's markup changed."""

    def __init__(self, engine: str, url: str, selector: str, detail: str = ""):
        self.engine, self.url, self.selector = engine, url, selector
        extra = f" ({detail})" if detail else ""
        super().__init__(
            f"{engine}: no posts matched selector {selector!r} on {url}{extra}; "
            "the forum layout may have changed"
        )


class UnknownEngine(ForumError):
    """A page or URL of a forum engine forummod has no profile for."""

    exit_code = 2


class PublishError(ForumError):
    """Posting a reply or sending a PM failed; the draft stays unpublished."""


class EngineError(ForummodError):
    """The rules engine was asked something inconsistent (e.g. approving an unknown proposal)."""


class TemplateFailure(ForummodError):
    """A post template (usually the GM's own, in `templates_dir`) does not compile or render.

    Carries the template file, the line in it and Jinja's message, so `draft` can print them
    without a traceback and `tick`/`run` can report them as a GM finding and go on."""

    def __init__(self, template: str, line: int | None, message: str):
        self.template, self.line, self.message = template, line, message
        where = f"{template}, line {line}" if line else template
        super().__init__(f"template {where}: {message}")
