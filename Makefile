# Two commands for a fresh machine (README): `make sim` and `make test`.
# Each creates .venv and installs what it needs by itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: sim test board bench clean

# The first run downloads about 40 MB: pip's own lines and bars show it
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
