"""The settings of scripts/bench_http.py's servers, worker and beat: the site's own
(config.settings.local, configured by the environment as served) with the floor's URL
added and the broker's keys under the run's prefix. The floor belongs to the benchmark,
never to the site's URLs."""

import os

from config.settings.local import *  # noqa: F403
from config.settings.local import CELERY_BROKER_TRANSPORT_OPTIONS

ROOT_URLCONF = "bench_http_urls"
# The Redis database may be another's too: scripts/bench_http.py deletes the run's keys
# (all under its prefix) at the end.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "global_keyprefix": os.environ.get("BENCH_BROKER_PREFIX", "arena-bench:celery:"),
}
