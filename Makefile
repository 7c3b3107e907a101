# The two commands a newcomer needs: `make play` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck unit chromium bench screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The web game at http://127.0.0.1:8000, games kept in ./okgin.db (SQLite).
play: $(STAMP)
	$(BIN)/okgin serve

lint: $(STAMP)
	$(BIN)/ruff check okgin tests bench

typecheck: $(STAMP)
	$(BIN)/mypy okgin

# The browser tests drive Debian's Chromium through Playwright (no browser download).
chromium:
	command -v chromium || (apt-get update && apt-get install -y chromium)

# axe-core (the accessibility scan in the browser tests) comes from npm, pinned by package-lock.json.
node_modules/axe-core/axe.min.js:
	npm ci --no-audit --no-fund

unit: $(STAMP) chromium node_modules/axe-core/axe.min.js
	$(BIN)/pytest -q

test: lint typecheck unit

# Benchmarks (not tests): the meld solver and the simple bot beside their OpenSpiel/RLCard
# peers, the computer players' decision times, and 200 games over WebSockets.
bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/bench_melds.py
	$(BIN)/python bench/bench_bots.py
	$(BIN)/python bench/bench_load.py --games 200 --think 1.0
	$(BIN)/python bench/bench_game_memory.py --games 20

# The README's screenshots, as the last `make test` took them (artifacts/).
screenshots:
	cp artifacts/desktop-table.png docs/screenshot.png
	cp artifacts/phone-375x740.png docs/screenshot-phone.png
	cp artifacts/phone-360x640.png docs/screenshot-phone-small.png

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
