"""Form login driven by a profile: fetch the form, keep its hidden fields (CSRF tokens),
fill the credentials, post once, and check the answer. Secrets are registered for redaction."""

from __future__ import annotations

import os
from urllib.parse import urljoin

from forummod.errors import ConfigError, LoginFailed
from forummod.forum.html_engine import first, first_element, parse_html
from forummod.forum.http import HttpClient
from forummod.forum.profile import Profile
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


def login_with_form(http: HttpClient, profile: Profile, username: str, password: str) -> None:
    """Log in through the engine's form; LoginFailed with the forum's own message when refused."""
    spec = profile.login
    if not spec.url:
        raise LoginFailed(f"{profile.name}: the profile has no login form")
    register_secret(password)
    page = http.get(spec.url, check_login=False)
    shown_at = http.clock()
    root = parse_html(page.text)
    form = first_element(spec.form, root) if spec.form else None
    if form is None:
        forms = root.xpath("//form[.//input[@type='password']]")
        form = forms[0] if forms else None
    if form is None:
        if spec.logged_in and first_element(spec.logged_in, root) is not None:
            return  # the session cookie is still good
        raise LoginFailed(f"{profile.name}: no login form at {page.url}")
    data = form_fields(form)
    if spec.csrf_meta:
        token = root.xpath(f"//meta[@name='{spec.csrf_meta}']/@content")
        if token:
            data.setdefault("csrf_token", token[0])
    data.update(spec.extra)
    data[spec.user_field] = username
    data[spec.pass_field] = password
    action = urljoin(page.url, form.get("action") or page.url)
    wait = shown_at + spec.min_form_age - http.clock()
    if wait > 0:  # phpBB refuses a form posted within the second it was shown
        http.sleep(wait)
    answer = http.post(action, data)
    aroot = parse_html(answer.text)
    if answer.status >= 400:
        raise LoginFailed(f"{profile.name}: login answered HTTP {answer.status}")
    if spec.failed:
        err = first(spec.failed, aroot)
        if err:
            raise LoginFailed(f"{profile.name}: the forum refused the login: {err[:200]}")
    if spec.login_page and any(ex.elements(aroot) for ex in spec.login_page) \
            and not (spec.logged_in and first_element(spec.logged_in, aroot) is not None):
        raise LoginFailed(f"{profile.name}: still on the login form after posting credentials (wrong password?)")
    http.save_cookies()
