"""Settings shared by every profile, configured only by environment variables.

With no variable set this is the embedded default: SQLite, Celery tasks run
in-process, a local-memory cache and e-mail printed to the console.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "django-insecure-embedded-default-key-change-me")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # Daphne first: `runserver` then serves the ASGI application, its sockets included.
    "daphne",
    # django.contrib.admin, whose site refuses unreadable values with a 400 (core/admin_site.py)
    "core.admin_site.ArenaAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "allauth.headless",
    "rest_framework",
    "channels",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "csp",
    "accounts",
    "games",
    "leaderboards",
    "matches",
    "challenges",
    "codex",
    "achievements",
    "reviews",
    "players",
    "api",
]

MIDDLEWARE = [
    # First: times the whole stack; each request labelled by its URL name (docs/metrics.md).
    "core.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Compresses what the middleware below and the views wrote (HTML is a tenth of its
    # size gzipped); never an answer carrying a secret of its own (config/middleware.py).
    "config.middleware.BreachAwareGZipMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything reads a request: what the API cannot read (a body nested too deep
    # or too large, a query string too long) is refused in its one JSON shape.
    "api.middleware.ApiRequestMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # A sign-out that could not reach its session's cached copy fails (503), with
    # nothing deleted (accounts/sessions.py).
    "config.middleware.SessionNotEndedMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.board_looks",
            ],
        },
    },
    # The board, rendered on every move (config/jinja2.py): its templates are in
    # jinja_templates/, where Django's engine does not look.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja_templates"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "config.jinja2.environment"},
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# Under an ASGI server every request runs on a thread of its own, and a persistent
# connection per thread would leave one connection behind per request: a pool of this
# many connections per server process serves them instead (psycopg's, Django 5.1+).
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "0"))
if DATABASE_POOL_SIZE and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_SIZE,
        "timeout": 10,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Transactions take SQLite's write lock when they begin, so two writers (the server's
    # threads, the embedded pool refill's thread: docs/pool.md) wait for each other within
    # the busy timeout instead of one failing with "database is locked" when its read
    # turns into a write.
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Live match updates (Django Channels): through Redis where there is one, so every
# server process reaches every socket; in process memory in the embedded default.
# Redis's publish/subscribe layer: a push is one PUBLISH, heard at once by the
# processes holding the match's sockets, where the list-based layer ran a script and
# a blocking pop per message (a third of the CPU of a move, scripts/bench_matches.py).
# A push is delivered at most once, as a socket is live at most once: a page that
# missed one gets the state from its next action or its poll.
CHANNEL_LAYERS = {
    "default": (
        {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": os.environ.get("CHANNEL_LAYER_PREFIX", "arena:ws"),
            },
        }
        if REDIS_URL
        else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    )
}
LEADERBOARD_KEY_PREFIX = os.environ.get("LEADERBOARD_KEY_PREFIX", "arena:lb")

if REDIS_URL:
    CACHES = {
        "default": {
            # RedisCache whose rate-limit counters fall back to process memory while
            # Redis is unreachable, so the account pages keep working (accounts/cache.py).
            "BACKEND": "accounts.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "arena"),
            # A Redis that hangs costs a request seconds, not forever.
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions are read from the cache and kept in the database (accounts/sessions.py):
# no query a request, revocable on the server, and served by the database alone
# while Redis is unreachable (docs/decisions.md, "Sessions").
SESSION_ENGINE = "accounts.sessions"

# One backend (allauth's, a ModelBackend): one password hash per login attempt,
# whether the login exists or not (accounts/auth_backends.py).
AUTHENTICATION_BACKENDS = ["accounts.auth_backends.ArenaAuthenticationBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_ADAPTER = "accounts.adapter.ArenaAccountAdapter"
ACCOUNT_FORMS = {"signup": "accounts.forms.ArenaSignupForm"}
# Failed logins are throttled per address, and per login typed from one address
# (the adapter adds the address to allauth's "key"), so nobody can lock a player
# out from elsewhere; allauth keeps the counters in the cache (Redis outside the
# embedded default, falling back to process memory while Redis is down).
ACCOUNT_RATE_LIMITS = {
    "login_failed": os.environ.get("LOGIN_FAILED_RATE_LIMIT", "10/m/ip,5/300s/key"),
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Solitaire Arena <noreply@localhost>")
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

# Content-Security-Policy (django-csp): this site's own files only. No page has an
# inline script, style or event handler, and htmx runs without eval (base.html's
# htmx-config), so no nonce or 'unsafe-*' source is needed anywhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Permissions-Policy (config.middleware): browser features no page uses, refused.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
    )
}

# The public API (/api/v1/, docs/api.md). An app signs in through allauth's headless
# "app" client and sends its session token as X-Session-Token; a browser page uses its
# session cookie, and then DRF asks for the CSRF token on every write.
HEADLESS_CLIENTS = ("app",)
HEADLESS_TOKEN_STRATEGY = "api.tokens.OneReadSessionTokenStrategy"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.SessionTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.ArenaAutoSchema",
    "EXCEPTION_HANDLER": "api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        # Five actions a second for a whole minute: no person keeps that up (a safe
        # card sent home by the automatic-moves setting rides on its move's request),
        # and a script hammering the server is held to it.
        "moves": os.environ.get("API_MOVE_RATE", "300/min"),
        # New deals and restarts, through the board or the API alike (games.throttles):
        # one every two seconds for a whole minute; a deal may run the solver.
        "deals": os.environ.get("DEAL_RATE", "30/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Solitaire Arena API",
    "DESCRIPTION": (
        "Everything the web board does, for a mobile or third-party client. "
        "docs/api.md walks through a whole game."
    ),
    "VERSION": "1.0.0",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "COMPONENT_SPLIT_REQUEST": True,
    # A game's, a match's and a table's: each is a `state` (docs/api.md, "One name for
    # one thing").
    "ENUM_NAME_OVERRIDES": {
        "GameStateEnum": "games.models.Game.Status",
        "MatchStateEnum": "matches.models.Match.Status",
        "TableStateEnum": "api.serializers.public.TABLE_STATES",
        "SuitEnum": "games.engine.cards.SUITS",
    },
    # allauth's own OpenAPI description of its headless endpoints joins ours.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.headless_paths_merge",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery: without a broker the tasks run in-process (the embedded default).
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis hands a message out again once it has gone this long unacknowledged:
# that is how the task of a killed worker runs again. It must exceed the
# longest hard time limit of any task (660 s: a daily deal's certification) or a
# task still running would go to a second worker.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 900}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
# The one beat schedule of the project.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # The next day's deals are certified in the evening, one task per game
    # (docs/leaderboards.md, "Certified deals"); 00:00 is the safety net.
    "daily-deals-certify": {
        "task": "leaderboards.tasks.daily_deals_certify_task",
        "schedule": crontab(minute=0, hour=22),
    },
    "daily-deals": {
        "task": "leaderboards.tasks.daily_deals_create_task",
        "schedule": crontab(minute=0, hour=0),
    },
    # Tomorrow's challenges in the evening (the solver proves each goal); 00:05 makes
    # any still missing for the day that has begun.
    "challenges-next-day": {
        "task": "challenges.tasks.challenges_create_task",
        "schedule": crontab(minute=30, hour=21),
        "kwargs": {"days_ahead": 1},
    },
    "challenges-today": {
        "task": "challenges.tasks.challenges_create_task",
        "schedule": crontab(minute=5, hour=0),
        "kwargs": {"days_ahead": 0},
    },
    "matches-time-up": {
        "task": "matches.tasks.matches_time_up_sweep_task",
        "schedule": 30.0,
    },
    "matches-queue": {
        "task": "matches.tasks.queue_pair_task",
        "schedule": 5.0,
    },
    "leaderboards-sync": {
        "task": "leaderboards.tasks.leaderboards_sync_task",
        "schedule": 60.0,
    },
    "score-counts-sync": {
        "task": "leaderboards.tasks.score_counts_sync_task",
        "schedule": 600.0,
    },
    "period-rankings": {
        "task": "leaderboards.tasks.period_rankings_compute_task",
        "schedule": 300.0,
    },
    "games-time-up": {
        "task": "games.tasks.games_time_up_sweep_task",
        "schedule": 10.0,
    },
    "achievements-catch-up": {
        "task": "achievements.tasks.achievements_catch_up_task",
        "schedule": 300.0,
    },
    # The Codex's title that moves: each scenario game's evaluation enqueues it too,
    # so this is the catch-up.
    "master-architect": {
        "task": "codex.tasks.master_architect_update_task",
        "schedule": 600.0,
    },
    "reviews-sweep": {
        "task": "reviews.tasks.reviews_sweep_task",
        "schedule": 300.0,
    },
    "winnable-pools": {
        "task": "games.tasks.pools_refill_task",
        "schedule": 300.0,
    },
}

# Certified daily deals (leaderboards/certification.py): the solver's budget for one
# seed of each game, the seeds drawn at most, and the time of all of a game's seeds
# together (the task's soft limit is 10 minutes: the pure-Python solver must fit).
# A won seed is mostly won early (pure Python, 20 seeds each: Kingsley's wins took
# 1.3 to 13 s, Spiderette's 0.4 to 13 s), so short budgets over more seeds win sooner.
DAILY_CERTIFY_BUDGET_MS: dict[str, int] = {
    "klondike": 10_000,
    "kingsley": 15_000,
    "spiderette": 10_000,
    "steps": 10_000,
    "spike": 5_000,
}
DAILY_CERTIFY_DEFAULT_BUDGET_MS = 20_000
DAILY_CERTIFY_MAX_TRIES = int(os.environ.get("DAILY_CERTIFY_MAX_TRIES", "50"))
DAILY_CERTIFY_TIME_MS = int(os.environ.get("DAILY_CERTIFY_TIME_MS", "540000"))

# Called inside the transaction that closes a game, with the game (the daily
# result row must be written with the game it ranks).
GAME_CLOSE_HOOKS: list[str] = [
    "leaderboards.services.result_record",
    "matches.services.match_game_closed",
    "core.metrics.game_closed_hook",
]
# Run inside every action's transaction, after its one write, with the game and the
# engine's positions after and before the action (`state`, `state_before`; None where
# the action does not hold them): a match follows its seats' progress. A hook returns
# at once for a game not of its track.
GAME_ACTION_HOOKS: list[str] = [
    "matches.services.match_game_acted",
    "challenges.services.challenge_game_acted",
]
# Called inside the review's transaction when the hold on a closed game's result changes
# (Game.review_hold: held while under review, voided, or none once cleared), with the
# game: each app takes the game out of what it counts, or puts it back (docs/review.md).
# A hook returns at once for a game not of its track.
GAME_REVIEW_HOLD_HOOKS: list[str] = [
    "leaderboards.services.result_game_hold_changed",
    "matches.services.match_game_hold_changed",
    "challenges.services.challenge_game_hold_changed",
    "codex.services.scenario_game_hold_changed",
]
# Tasks enqueued (with the game's id) when a game closes, in this order.
GAME_CLOSED_TASKS: list[str] = [
    "achievements.tasks.achievements_evaluate_task",
    "reviews.tasks.game_review_task",
]

# Tasks enqueued (with the match's id) when a match settles, in this order.
MATCH_SETTLED_TASKS: list[str] = [
    "matches.tasks.match_ratings_task",
    "achievements.tasks.match_achievements_task",
]
# The quick-match queue (docs/matches.md): two players are paired when their ratings
# are this close, and the window widens by this much for every 10 seconds waited.
MATCH_QUEUE_WINDOW_START = 100.0
MATCH_QUEUE_WINDOW_WIDENS_BY = 50.0
MATCH_QUEUE_WINDOW_MAX = 800.0

# Review of results (docs/review.md): the thresholds of the automatic flags.
# Implausible speed: fewer seconds per action than this, over at least this many
# actions (every move, tap, undo, auto-complete and finish request counts one)...
REVIEW_MIN_SECONDS_PER_MOVE = float(os.environ.get("REVIEW_MIN_SECONDS_PER_MOVE", "0.25"))
REVIEW_MIN_MOVES_FOR_SPEED = int(os.environ.get("REVIEW_MIN_MOVES_FOR_SPEED", "20"))
# ...or a win faster than its game's `min_win_seconds` (games/specs.py).
# Score outlier: a result above median + MADS x MAD of the deal's other listed
# results with the same outcome (won or not), once there are at least MIN_RESULTS;
# MAD is taken as at least MIN_MAD (a deal where most scores are equal).
REVIEW_OUTLIER_MIN_RESULTS = int(os.environ.get("REVIEW_OUTLIER_MIN_RESULTS", "20"))
REVIEW_OUTLIER_MADS = float(os.environ.get("REVIEW_OUTLIER_MADS", "5"))
REVIEW_OUTLIER_MIN_MAD = float(os.environ.get("REVIEW_OUTLIER_MIN_MAD", "1"))
# The score check of a result waits for enough results while its deal is this recent.
REVIEW_OUTLIER_RECHECK_DAYS = 2
# The sweep: closed games finished in the last SWEEP_DAYS (but not in the last
# GRACE seconds, which their own task is handling) with no verification, BATCH a run.
REVIEW_SWEEP_DAYS = 7
REVIEW_SWEEP_GRACE_SECONDS = 60
REVIEW_SWEEP_BATCH = 500
# The sweep's recheck of listed results: every one of today's and yesterday's deals,
# and this many listed results drawn at random from all the others, each run. A record
# whose digest differs from its last verification is replayed again.
REVIEW_RESAMPLE_SIZE = int(os.environ.get("REVIEW_RESAMPLE_SIZE", "50"))

# Daily challenges (docs/challenges.md): each deal's search within this budget, and at
# most this many deals drawn per game and day; tasks enqueued (with the player's id and
# the month) when a player completes one. A page that finds the day's challenges
# missing has them made off the request (a task; in the embedded default, a thread).
CHALLENGE_SEED_BUDGET_MS = int(os.environ.get("CHALLENGE_SEED_BUDGET_MS", "5000"))
CHALLENGE_MAX_TRIES = int(os.environ.get("CHALLENGE_MAX_TRIES", "20"))
CHALLENGE_COMPLETED_TASKS: list[str] = ["achievements.tasks.challenge_month_awards_task"]
CHALLENGE_MAKE_ON_READ = env_bool("CHALLENGE_MAKE_ON_READ", True)

# The pools of certified winnable deals (docs/pool.md): seeds waiting per game, rules
# version and option set (fewer in the embedded default, where this process certifies
# them), certified a chunk at a time by games.tasks.pool_refill_task, each seed's
# search within its budget; a pool found empty, and options without a pool, are
# certified while the player waits, within the inline budget (then an ordinary deal).
POOL_TARGET_SIZE = int(os.environ.get("POOL_TARGET_SIZE") or (20 if REDIS_URL else 5))
POOL_CHUNK_SIZE = int(os.environ.get("POOL_CHUNK_SIZE", "3"))
POOL_CHUNK_SECONDS = int(os.environ.get("POOL_CHUNK_SECONDS", "120"))
POOL_SEED_BUDGET_MS = int(os.environ.get("POOL_SEED_BUDGET_MS", "10000"))
# Games whose solver needs longer for one seed (Spiderette: docs/solvers.md's 30 s aim).
POOL_SEED_BUDGET_MS_BY_GAME: dict[str, int] = {"spiderette": 30_000}
POOL_INLINE_BUDGET_MS = int(os.environ.get("POOL_INLINE_BUDGET_MS", "3000"))
# Without a broker the refill after a deal runs in a thread of this process, off the
# request (off: in the caller, on commit).
POOL_BACKGROUND_REFILL = env_bool("POOL_BACKGROUND_REFILL", True)
# The games the settings page offers winnable deals of (accounts cannot import games).
WINNABLE_ONLY_CHOICES = "games.services.pool.pool_game_choices"

# Game clock: time counts up from the server clock, and each gap between two
# requests of the player counts for at most this many seconds.
GAME_IDLE_GAP_CAP_SECONDS = int(os.environ.get("GAME_IDLE_GAP_CAP_SECONDS", "30"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
