# memscale - one GNU Makefile: pattern rules, automatic header dependencies.
#
#   make            build bin/memscale (and the test and bench programs)
#   make deps       install the Debian packages memscale needs (idempotent)
#   make check      deps + build + run every test (TAP, via prove)
#   make check-tsan validators built with -fsanitize=thread
#   make bench      microbenchmarks with their figures printed
#   make demo       deps + build + the default study

# CFLAGS/LDFLAGS are the user's (optimisation, sanitizers: `make
# CFLAGS='-O1 -fsanitize=thread'` adds to what memscale needs); the flags
# the code cannot build without live in MS_* and are always used.
CC      ?= gcc
CFLAGS  ?= -O2 -g
MS_CFLAGS   := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 \
               -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers \
               -pthread -MMD -MP
MS_CPPFLAGS := -D_GNU_SOURCE -I. $(shell pkg-config --cflags hwloc 2>/dev/null)
MS_LDLIBS   := $(shell pkg-config --libs hwloc 2>/dev/null || echo -lhwloc) -lck -lgsl -lgslcblas -ljansson -lm -pthread
ALL_CFLAGS   = $(MS_CFLAGS) $(CFLAGS)
ALL_CPPFLAGS = $(MS_CPPFLAGS) $(CPPFLAGS)

BUILD   ?= build
BIN     ?= bin

# Tracing (trace/): TRACE=1 (default) builds the LTTng-UST provider
# "memscale" in and links -llttng-ust -ldl; TRACE=0 compiles every
# tracepoint to nothing (--trace then exits 2).  `memscale lockstat`
# reads traces with libbabeltrace2 in both builds.  Objects depend on the
# setting, so switching rebuilds them.
TRACE   ?= 1
ifeq ($(TRACE),1)
MS_CPPFLAGS += -DMEMSCALE_TRACE
MS_LDLIBS   += -llttng-ust -ldl
endif
MS_LDLIBS   += -lbabeltrace2
ALL_LDLIBS   = $(MS_LDLIBS) $(LDLIBS)

# Every .c under the layer folders (docs/layers.md) is part of memscale;
# adding a lock, counter, workload or subcommand means adding a file, never
# editing this list.
LAYERS   := core trace locks counters tracing models predict harness workloads cli
SRCS     := $(sort $(shell find $(LAYERS) -name '*.c'))
MAIN_SRC := cli/main.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
TEST_SRCS := $(sort $(wildcard tests/t_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BIN)/tests/%)
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BIN)/bench/%)

.PHONY: all deps check check-fast check-layers check-tsan bench demo clean FORCE
all: $(BIN)/memscale $(TEST_BINS) $(BENCH_BINS)

# --- provenance: the git commit goes into meta.o only, rebuilt on change ---
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)
ifneq ($(shell cat $(BUILD)/git-commit 2>/dev/null),$(GIT_COMMIT))
$(BUILD)/git-commit: FORCE
endif
$(BUILD)/git-commit:
	@mkdir -p $(@D)
	@echo '$(GIT_COMMIT)' > $@
$(BUILD)/core/meta.o: $(BUILD)/git-commit
$(BUILD)/core/meta.o: MS_CPPFLAGS += -DMEMSCALE_GIT='"$(GIT_COMMIT)"' -DMEMSCALE_CFLAGS='"$(strip $(ALL_CFLAGS))"'

# Stamps that change only when their content does, so `make -q` tells the
# truth: the TRACE setting (objects depend on it) and the set of sources
# (a deleted or added file relinks every binary).
define stamp
	@mkdir -p $(@D)
	@printf '%s\n' $(1) | cmp -s - $@ || printf '%s\n' $(1) > $@
endef
ifneq ($(shell cat $(BUILD)/trace-config 2>/dev/null),TRACE=$(TRACE))
$(BUILD)/trace-config: FORCE
endif
$(BUILD)/trace-config:
	$(call stamp,TRACE=$(TRACE))
ifneq ($(shell cat $(BUILD)/sources 2>/dev/null),$(SRCS))
$(BUILD)/sources: FORCE
endif
$(BUILD)/sources:
	$(call stamp,$(SRCS))
$(SRCS:%.c=$(BUILD)/%.o) $(TEST_SRCS:%.c=$(BUILD)/%.o) $(BENCH_SRCS:%.c=$(BUILD)/%.o): $(BUILD)/trace-config

# bench/bench_trace.c compares against a TRACE=0 build of the same tree.
$(BIN)/notrace/memscale: FORCE
	@$(MAKE) --no-print-directory TRACE=0 BUILD=$(BUILD)/notrace BIN=$(BIN)/notrace $@
bench: $(BIN)/notrace/memscale

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

LINK = @mkdir -p $(@D) && echo "  LINK $@" && \
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(filter %.o,$^) $(ALL_LDLIBS) -o $@

$(BIN)/memscale: $(BUILD)/$(MAIN_SRC:.c=.o) $(LIB_OBJS) $(BUILD)/sources
	$(LINK)

$(BIN)/tests/%: $(BUILD)/tests/%.o $(LIB_OBJS) $(BUILD)/sources
	$(LINK)

$(BIN)/bench/%: $(BUILD)/bench/%.o $(LIB_OBJS) $(BUILD)/sources
	$(LINK)

# --- dependencies (Debian packages) ---
DEB_PACKAGES := build-essential pkg-config libck-dev libhwloc-dev hwloc \
                libgsl-dev libcmocka-dev liblttng-ust-dev lttng-tools \
                babeltrace2 libbabeltrace2-dev gnuplot-nox perl \
                latexmk texlive-latex-base texlive-latex-recommended \
                texlive-fonts-recommended poppler-utils
# GNU parallel runs `sweep --emit-jobs` job lists (tests/sweep.t).
DEB_PACKAGES += parallel
# jq reads the JSON sidecars in paper/gen.sh; jansson writes and reads
# them in C (core/json.c).
DEB_PACKAGES += jq libjansson-dev
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -z "$$missing" ]; then echo "deps: all Debian packages present"; \
	else echo "deps: installing$$(echo $$missing | sed 's/^/ /')"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; fi

# --- tests: C programs print TAP, shell tests too; prove counts them ---
SHELL_TESTS := $(sort $(wildcard tests/*.t))
# check-fast: the inner loop (no LaTeX paper, no plots); CI runs `check`.
SLOW_TESTS  := tests/paper.t tests/plots.t
check: deps
	$(MAKE) all
	prove --exec '' $(TEST_BINS) $(SHELL_TESTS)

check-fast: all
	prove --exec '' $(TEST_BINS) $(filter-out $(SLOW_TESTS),$(SHELL_TESTS))

# The layer rules of docs/layers.md: includes and link-time calls point
# down, no two files include each other (tests/layers.t runs it too).
check-layers: all
	sh scripts/check_layers.sh $(BUILD)

# Validators again under ThreadSanitizer, in a separate build tree (TRACE=0:
# the LTTng-UST probes are not what is checked here).  Only locks whose
# synchronisation TSAN can see are validated: qspinlock and ttas_backoff
# (C11/GCC __atomic builtins) and the pthread locks (TSAN intercepts them).
# The Concurrency Kit locks (ck_*) do their atomics and fences in inline
# assembly (ck_pr.h), invisible to TSAN, so it would report their correct
# critical sections as races; they are checked by `make check` only.
TSAN_LOCKS := qspinlock ttas_backoff pthread_spin pthread_mutex
check-tsan: deps
	$(MAKE) TRACE=0 BUILD=build-tsan BIN=bin-tsan CFLAGS='-O1 -g -fsanitize=thread' \
		LDFLAGS=-fsanitize=thread bin-tsan/memscale
	@for l in $(TSAN_LOCKS); do for t in 2 4; do \
		TSAN_OPTIONS=halt_on_error=1 bin-tsan/memscale validate \
			--lock $$l --threads $$t --iterations 20000 || exit 1; \
	done; done
	for c in $$(bin-tsan/memscale list counters | awk 'NR > 1 { print $$1 }'); do \
		TSAN_OPTIONS=halt_on_error=1 bin-tsan/memscale validate --counter $$c --threads 4 --iterations 20000 || exit 1; done

bench: all
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

demo: deps
	$(MAKE) all
	sh scripts/demo.sh

# --- figures and paper: any results directory, default results/ ---
#   make plots RESULTS=DIR   PNG+PDF figures into DIR/plots (plots/plot.sh)
#   make paper RESULTS=DIR   figures, generated tables, paper/memscale.pdf
#   make reproduce           quick sweeps of the four seeds (with model
#                            predictions) and of the lock and counter
#                            studies, then plots and paper
RESULTS ?= results
SEEDS   := layout_false_sharing stats_batch permemcg_flush lru_lock_split
STUDIES := locks counters
.PHONY: plots paper reproduce
# Both read the published numbers through `memscale published`.
plots: $(BIN)/memscale
	sh plots/plot.sh $(RESULTS)

paper: $(BIN)/memscale
	rm -rf paper/figures && mkdir -p paper/figures
	if [ -e $(RESULTS) ]; then FORMATS=pdf sh plots/plot.sh $(RESULTS) paper/figures; \
	else echo "paper: no '$(RESULTS)': every table will say 'not measured'"; fi
	sh paper/gen.sh $(RESULTS) paper/figures
	cd paper && latexmk -silent memscale.tex
	@echo "paper: paper/memscale.pdf"

reproduce: all
	@mkdir -p results; [ -s results/calib.txt ] || \
		./$(BIN)/memscale model calibrate --quick --out results/calib.txt || rm -f results/calib.txt
	@for s in $(SEEDS); do \
		r=; [ -d results/$$s ] && r=--resume; \
		echo "== sweep $$s"; \
		./$(BIN)/memscale sweep experiments/$$s.ini --quick $$r --out results/$$s || exit 1; \
		c=; [ -s results/calib.txt ] && c="--calib results/calib.txt"; \
		if ./$(BIN)/memscale model predict $$s --cpus 52,80,104,224 $$c > results/$$s/predict.txt; \
		then awk -f plots/predict2csv.awk results/$$s/predict.txt > results/$$s/predictions.csv; \
		else echo "reproduce: no prediction for $$s"; rm -f results/$$s/predictions.csv; fi; \
	done
	@for s in $(STUDIES); do \
		r=; [ -d results/$$s ] && r=--resume; \
		echo "== sweep $$s"; \
		./$(BIN)/memscale sweep experiments/$$s.ini --quick $$r --out results/$$s || exit 1; \
	done
	@echo "== sweep kernel_vs_model (needs root and a memory cgroup controller)"; \
	r=; [ -d results/kernel_vs_model ] && r=--resume; \
	./$(BIN)/memscale sweep experiments/kernel_vs_model.ini --quick $$r --out results/kernel_vs_model || \
		{ echo "reproduce: kernel backend unavailable here; the paper says 'not measured'"; rm -rf results/kernel_vs_model; }
	$(MAKE) plots RESULTS=results
	$(MAKE) paper RESULTS=results

clean:
	rm -rf build build-tsan bin bin-tsan

FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
