# One-command set-up, test, simulator and benchmarks. Variables use ?= so they can be overridden.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= /dev/ttyACM0
PYTEST_ARGS ?=
STRENGTH_ARGS ?=
STAMP := $(VENV)/.installed

.PHONY: all setup test sim bench train strength lint typecheck deploy clean

all: test

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e . || $(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

setup: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS) tests

sim: $(STAMP)
	$(BIN)/ledgammon play

bench: $(STAMP)
	$(BIN)/python bench/run.py

# Self-play training of the board's opponent (about an hour on one core; resumable).
train: $(STAMP)
	$(BIN)/python -m ledgammon.train

# The board's levels against GNU Backgammon 0-ply and a heuristic (points per game).
strength: $(STAMP)
	$(BIN)/python bench/strength.py $(STRENGTH_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check firmware native host tests bench hardware

typecheck: $(STAMP)
	$(BIN)/mypy host/ledgammon

deploy: $(STAMP)
	$(BIN)/ledgammon deploy --port $(PORT)

clean:
	rm -rf $(VENV) build .pytest_cache
