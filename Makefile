# Two commands for a fresh machine (README): `make sim` and `make test`.
# Each creates .venv and installs what it needs by itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: sim test board bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

sim: $(STAMP)
	$(BIN)/okgin sim

test: $(STAMP)
	$(BIN)/python -m pytest -q

board: $(STAMP)
	$(BIN)/okgin board

bench: $(STAMP)
	$(BIN)/okgin bench engine

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache
