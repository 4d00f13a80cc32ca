# Archmage: `make run` starts the platform, `make test` runs the suite.
# Both set up what is missing first: the virtualenv, the packages, the generated code.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PROTOS := $(shell find protos -name '*.proto')
GEN := build/proto/.generated
MODE ?= embedded
PYTEST_ARGS ?=

.PHONY: run test test-fast proto lint bench bench-recovery strength clean setup system-tools

setup: $(STAMP) $(GEN)

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is needed (Python 3.11)"; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,build]'
	@touch $@

proto: $(GEN)

$(GEN): $(PROTOS) $(STAMP)
	@rm -rf build/proto && mkdir -p build/proto
	$(PY) -m grpc_tools.protoc -Iprotos --python_out=build/proto --pyi_out=build/proto \
		--grpc_python_out=build/proto $(PROTOS)
	@echo "$(CURDIR)/build/proto" > $$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/archmage-proto.pth
	@touch $@

run: setup
	$(PY) -m services.runtime.launcher --mode $(MODE)

system-tools:
	@deploy/tools/install-system-tools.sh

# the suite runs in TEST_WORKERS processes (pytest-xdist), each test file whole in one of them, so a file's
# fixtures (a platform server, a Redis of its own) serve all its tests; each process claims a Redis database
# of its own (tests/support/redis_db.py). TEST_WORKERS=0 runs it in this process alone.
TEST_WORKERS ?= 2

test: setup system-tools
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# the inner loop: the rules engines' own tests, without the ones marked slow (random play to the
# end many times, processes of their own); about 40 s on one core. `make test` runs everything.
FAST_TESTS := tests/engine tests/tower tests/incantris tests/wizards tests/test_hexgrid.py tests/dice/test_fairdice.py

test-fast: setup
	$(PY) -m pytest -q -m "not slow" $(FAST_TESTS) $(PYTEST_ARGS)

# the packages whose types are checked (every engine's typed state among them)
TYPED := shared/engine shared/hexgrid.py shared/fairdice.py shared/tower shared/incantris shared/wizards

lint: setup
	$(PY) -m ruff check .
	$(PY) -m mypy $(TYPED)

bench: setup
	$(PY) -m bench.run

# each fault the platform heals from, injected several times (ATTEMPTS, default 5; about 5 minutes here):
# per fault, recovered, seconds to recover (median, max), acknowledged actions lost, actions doubled
ATTEMPTS ?= 5

bench-recovery: setup
	$(PY) -m bench.recovery --attempts $(ATTEMPTS)

# the AI levels' win rates (95% intervals) and think times, MATCHES a row (200 by default) over JOBS
# processes; each row's figures go to STRENGTH_DIR/NAME.json, and the table of them all is printed last.
# Hours of CPU at 200 (a hard decision thinks up to a second): MATCHES=20 gives a first look. Each match
# is recorded as it ends (NAME.jsonl): stopped and run again, `make strength` plays only what is missing.
# docs/strength holds the records of the hard rows measured so far: STRENGTH_DIR=docs/strength resumes them.
# Wizards' rows are whole games (--days 0), judged by progress as well as wins: in ten 14-day matches
# tried no seat got past its first Rank or held a Gem, so a limit that short measures little. A whole
# 2-seat game with a hard seat is some 2.5 min of CPU (the hard seat thinks about 400 times).
, := ,
MATCHES ?= 200
JOBS ?= 2
STRENGTH_DIR ?= build/strength
strength_row = $(PY) -m bench.strength --matches $(MATCHES) --jobs $(JOBS) $(2) \
	--out $(STRENGTH_DIR)/$(1).json --record $(STRENGTH_DIR)/$(1).jsonl

strength: setup
	mkdir -p $(STRENGTH_DIR)
	$(call strength_row,tower-2,--game tower --seats 2)
	$(call strength_row,tower-4,--game tower --seats 4)
	$(call strength_row,incantris-2,--game incantris --seats 2)
	$(call strength_row,incantris-4,--game incantris --seats 4)
	$(call strength_row,incantris-solo,--game incantris --variant solo --seats 1 \
		--pairs hard-solo$(,)normal-solo$(,)easy-solo$(,)random-solo)
	$(call strength_row,wizards-2,--game wizards --seats 2 --days 0 --pairs normal-easy$(,)normal-random)
	$(call strength_row,wizards-4,--game wizards --seats 4 --days 0 --pairs normal-easy$(,)normal-random)
	$(call strength_row,wizards-2-hard,--game wizards --seats 2 --days 0 --pairs hard-normal$(,)hard-random)
	$(call strength_row,wizards-4-hard,--game wizards --seats 4 --days 0 --pairs hard-normal$(,)hard-random)
	$(PY) -m bench.strength_table $(STRENGTH_DIR)/*.json*

clean:
	rm -rf build $(VENV) .pytest_cache
