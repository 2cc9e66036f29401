"""Login discipline (issue 34, item 2): only a forum that says the credentials are wrong stops
the attempts with that password; any other failure is tried again at a later pass, after a
wait that doubles with each failure in a row. The guard on a fake clock, and the wording of
the answers of a form login and of Discourse's `POST /session`."""

from __future__ import annotations

import pytest

from forummod.errors import CredentialsRefused, LoginFailed, LoginUnanswered, NetworkError
from forummod.forum.discourse import session_refusal
from forummod.forum.login import login_refusal
from forummod.forum.login_guard import LoginGuard
from forummod.forum.registry import get_profile


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Forum:
    """A login that fails with each of `answers` in turn (None: it succeeds), counting attempts."""

    def __init__(self, *answers: Exception | None):
        self.answers = list(answers)
        self.attempts = 0

    def login(self) -> None:
        self.attempts += 1
        answer = self.answers.pop(0) if self.answers else None
        if answer is not None:
            raise answer


@pytest.fixture
def clock():
    return Clock()


def test_a_password_the_forum_calls_wrong_is_never_sent_again_but_a_new_one_is(clock):
    guard = LoginGuard("f", clock, where="$F_PW")
    forum = Forum(CredentialsRefused("f: the forum says the credentials are wrong: “Wrong password”"))
    with pytest.raises(CredentialsRefused, match="Wrong password.*not trying this password again.*correct it in \\$F_PW"):
        guard.attempt("hunter2", forum.login)
    clock.t += 30 * 24 * 3600
    with pytest.raises(CredentialsRefused, match="credentials are wrong"):
        guard.attempt("hunter2", forum.login)
    assert forum.attempts == 1
    guard.attempt("hunter3", forum.login)  # the GM set another password: tried at once
    assert forum.attempts == 2
    guard.attempt("hunter2", forum.login)  # that one worked; the old one is no longer held against anything
    assert forum.attempts == 3


@pytest.mark.parametrize("failure, kind, words", [
    (LoginUnanswered("f: the forum did not answer the login (HTTP 503)"), LoginUnanswered,
     "the forum did not answer the login (HTTP 503)"),
    (NetworkError("POST x failed (ReadTimeout); not retried", reason="ReadTimeout"), LoginUnanswered,
     "f: the forum did not answer the login (ReadTimeout)"),
    (LoginFailed("f: no login form (a form with a password field 'password') at x"), LoginFailed, "no login form"),
])
def test_any_other_failure_waits_for_a_later_pass_twice_as_long_each_time(clock, failure, kind, words):
    guard = LoginGuard("f", clock)
    forum = Forum(*[failure] * 9)
    seen = []
    for _ in range(9):
        with pytest.raises(kind) as e:
            guard.attempt("pw", forum.login)
        assert words in str(e.value) and not isinstance(e.value, CredentialsRefused)
        seen.append(str(e.value).rsplit("not before ", 1)[1])
        with pytest.raises(kind, match="ago; will try again in"):  # within the wait: nothing is sent
            guard.attempt("pw", forum.login)
        clock.t += 3600
    assert seen == ["60 s)", "2 min)", "4 min)", "8 min)", "16 min)", "32 min)", "60 min)", "60 min)", "60 min)"]
    assert forum.attempts == 9
    guard.attempt("pw", forum.login)  # the forum is back: logged in, the waits start over
    forum.answers = [failure]
    with pytest.raises(kind, match="not before 60 s"):
        guard.attempt("pw", forum.login)


def test_the_wait_is_measured_on_the_clock_not_counted_in_attempts(clock):
    guard = LoginGuard("f", clock)
    forum = Forum(LoginUnanswered("f: the forum did not answer the login (HTTP 502)"))
    with pytest.raises(LoginUnanswered):
        guard.attempt("pw", forum.login)
    clock.t += 59
    with pytest.raises(LoginUnanswered, match=r"\(HTTP 502\), 59 s ago; will try again in 1 s"):
        guard.attempt("pw", forum.login)
    clock.t += 1
    guard.attempt("pw", forum.login)
    assert forum.attempts == 2


@pytest.mark.parametrize("status, page, kind, words", [
    (503, "<html><body><h1>Service Unavailable</h1><div class='error'>down</div></body></html>", LoginUnanswered,
     "the forum did not answer the login (HTTP 503)"),
    (429, "<html><body>slow down</body></html>", LoginUnanswered, "(HTTP 429)"),
    (200, "<html><body><form id='login'><div class='error'>The password you entered is incorrect.</div>"
          "<input type='password' name='password'></form></body></html>", CredentialsRefused,
     "the forum says the credentials are wrong: “The password you entered is incorrect.”"),
    (403, "<html><body><div class='error'>You have been banned</div></body></html>", CredentialsRefused,
     "“You have been banned”"),
    (400, "<html><body>Bad Request</body></html>", LoginFailed, "HTTP 400 without saying why"),
    (200, "<html><body><form id='login' action='./ucp.php?mode=login'><input type='password' name='password'>"
          "</form></body></html>", LoginFailed, "the forum says nothing about them"),
])
def test_a_login_answer_is_a_refusal_only_when_the_forum_says_so(status, page, kind, words):
    spec = get_profile("phpbb").login
    got = login_refusal("f", spec, status, page)
    assert type(got) is kind and words in str(got)


def test_a_logged_in_answer_is_no_refusal():
    page = '<html><body><a href="./ucp.php?mode=logout&amp;sid=x">Logout [ Mod ]</a></body></html>'
    assert login_refusal("f", get_profile("phpbb").login, 200, page) is None


@pytest.mark.parametrize("status, data, kind, words", [
    (200, {"error": "Incorrect username, email or password"}, CredentialsRefused,
     "the forum says the credentials are wrong: “Incorrect username, email or password”"),
    (200, {"error": "You can't log in yet.", "reason": "not_activated"}, LoginFailed, "refuses this account's login"),
    (502, {}, LoginUnanswered, "the forum did not answer the login (HTTP 502)"),
    (429, {"error": "You've performed this action too many times"}, LoginUnanswered, "(HTTP 429)"),
])
def test_discourse_says_wrong_credentials_only_in_its_error_without_an_account_reason(status, data, kind, words):
    got = session_refusal("f", status, data)
    assert type(got) is kind and words in str(got)
    assert session_refusal("f", 200, {"user": {"id": 1}}) is None


def test_what_the_guard_knows_outlives_the_run_without_keeping_the_password(clock):
    """A cron `tick` is a new process each time: the guard's state lives with the cookies."""
    from forummod.forum.cookies import MemoryCookieStore

    keep = MemoryCookieStore()
    forum = Forum(CredentialsRefused("f: the forum says the credentials are wrong: “Wrong password”"))
    with pytest.raises(CredentialsRefused):
        LoginGuard("f", clock, keep=keep).attempt("hunter2-secret", forum.login)
    assert "hunter2-secret" not in repr(keep.load_login_state("f"))
    with pytest.raises(CredentialsRefused, match="Wrong password"):  # the next run
        LoginGuard("f", clock, keep=keep).attempt("hunter2-secret", forum.login)
    assert forum.attempts == 1

    forum.answers = [LoginUnanswered("f: the forum did not answer the login (HTTP 503)")]
    with pytest.raises(LoginUnanswered, match="not before 60 s"):  # another password: tried, unanswered
        LoginGuard("f", clock, keep=keep).attempt("hunter3", forum.login)
    clock.t += 30
    with pytest.raises(LoginUnanswered, match=r"\(HTTP 503\), 30 s ago; will try again in 30 s"):
        LoginGuard("f", clock, keep=keep).attempt("hunter3", forum.login)
    clock.t += 30
    LoginGuard("f", clock, keep=keep).attempt("hunter3", forum.login)
    assert forum.attempts == 3
    state = keep.load_login_state("f")  # logged in: nothing held against the next attempt
    assert state["refused"] is None and state["failures"] == 0 and state["last"] is None
