"""The settings of scripts/bench_http.py's servers: the site's own (config.settings.local,
configured by the environment as served) with the floor's URL added. The floor belongs to
the benchmark, never to the site's URLs."""

from config.settings.local import *  # noqa: F403

ROOT_URLCONF = "bench_http_urls"
