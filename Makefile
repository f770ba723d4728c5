# tianti: `make test` and `make play` set everything up themselves.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# STAMP: everything (tests, OpenSpiel, Ray, matplotlib), for `make test` (CI: .ci/run).
# PLAY_STAMP: only what playing needs (the base dependencies and the build tools), for `make play`.
STAMP      := $(VENV)/.tianti-installed
PLAY_STAMP := $(VENV)/.tianti-play-installed
# `make play ARGS="mount-tai -p 1 -o solo=true"`: the arguments of `tianti play`.
ARGS   ?= dragon

.PHONY: test play build build-play bench annotate clean

# The virtual environment with the build tools (shared by both installs).
$(VENV)/.tianti-tools:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "setuptools>=68" wheel "Cython>=3.0"
	touch $@

$(STAMP): pyproject.toml setup.py $(VENV)/.tianti-tools
	TIANTI_SKIP_EXTENSIONS=1 $(PY) -m pip install --quiet --no-build-isolation -e '.[test,openspiel,ray,plot]'
	touch $(STAMP) $(PLAY_STAMP)

$(PLAY_STAMP): pyproject.toml setup.py $(VENV)/.tianti-tools
	TIANTI_SKIP_EXTENSIONS=1 $(PY) -m pip install --quiet --no-build-isolation -e .
	touch $(PLAY_STAMP)

# Builds the extensions in place (only those whose sources changed).
build: $(STAMP)
	$(PY) setup.py --quiet build_ext --inplace --parallel 2

build-play: $(PLAY_STAMP)
	$(PY) setup.py --quiet build_ext --inplace --parallel 2

test: build
	$(PY) -m pytest

play: build-play
	$(VENV)/bin/tianti play $(ARGS)

bench: build
	$(PY) -m pytest benchmarks --benchmark-only

annotate: $(STAMP)
	TIANTI_ANNOTATE=1 $(PY) setup.py --quiet build_ext --inplace --force

clean:
	rm -rf build $(VENV) *.egg-info
	find engine ai ladder \( -name '*.so' -o -name '*.c' -o -name '*.html' \) -delete
