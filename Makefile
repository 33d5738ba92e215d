# mcp-transcripts developer commands. Every target creates .venv itself, so a fresh
# clone needs only python3 (>= 3.10) and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help demo test test-fast lint typecheck docs docs-offline serve bench fuzz fuzz-properties clean
FUZZ_SECONDS ?= 8

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint,docs,http]'
	@touch $(STAMP)

# Material for MkDocs prints an end-of-life banner on every build; it is not ours to show.
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs

demo: $(STAMP) ## check, fix --diff and fix the example transcripts, build the docs: one screen
	@$(BIN)/python scripts/demo.py

# The suite runs on every core (pytest-xdist); TEST_JOBS=0 runs it in one process, without
# workers. Workers that need the same install take turns (tests/conftest.py, installing).
TEST_JOBS ?= auto
PYTEST := $(BIN)/python -m pytest -n $(TEST_JOBS)

test: $(STAMP) ## run the whole test suite, on every core
	$(PYTEST)

test-fast: $(STAMP) ## the suite without slow and browser tests
	$(PYTEST) -m "not slow and not browser"

lint: $(STAMP) ## ruff (lint and format check) and mypy
	$(BIN)/ruff check migrator tests scripts benchmarks fuzz
	$(BIN)/ruff format --check migrator tests scripts benchmarks fuzz
	$(BIN)/mypy

docs: $(STAMP) ## build the docs site strictly into site/
	$(MKDOCS) build --strict

docs-offline: $(STAMP) ## build the docs site into site-offline/ to open from the file system
	OFFLINE=true $(MKDOCS) build --strict --site-dir site-offline

serve: $(STAMP) ## serve the docs site on 127.0.0.1:8000
	$(MKDOCS) serve -a 127.0.0.1:8000

bench: $(STAMP) ## measure speed and memory against the baselines (writes benchmarks/results/)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py

fuzz: $(STAMP) ## run every atheris fuzz target for FUZZ_SECONDS each
	$(BIN)/python -m pip install --quiet -e '.[fuzz]'
	$(BIN)/python fuzz/run.py --seconds $(FUZZ_SECONDS)

fuzz-properties: $(STAMP) ## the hypothesis property tests with random seeds and many more examples (minutes)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -m "not slow and not browser" tests/test_properties.py tests/test_diff.py tests/test_validation_rules.py

clean: ## remove build products and the venv
	rm -rf $(VENV) site site-offline dist build .pytest_cache .mypy_cache .ruff_cache .hypothesis test-artifacts
