# Front door: `make serve` builds and serves the site, `make test` runs every test.
# Both install what they need into .venv and node_modules first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve site test bench snapshots messages deps browser clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[build,test]"
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

deps: $(VENV)/.installed node_modules/.installed

site: deps
	$(PY) -m mkdocs build --strict --site-dir site

serve: site
	$(PY) -m mkdocs serve --strict --dev-addr 127.0.0.1:8000

# Chromium and nginx for the browser tests, installed when missing (tests/browser_setup.py).
browser: deps
	$(PY) -m tests.browser_setup

test: deps browser
	$(PY) -m pytest

bench: site browser
	$(PY) -m tests.bench

# Rewrite the SVG snapshots under tests/snapshots on purpose, after reviewing a -changed.svg.
snapshots: deps
	SNAPSHOTS=update $(PY) -m pytest -q tests/unit/test_snapshots.py

# Extract every message into pycore/locale/messages.pot and merge it into each language's catalog (README, Languages).
messages: deps
	$(PY) -m pycore.sitegen.catalogs

clean:
	rm -rf site $(VENV) node_modules .cache bench-results
