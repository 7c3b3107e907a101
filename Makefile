# The two commands a newcomer needs: `make play` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-fast check-puzzles lint typecheck unit system bench screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The web game at http://127.0.0.1:8000, games kept in ./okgin.db (SQLite), brought to this okgin's schema first.
play: $(STAMP)
	$(BIN)/okgin db upgrade
	$(BIN)/okgin serve

lint: $(STAMP)
	$(BIN)/ruff check okgin tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy okgin

# Debian packages the tests need, installed when missing (one `apt-get update` first): Chromium
# for the browser tests (Playwright drives it, no browser download), PostgreSQL and Redis for
# the scale-out tests (tests/support/real_servers.py starts throwaway servers of both), npm for axe-core.
system:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	{ command -v nginx >/dev/null || test -x /usr/sbin/nginx; } || missing="$$missing nginx"; \
	if [ -n "$$missing" ]; then \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; fi

# axe-core (the accessibility scan in the browser tests) comes from npm, pinned by package-lock.json.
node_modules/axe-core/axe.min.js: package-lock.json | system
	npm ci --no-audit --no-fund

# Three workers, each taking whole files (a file's fixtures, servers and browser start once): many
# tests wait on servers, browsers and animations, so on two cores a third worker still finds CPU
# (quiet, 6 Dec: 8 min 44 s of pytest, the CPU 87% busy). The files go out longest first, as
# tests/durations.json measured them (tests/support/longest_first.py), so no long file starts
# last. Chromium is launched without the renderers it makes for each page and nobody sees
# headless (tests/browser/conftest.py): about 0.7 s of CPU less for each page a test opens.
# okgin's bytecode is written first: the suite starts many okgin processes, and where
# PYTHONDONTWRITEBYTECODE is set each would compile every module again (0.88 s of CPU to
# import the server from source, 0.74 s from bytecode).
XDIST := --dist loadfile --no-loadscope-reorder
unit: $(STAMP) system node_modules/axe-core/axe.min.js
	$(BIN)/python -m compileall -q okgin
	$(BIN)/pytest -q -n 3 $(XDIST) --durations=25

test: lint typecheck unit

# The quick loop while working: every test but those of whole processes and real servers
# (tests/system/, marker `system`), of Chromium (tests/browser/, marker `browser`) and those
# that take more than about 2 s each (marker `slow`). Under 2 minutes on two quiet cores.
test-fast: $(STAMP)
	$(BIN)/python -m compileall -q okgin
	$(BIN)/pytest -q -n 2 $(XDIST) -m "not system and not browser and not slow"

# Every shipped puzzle priced again on fresh guesses (docs/puzzles.md): about 0.8 s of CPU a
# puzzle, so not part of make test (which checks a seeded sample of 25).
check-puzzles: $(STAMP)
	$(BIN)/pytest -q -n 2 -p no:randomly -m puzzles tests/puzzles/test_shipped_puzzles.py

# Benchmarks (not tests): the meld solver and the simple bot beside their OpenSpiel/RLCard
# peers, the computer players' decision times, hands per match under each preset, okgin.env
# beside OpenSpiel's gin_rummy, and 200 games over WebSockets.
bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench,rl]'
	$(BIN)/python bench/bench_melds.py
	$(BIN)/python bench/bench_bots.py
	$(BIN)/python bench/bench_match_length.py
	$(BIN)/python bench/bench_env.py
	$(BIN)/python bench/bench_load.py --games 200 --think 1.0
	$(BIN)/python bench/bench_game_memory.py --games 20
	$(BIN)/python bench/bench_flood.py --moves 300
	$(BIN)/python bench/bench_coach.py --hands 30 --runs 3
	$(BIN)/python bench/bench_frames.py

# The README's screenshots, as the last `make test` took them (artifacts/; every screen's picture
# with OKGIN_SCREENSHOTS=1 make test).
screenshots:
	cp artifacts/desktop-table.png docs/screenshot.png
	cp artifacts/phone-375x740.png docs/screenshot-phone.png
	cp artifacts/phone-360x640.png docs/screenshot-phone-small.png
	cp artifacts/layout-room-4-table-1280x800.png docs/screenshot-room.png
	cp artifacts/layout-solo-2-table-740x360.png docs/screenshot-phone-sideways.png
	cp artifacts/phone-table-375x740.png docs/screenshot-phone-table.png
	cp artifacts/pages-tournament-finished-1280x800.png docs/screenshot-tournament.png
	cp artifacts/pages-leaderboard-1280x800.png docs/screenshot-leaderboard.png

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
