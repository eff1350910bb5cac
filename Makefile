# One-command set-up, test, simulator and benchmarks. Variables use ?= so they can be overridden.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= /dev/ttyACM0
# make deploy's board: pico (RP2040), pico2 (RP2350) or esp32s3 (hardware/board.json)
BOARD ?= pico
# FROZEN=1: the board's MicroPython image holds the firmware (hardware/README.md, section 5)
FROZEN ?=
PYTEST_ARGS ?=
STRENGTH_ARGS ?=
STAMP := $(VENV)/.installed
# The emulated Pico (emulator/): rp2040js from the npm registry, pinned by its package-lock.json
NODE_STAMP := emulator/node_modules/.installed
# make chip's inputs, none of them part of the project (hardware/README.md): the Pico's
# MicroPython image, stock and with the firmware frozen (each firmware.elf beside its UF2 for
# the heap's figures), and the RP2040's bootrom
CHIP_STOCK ?=
CHIP_FROZEN ?=
CHIP_BOOTROM ?=
TYPINGS := $(VENV)/typings

.PHONY: all setup test test-deep sim bench train strength lint typecheck deploy wheel clean web \
	browser bearoff emulator chip frozen-weights

all: test

# The venv, the pinned packages, this package (editable), and the firmware's type stubs in
# their own folder (requirements-stubs.txt says why).
$(STAMP): requirements.txt requirements-stubs.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e . || $(BIN)/pip install --quiet --no-deps -e .
	rm -rf $(TYPINGS)
	$(BIN)/pip install --quiet --no-user --target $(TYPINGS) -r requirements-stubs.txt
	touch $(STAMP)

setup: $(STAMP)

$(NODE_STAMP): emulator/package.json emulator/package-lock.json
	cd emulator && npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

emulator: $(NODE_STAMP)

# The web page's MicroPython (`ledgammon web`): npm's WebAssembly port, pinned in
# web/package-lock.json, copied into the package (host/ledgammon/web/static/vendor/, shipped
# in the wheel as package data); the page fetches nothing else at run time.
WEB_NPM := web/node_modules/@micropython/micropython-webassembly-pyscript
WEB_VENDOR := host/ledgammon/web/static/vendor
$(WEB_VENDOR)/.copied: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	mkdir -p $(WEB_VENDOR)
	cp $(WEB_NPM)/micropython.mjs $(WEB_NPM)/micropython.wasm $(WEB_VENDOR)/
	touch $@

web: $(WEB_VENDOR)/.copied

# The browser the page's tests drive (tests/webkit.py): Debian's chromium, installed with
# apt-get when missing (CI runs as root; elsewhere install it yourself or set CHROMIUM).
CHROMIUM ?= /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { apt-get update -q && apt-get install -y -q chromium; } \
		|| { echo "make browser: $(CHROMIUM) is missing and could not be installed" >&2; exit 1; }

# Two workers that take tests from each other's queue when they run out (worksteal), so no
# core idles while the other finishes a long test. test-deep: every fuzz example and every
# 8 KB step of the heap sweeps (tests/conftest.py): the long run.
test: $(STAMP) $(NODE_STAMP) web browser
	$(BIN)/python -m pytest -n 2 --dist worksteal $(PYTEST_ARGS) tests

test-deep: $(STAMP) $(NODE_STAMP) web browser
	LEDGAMMON_DEEP=1 $(BIN)/python -m pytest -n 2 --dist worksteal $(PYTEST_ARGS) tests

sim: $(STAMP)
	$(BIN)/ledgammon play

bench: $(STAMP)
	$(BIN)/python -m bench.run

# The one-sided bear-off table the board plays bear-offs by (build/bearoff.bin, a few seconds;
# generated, not kept in git: docs/opponent.md), and the module that freezes it into an image
# (build/frozen/bearoff_data.py, read by firmware/manifest.py). deploy and the tests make
# build/bearoff.bin themselves when it is missing.
bearoff: $(STAMP)
	$(BIN)/python -m ledgammon.train.bearoff_table
	$(BIN)/python -m ledgammon.train.bearoff_table --module

# The board's network as a module a frozen image holds in flash (build/frozen/weights_data.py,
# from firmware/weights-64.bin; firmware/manifest.py freezes it when it is there): make it
# before building the image (hardware/README.md, section 5).
frozen-weights: $(STAMP)
	$(BIN)/python -m ledgammon.train.frozen_weights

# The board on its real chip: both images on the emulated RP2040, deployed and played to the
# end over the link; build/chip.json and a table (bench/README.md). About an hour.
chip: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m bench.chip $(if $(CHIP_STOCK),--stock $(CHIP_STOCK)) \
		$(if $(CHIP_FROZEN),--frozen $(CHIP_FROZEN)) $(if $(CHIP_BOOTROM),--bootrom $(CHIP_BOOTROM))

# The board's opponent: self-play training (about an hour on one core), then its refinement
# on GNU Backgammon's evaluations (about half an hour), then the same grown to 64 hidden units
# for the boards with room (firmware/weights-64.bin, a few minutes); each stage resumable.
train: $(STAMP)
	$(BIN)/python -m ledgammon.train
	$(BIN)/python -m ledgammon.train.teacher
	$(BIN)/python -m ledgammon.train.teacher --hidden 64 --epochs 12 --init firmware/weights.bin \
		--checkpoint build/train/teacher-64.npz --weights firmware/weights-64.bin

# The board's levels against GNU Backgammon 0-ply and a heuristic: cubeless on three fresh
# seeds, then with the cube (money games, 7-point matches, its cube decisions judged by gnubg
# 2-ply); the issue's full counts take hours. A quicker run:
# make strength STRENGTH_ARGS="--games 200 --cube-money 200 --cube-matches 40 --cube-decisions 200"
strength: $(STAMP)
	$(BIN)/python -m bench.strength $(STRENGTH_ARGS)

lint: typecheck
	$(BIN)/ruff check firmware native host tests bench hardware

# The host code as CPython code; the firmware as MicroPython code, against the rp2 stubs, in
# a cache of its own that the suite's check (tests/test_typecheck.py) shares: warm after it.
typecheck: $(STAMP)
	$(BIN)/mypy host/ledgammon
	MYPYPATH=$(TYPINGS) $(BIN)/mypy --config-file mypy-firmware.ini --custom-typeshed-dir $(TYPINGS) \
		--cache-dir .mypy_cache/firmware

deploy: $(STAMP)
	$(BIN)/ledgammon deploy --port $(PORT) --board $(BOARD) $(if $(FROZEN),--frozen)

# The installable tool, firmware included (pip install dist/ledgammon-*.whl[all]). build/lib
# goes first: setuptools never removes files from it, so a deleted module would ship.
wheel: $(STAMP) web
	rm -rf build/lib build/bdist.* dist
	$(BIN)/pip wheel --quiet --no-deps --no-build-isolation -w dist .

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache web/node_modules $(WEB_VENDOR)
