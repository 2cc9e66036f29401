"""Form login driven by a profile: fetch the form, keep its hidden fields (CSRF tokens),
fill the credentials, post once, and check the answer. Secrets are registered for redaction.

Where the password may go is one rule (SECURITY.md, CRED-1 and CRED-2): only to the configured
login endpoint (its origin and path), only in a form with a password field of that name;
anything else is a `LoginFailed` shown to the GM, never a guess at another form."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urljoin, urlsplit

from forummod.errors import ConfigError, CredentialsRefused, LoginFailed, LoginUnanswered
from forummod.forum.html_engine import first, first_element, parse_html
from forummod.forum.http import HttpClient, origin
from forummod.forum.profile import LoginSpec, Profile
from forummod.logsafe import register_secret


def read_secret(env_name: str, *, use_keyring: bool = False, site_name: str = "", what: str = "password") -> str:
    """A password or API key from the environment (or the OS keyring); never from a file."""
    value = os.environ.get(env_name, "") if env_name else ""
    if not value and use_keyring:
        try:
            import keyring  # optional; only when the GM asked for it

            value = keyring.get_password("forummod", site_name) or ""
        except Exception:  # keyring missing or locked: say what to set instead
            value = ""
    if not value:
        where = f"${env_name}" if env_name else "an environment variable (password_env)"
        raise ConfigError(f"sites.{site_name}", f"no {what}: set {where}" + (" or the keyring" if use_keyring else ""))
    register_secret(value)
    return value


def password_place(site: object) -> str:
    """Where the GM sets a site's password, for messages: "$FORUM_PW" or "the keyring"."""
    env = getattr(site, "password_env", "")
    keyring = getattr(site, "use_keyring", False)
    if env:
        return f"${env}" + (" or the keyring" if keyring else "")
    return "the keyring" if keyring else "sites.<name>.password_env"


def form_fields(form: object) -> dict[str, str]:
    """Every successful control of a form with its default value (hidden CSRF tokens included)."""
    out: dict[str, str] = {}
    for el in form.xpath(".//input[@name] | .//select[@name] | .//textarea[@name]"):  # type: ignore[attr-defined]
        name = el.get("name")
        typ = (el.get("type") or "text").lower()
        if typ in ("submit", "button", "image", "reset", "file"):
            continue
        if typ in ("checkbox", "radio") and el.get("checked") is None:
            continue
        if el.tag == "select":
            opt = el.xpath(".//option[@selected]") or el.xpath(".//option")
            out.setdefault(name, opt[0].get("value", opt[0].text or "") if opt else "")
        elif el.tag == "textarea":
            out.setdefault(name, el.text or "")
        else:
            out.setdefault(name, el.get("value", ""))
    return out


def _path(url: str) -> str:
    return (urlsplit(url).path or "/").rstrip("/") or "/"


def _has_password_field(form: Any, name: str) -> bool:
    return bool(form.xpath(".//input[@name=$n][translate(@type,'PASWORD','pasword')='password']", n=name))


def login_form(spec: LoginSpec, root: Any) -> Any | None:
    """The login form on a page: one the profile's `form` selectors match (in their order, else
    any form) that has a password input named `pass_field`. A search box or a reply form is
    never a login form, whatever a loose selector ("form") matched first. CRED-2."""
    candidates = [el for ex in spec.form for el in ex.elements(root)] if spec.form else []
    candidates += root.xpath("//form")
    for form in candidates:
        if getattr(form, "tag", None) == "form" and _has_password_field(form, spec.pass_field):
            return form
    return None


def credential_target(http: HttpClient, endpoint: str, page_url: str, action: str) -> None:
    """LoginFailed unless the login form posts to the configured login endpoint: its origin
    (scheme, host, port), which is the site's own unless the profile names an absolute login
    URL, and its path (the query may differ: SMF posts `action=login` to `action=login2`).
    The login page itself must not have been redirected elsewhere. CRED-1."""
    allowed = origin(endpoint)
    if not allowed:
        raise LoginFailed(f"{http.site}: the login URL {endpoint!r} is not absolute; nothing was sent")
    if origin(page_url) != allowed:
        raise LoginFailed(f"{http.site}: the login page {endpoint} led to {page_url}, another site; "
                          "the password was not sent")
    if origin(action) != allowed:
        raise LoginFailed(f"{http.site}: the login form on {page_url} posts to {action}, not to {allowed}; "
                          "the password was not sent")
    if _path(action) != _path(endpoint):
        raise LoginFailed(f"{http.site}: the form on {page_url} posts to {action}, not to the login endpoint "
                          f"{endpoint}; the password was not sent")


def login_with_form(http: HttpClient, profile: Profile, username: str, password: str) -> None:
    """Log in through the engine's form; LoginFailed with the forum's own message when refused,
    or when no form on the login page may receive the password (SECURITY.md, CRED-1/CRED-2)."""
    spec = profile.login
    if not spec.url:
        raise LoginFailed(f"{profile.name}: the profile has no login form")
    register_secret(password)
    endpoint = http.absolute(spec.url)
    if origin(endpoint) not in (http.site_origin, origin(spec.url)):
        raise LoginFailed(f"{profile.name}: the login URL {endpoint} is not on the site's origin "
                          f"{http.site_origin}; the password was not sent")
    page = http.get(endpoint, check_login=False)
    shown_at = http.clock()
    root = parse_html(page.text)
    form = login_form(spec, root)
    if form is None:
        if spec.logged_in and first_element(spec.logged_in, root) is not None:
            return  # the session cookie is still good
        raise LoginFailed(f"{profile.name}: no login form (a form with a password field "
                          f"{spec.pass_field!r}) at {page.url}; the password was not sent")
    action = urljoin(page.url, form.get("action") or page.url)
    credential_target(http, endpoint, page.url, action)
    data = form_fields(form)
    if spec.csrf_meta:
        token = root.xpath(f"//meta[@name='{spec.csrf_meta}']/@content")
        if token:
            data.setdefault("csrf_token", token[0])
    data.update(spec.extra)
    data[spec.user_field] = username
    data[spec.pass_field] = password
    wait = shown_at + spec.min_form_age - http.clock()
    if wait > 0:  # phpBB refuses a form posted within the second it was shown
        http.pause(wait)
    answer = http.post(action, data)
    refusal = login_refusal(http.site, spec, answer.status, answer.text)
    if refusal is not None:
        raise refusal
    http.save_cookies()


def login_refusal(site: str, spec: LoginSpec, status: int, text: str) -> LoginFailed | None:
    """What the answer to a login POST says, None for a success. Only the forum's own error
    message on the login form means the credentials are wrong (`CredentialsRefused`: that
    password is not tried again); a server error is `LoginUnanswered`; anything else (no
    message, the form shown again) a `LoginFailed` that a later pass tries again."""
    if status >= 500 or status == 429:
        return LoginUnanswered(f"{site}: the forum did not answer the login (HTTP {status})")
    root = parse_html(text)
    err = first(spec.failed, root) if spec.failed else None
    if err:
        return CredentialsRefused(f"{site}: the forum says the credentials are wrong: “{' '.join(err.split())[:200]}”")
    # SMF sends a new login on to the page that asked for it: a missing topic answers 403 or 404,
    # logged in all the same (the page shows the logout link)
    if status >= 400 and not (spec.logged_in and first_element(spec.logged_in, root) is not None):
        return LoginFailed(f"{site}: the login answered HTTP {status} without saying why")
    if spec.login_page and any(ex.elements(root) for ex in spec.login_page) \
            and not (spec.logged_in and first_element(spec.logged_in, root) is not None):
        return LoginFailed(f"{site}: still on the login form after posting the credentials, and the forum says "
                           "nothing about them")
    return None
