# tianti: `make test` and `make play` set everything up themselves.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.tianti-installed

.PHONY: test play build bench annotate clean

$(STAMP): pyproject.toml setup.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "setuptools>=68" wheel "Cython>=3.0"
	TIANTI_SKIP_EXTENSIONS=1 $(PY) -m pip install --quiet --no-build-isolation -e '.[test,openspiel,ray,plot]'
	touch $(STAMP)

# Builds the extensions in place (only those whose sources changed).
build: $(STAMP)
	$(PY) setup.py --quiet build_ext --inplace --parallel 2

test: build
	$(PY) -m pytest

play: build
	$(VENV)/bin/tianti play dragon

bench: build
	$(PY) -m pytest benchmarks --benchmark-only

annotate: $(STAMP)
	TIANTI_ANNOTATE=1 $(PY) setup.py --quiet build_ext --inplace --force

clean:
	rm -rf build $(VENV) *.egg-info
	find engine ai ladder \( -name '*.so' -o -name '*.c' -o -name '*.html' \) -delete
