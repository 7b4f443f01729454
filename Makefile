# Dutch Scorer: set-up, run and test.
#   make run    install the app's packages into .venv and start it (http://localhost:8501)
#   make test   install everything the tests need, start the services, lint, run the suite
# Both are safe to repeat: steps that are already done are skipped.

SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
RUNTIME_STAMP := $(VENV)/.installed-runtime
DEV_STAMP := $(VENV)/.installed-dev
NODE_STAMP := tests/node_modules/.installed

PORT ?= 8501
PYTEST_ARGS ?=

.PHONY: help run test lint venv translations messages-template

help:
	@echo "make run    start Dutch Scorer on http://localhost:$(PORT) (SQLite in data/, local accounts)"
	@echo "make test   install the test tools, start PostgreSQL and the Auth emulator, lint, run pytest"
	@echo "            (extra pytest arguments: make test PYTEST_ARGS='tests/unit -x')"

$(RUNTIME_STAMP): requirements.txt
	scripts/venv.sh requirements.txt
	touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt
	scripts/venv.sh requirements-dev.txt
	touch $@ $(RUNTIME_STAMP)

$(NODE_STAMP): tests/package.json tests/package-lock.json
	scripts/node-deps.sh
	touch $@

venv: $(DEV_STAMP)

run: $(RUNTIME_STAMP)
	PORT=$(PORT) scripts/run.sh

test: $(DEV_STAMP) $(NODE_STAMP)
	scripts/test.sh $(PYTEST_ARGS)

# make translations   extract the app's text and merge it into each language's .po file
#                     (then translate the new empty entries and commit the .po files)
translations: $(DEV_STAMP) messages-template
	$(VENV)/bin/pybabel -q update -i $(POT) -d dutch_app/locale -w 100 --no-fuzzy-matching \
		--ignore-obsolete --ignore-pot-creation-date
	$(VENV)/bin/python -m dutch_app.catalogues || true

# The template of every message of the app (the tests read it too). Besides gettext's own
# names, the core's error classes and Phrase mark text: their first argument is a
# template. The files are read in a fixed order, which the catalogues keep.
POT ?= dutch_app/locale/messages.pot
CORE_MARKERS := Phrase DutchError CardError HandError RulesError RoundError PenaltyError \
	DeckError PenaltyDeckError GameError _error
TEXT_SOURCES = app.py $(foreach dir,pages dutch_app dutch_core,\
	$(shell find $(dir) -name '*.py' -not -path '*/migrations/*' | LC_ALL=C sort))

messages-template:
	@echo "pybabel extract: the app's text to $(POT)"
	@$(VENV)/bin/pybabel -q extract --project "Dutch Scorer" --header-comment "# Dutch Scorer's text." \
		-w 100 --add-location file --add-comments Translators: --strip-comments \
		$(addprefix -k ,$(CORE_MARKERS)) -o $(POT) $(TEXT_SOURCES)

# make screenshots   take the pictures in docs/screenshots again from the app as it is now
#                    (the browser tests that take them, with the pictures kept)
.PHONY: screenshots
screenshots: $(DEV_STAMP) $(NODE_STAMP)
	scripts/system-deps.sh
	DUTCH_UPDATE_SCREENSHOTS=1 $(VENV)/bin/pytest tests/e2e -m screenshot

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# make bench   measure the performance ratios of docs/performance.md (not a test;
#              the 1,000,000-row histories take minutes to build the first time, then are kept
#              in benchmarks/.cache/ and on the PostgreSQL server). Narrow it with BENCH_ARGS:
#              make bench BENCH_ARGS="--sizes 10000 --databases sqlite"
#              make bench BENCH_ARGS="--live only"   (just the live table: delay and idle cost)
BENCH_ARGS ?= --sizes 10000,100000,1000000 --databases sqlite,postgresql --out benchmarks/results/latest.json

# Then the statistics' evaluation: docs/statistics.md's "How good are these numbers".
# The load test (many tables saving rounds at once through the websocket protocol, on
# PostgreSQL) runs after the ratios: make bench LOAD_ARGS="--tables 1,10 --rounds 3".
LOAD_ARGS ?= --tables 1,10,25,50 --rounds 6

.PHONY: bench
bench: $(DEV_STAMP)
	scripts/system-deps.sh
	url="$${DUTCH_TEST_POSTGRES_URL:-$$(scripts/postgres.sh)}" \
		&& DUTCH_TEST_POSTGRES_URL="$$url" $(VENV)/bin/python -m benchmarks $(BENCH_ARGS) \
		&& DUTCH_TEST_POSTGRES_URL="$$url" $(VENV)/bin/python -m benchmarks.load_test $(LOAD_ARGS) \
		&& $(VENV)/bin/python -m benchmarks.stats_evaluation
