"""Benchmarks: run with `make bench` (or `python -m bench`); not part of the test suite."""
