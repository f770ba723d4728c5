"""pytest-benchmark suites: run with `make bench` (never part of `make test`)."""
