# eduanima task runner. `make help` lists the targets; .ci/run calls the same ones.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV ?= .venv
PYTHON ?= $(VENV)/bin/python
# Extra pytest arguments, e.g. `make test PYTEST_ARGS="-x -k kafka"`.
PYTEST_ARGS ?=

$(PYTHON):
	bash deploy/install.sh

.PHONY: demo help venv constraints up down status logs test test-unit test-integration lint fmt

help: ## Show this help
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN {FS = ":.*## "}; {printf "  \033[36m%-17s\033[0m %s\n", $$1, $$2}'

venv: ## Create .venv (python3.11) and install eduanima[dev], pinned by constraints.txt
	python3.11 -m venv $(VENV)
	$(PYTHON) -m pip install -q --upgrade pip
	$(PYTHON) -m pip install -q -c constraints.txt -e '.[dev]'

constraints: ## Regenerate constraints.txt from the current venv (after a dependency change)
	{ echo "# Exact versions of every package in a working dev venv; .ci/run installs with -c constraints.txt."; \
	  echo "# Regenerate after changing dependencies: make constraints"; \
	  $(PYTHON) -m pip freeze --exclude-editable; } > constraints.txt

demo: $(PYTHON) ## The main job: infrastructure + services, ingest demo/stats101, ask, stream the cited answer
	bash deploy/demo.sh "$(QUESTION)"

up: ## Start Kafka, PostgreSQL+pgvector and the GCS emulator locally (idempotent, no Docker)
	$(PYTHON) -m deploy.local up

down: ## Stop the local infrastructure; data stays in EDUANIMA_HOME (default .eduanima/)
	$(PYTHON) -m deploy.local down

status: ## Health of the local infrastructure (exit 1 if a component is unhealthy)
	$(PYTHON) -m deploy.local status

logs: ## Tail of the Kafka, PostgreSQL and GCS emulator logs
	$(PYTHON) -m deploy.local logs

test: $(PYTHON) ## All tests; integration tests start the local infrastructure if nothing else is configured
	$(PYTHON) -m pytest $(PYTEST_ARGS)

test-unit: ## Unit tests only: no Kafka, no database, no network
	$(PYTHON) -m pytest -m "not integration" $(PYTEST_ARGS)

test-integration: ## Integration tests only: real Kafka, PostgreSQL and GCS emulator
	$(PYTHON) -m pytest -m integration $(PYTEST_ARGS)

lint: $(PYTHON) ## ruff lint and format check (CI runs it)
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .

fmt: ## Apply ruff fixes and formatting
	$(PYTHON) -m ruff check --fix .
	$(PYTHON) -m ruff format .
