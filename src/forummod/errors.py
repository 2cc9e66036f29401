"""One exception tree, so the CLI can map every failure to a clear message and exit code.

Exit codes: 0 ok, 1 findings or a failed operation, 2 usage or configuration error (or a store
that cannot be used), 3 a post that reached the forum but could not be recorded.
"""

from __future__ import annotations


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


class StoreDamaged(StoreError):
    """The file where the store is is not a usable forummod store: empty, another program's,
    or damaged. Refused, never recreated: a new store would publish everything again."""


class StoreUnwritable(StoreError):
    """The store cannot be written now (full disk, read-only); it keeps its last complete state."""


class StoreFull(StoreUnwritable):
    """The disk (or SQLite's size limit) refused a write: SQLITE_FULL, ENOSPC."""


class StoreReadOnly(StoreUnwritable):
    """The store may be read but not written: SQLITE_READONLY, EROFS, EACCES."""


class LockBusy(ForummodError):
    """Another forummod run holds the workspace lock."""

    exit_code = 1


class ForumError(ForummodError):
    """Talking to a forum failed after the allowed retries."""


class NetworkError(ForumError):
    """Connection, timeout or server error that outlived the retries; `reason` is its short
    form ("HTTP 503", "ReadTimeout") for messages that tell what happened in other words."""

    def __init__(self, message: str = "", *, reason: str = ""):
        super().__init__(message)
        self.reason = reason


class BudgetExceeded(ForumError):
    """The site's hourly request budget is used up; the next poll goes on from the cursor."""


class LoginRequired(ForumError):
    """The forum answered with a login page where content was expected (session expired)."""


class LoginFailed(ForumError):
    """A login did not succeed. Only `CredentialsRefused` means the password must change;
    any other failure is tried again at a later pass (`forum.login_guard`)."""


class CredentialsRefused(LoginFailed):
    """The forum says the username or password is wrong: that password is not tried again
    (forums lock an account after a few wrong attempts)."""


class LoginUnanswered(LoginFailed):
    """The forum did not answer the login (HTTP 5xx or 429, a timeout, a reset connection):
    nothing is wrong with the credentials, and a later pass tries again."""


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


class SentNotRecorded(ForummodError):
    """The forum took the post but the store could not record it (full disk, read-only).

    Its own exit code: the post is out, so the GM must not post it again; the publication
    record stays "sending" and the next `publish`, `poll` or `tick` finds the post by its
    marker and records it."""

    exit_code = 3

    def __init__(self, message: str, *, draft_id: int, url: str | None, remote_id: str | None):
        self.draft_id, self.url, self.remote_id = draft_id, url, remote_id
        super().__init__(message)


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
