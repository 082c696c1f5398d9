# Solitaire Arena: `make run` serves the site, `make test` runs every check.
# Needs only Python 3.11 and make: uv is installed into .tools/ and creates .venv/.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
UV_VERSION := 0.13.9
UV := .tools/bin/uv
VENV_PY := .venv/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run install install-dev test lint typecheck pytest browser node-deps worker beat clean

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet "uv==$(UV_VERSION)"

# Each also builds the solvers' compiled cores where a C compiler exists (the
# pure-Python solvers answer where it does not); CI demands them (--strict).
NATIVE_FLAGS := $(if $(CI),--strict,)

install: $(UV)
	$(UV) sync --frozen --no-dev --python "$(PYTHON)"
	$(VENV_PY) scripts/build_native.py $(NATIVE_FLAGS)

install-dev: $(UV)
	$(UV) sync --frozen --python "$(PYTHON)"
	$(VENV_PY) scripts/build_native.py $(NATIVE_FLAGS)

# Today's and tomorrow's daily deals are certified before the server starts (no
# worker runs in the embedded default; seconds with the compiled solvers, and the
# deals already certified are left alone on the next run).
run: install
	$(VENV_PY) manage.py migrate --no-input
	$(VENV_PY) manage.py daily_deals_certify
	$(VENV_PY) manage.py challenges_make
	$(VENV_PY) manage.py arena_demo_user --host $(HOST) --port $(PORT)
	$(VENV_PY) manage.py runserver $(HOST):$(PORT)

test: install-dev browser node-deps lint typecheck pytest

lint:
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/lint-imports
	.venv/bin/bandit -q -ll -c pyproject.toml -r .

typecheck:
	.venv/bin/mypy

# The suite on two processes (pytest-xdist), each with its own test database and
# Redis database (config/settings/test.py); PYTEST_WORKERS=0 runs it in one.
pytest:
	$(VENV_PY) manage.py makemigrations --check --dry-run
	.venv/bin/pytest -n $(or $(PYTEST_WORKERS),2)

# axe-core (package.json, pinned in package-lock.json) for the browser tests'
# accessibility checks. Without npm they skip, and say so; CI must have it.
node-deps:
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --no-audit --no-fund; \
	elif [ -n "$$CI" ]; then \
		echo "CI must run the accessibility checks, but npm is missing (apt-get install npm)" >&2; exit 1; \
	else \
		echo "npm is missing: the browser tests' axe-core checks will be skipped (apt-get install npm)"; \
	fi

# Browser tests drive Debian's Chromium; install it where we can (root with apt).
browser:
	@sh scripts/ensure_chromium.sh

worker: install
	.venv/bin/celery -A config worker --loglevel=info

beat: install
	.venv/bin/celery -A config beat --loglevel=info

clean:
	rm -rf .venv .tools staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
