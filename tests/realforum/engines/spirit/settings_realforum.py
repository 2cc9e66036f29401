"""Settings of the Spirit test forum (copied into the generated project as
`mysite/settings/realforum.py`). Every path and the port come from the environment, so one
install serves any run folder:

  FORUMMOD_SPIRIT_DATA   folder of this run's state: db.sqlite3, st_search/, media/, django.log
  FORUMMOD_SPIRIT_PORT   the loopback port the server listens on (for ST_SITE_URL)
"""

import os

from .dev import *  # noqa: F401,F403  (sqlite, LocMemCache, MD5 hasher, console e-mail)
from .dev import CACHES, DATABASES, HAYSTACK_CONNECTIONS, LOGGING, TEMPLATES

_DATA = os.environ["FORUMMOD_SPIRIT_DATA"]
_PORT = os.environ.get("FORUMMOD_SPIRIT_PORT", "8000")

DEBUG = False
TEMPLATES[0]["OPTIONS"]["debug"] = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SECRET_KEY = "forummod-realforum-not-secret"

DATABASES["default"]["NAME"] = os.path.join(_DATA, "db.sqlite3")
HAYSTACK_CONNECTIONS["default"]["PATH"] = os.path.join(_DATA, "st_search")
MEDIA_ROOT = os.path.join(_DATA, "media")
LOGGING["handlers"]["file"]["filename"] = os.path.join(_DATA, "django.log")
# no e-mail to ADMINS on errors: the traceback goes to the server log instead
for _logger in LOGGING["loggers"].values():
    _logger["handlers"] = ["console"]
CACHES["st_rate_limit"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                           "LOCATION": "spirit_rl_cache", "TIMEOUT": None}

ST_RATELIMIT_ENABLE = False           # login 5 per 5 min per user name, comments 1 per 10 s
ST_DOUBLE_POST_THRESHOLD_MINUTES = 0  # otherwise an identical post within 30 min is dropped
ST_SITE_URL = f"http://127.0.0.1:{_PORT}/"
ST_NOTIFY_WHEN = "never"
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en"
