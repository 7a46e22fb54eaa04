# Two commands for a fresh machine (README): `make sim` and `make test`.
# Each creates .venv and installs what it needs by itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

WEBDEPS := host/web/node_modules/.package-lock.json
CHIPDEPS := host/chip/node_modules/.package-lock.json

.PHONY: sim web test check board bench case clean

# The first run downloads about 100 MB (OpenSpiel and its SciPy: 60 MB): pip's own lines and bars show it
# moving. setuptools' "Editable installation" notice (mind same-named folders
# in the working directory) is filtered: this checkout is the package.
$(STAMP): pyproject.toml
	@echo "okgin: setting up $(VENV) (first run, or pyproject.toml changed: about a minute)"
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --upgrade pip
	@PYTHONWARNINGS='ignore:Editable installation' $(BIN)/python -m pip install \
	    --progress-bar on -e '.[dev]'
	@touch $(STAMP)
	@echo "okgin: $(VENV) is ready"

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

sim: $(STAMP)
	$(BIN)/okgin sim

web: $(STAMP) $(WEBDEPS)
	$(BIN)/okgin web

test: $(STAMP) $(WEBDEPS) $(CHIPDEPS)
	$(BIN)/python -m pytest -q

# The fast loop (about a minute, no board): the engine, the computer
# players, the firmware's drivers and app on fakes, lint, types and import
# rules: the tests marked `unit` (tests/conftest.py has the tiers). Also
# `pytest -m board`, `-m chip`, `-m ui`, `-m slow`, or any folder or file.
check: $(STAMP)
	$(BIN)/python -m pytest -q -m unit

board: $(STAMP)
	$(BIN)/okgin board

bench: $(STAMP)
	$(BIN)/okgin bench engine

# Re-render the printable case into hardware/case (needs openscad; about a
# minute). make test builds it too, into a temporary directory.
case: $(STAMP)
	$(BIN)/okgin hardware build

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache host/web/node_modules host/chip/node_modules
