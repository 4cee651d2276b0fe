# memscale - one GNU Makefile: pattern rules, automatic header dependencies.
#
#   make            build bin/memscale (and the test and bench programs)
#   make deps       install the Debian packages memscale needs (idempotent)
#   make check      deps + build + run every test (TAP, via prove)
#   make check-tsan validators built with -fsanitize=thread
#   make check-asan every test on an ASan+UBSan (and LeakSanitizer) build
#   make fuzz       the parsers' fuzz target, longer than `make check` runs it
#   make bench      microbenchmarks with their figures printed
#   make demo       deps + build + the default study
#   make wis        will-it-scale-compatible binaries in bin/wis/
#   make install    bin/memscale into $(PREFIX)/bin (default /usr/local), its
#                   data into $(PREFIX)/share/memscale

# CFLAGS/LDFLAGS are the user's (optimisation, sanitizers: `make
# CFLAGS='-O1 -fsanitize=thread'` adds to what memscale needs); the flags
# the code cannot build without live in MS_* and are always used.
CC      ?= gcc
CFLAGS  ?= -O2 -g
MS_CFLAGS   := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 \
               -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers \
               -pthread -MMD -MP
MS_CPPFLAGS := -D_GNU_SOURCE -I. $(shell pkg-config --cflags hwloc 2>/dev/null)
MS_LDLIBS   := $(shell pkg-config --libs hwloc 2>/dev/null || echo -lhwloc) -linih -lck -lgsl -lgslcblas -ljansson -lm -pthread \
               -lbpf -lz
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
LAYERS   := core trace locks counters tracing models exp predict harness workloads cli
SRCS     := $(sort $(shell find $(LAYERS) -name '*.c'))
MAIN_SRC := cli/main.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
# Struct layouts derived by the compiler (models/layout.h): the C
# declarations of models/layout_decls.inc compiled once per combination of
# the kernel options that move fields (the bits of models/kconfig.h: 6
# options, LRU_GEN_WALKS_MMU only with LRU_GEN), each object registering
# its offsetof() tables.
KCONFIG_BITS := $(shell i=0; while [ $$i -lt 64 ]; do [ $$((i & 3)) -eq 2 ] || echo $$i; i=$$((i + 1)); done)
LAYOUT_DECL_OBJS := $(KCONFIG_BITS:%=$(BUILD)/models/layout_decls/kc%.o)
LIB_OBJS += $(LAYOUT_DECL_OBJS)
# The access recorder's copy of the hooked model files (models/record.h):
# compiled again with MODEL_REC_BUILD and every global symbol renamed
# NAME_rec, so the normal objects carry no hook and hand a call to this
# copy only when a recorder is attached (the simulator's programs, `model
# program`, `layout --audit`).
MODEL_REC_SRCS := models/memcg.c models/page_alloc.c models/lru.c
MODEL_REC_RAW  := $(MODEL_REC_SRCS:%.c=$(BUILD)/rec/%.raw.o)
MODEL_REC_OBJS := $(MODEL_REC_SRCS:%.c=$(BUILD)/rec/%.o)
LIB_OBJS += $(MODEL_REC_OBJS)
# their normal copies: no hooks, a hand-off per entry point
$(MODEL_REC_SRCS:%.c=$(BUILD)/%.o): ALL_CPPFLAGS += -DMODEL_REC_HANDOFF
NM      ?= nm
OBJCOPY ?= objcopy
TEST_SRCS := $(sort $(wildcard tests/t_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BIN)/tests/%)
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BIN)/bench/%)

.PHONY: all deps check check-fast check-layers check-tsan check-asan fuzz bench demo clean wis FORCE
all: $(BIN)/memscale $(TEST_BINS) $(BENCH_BINS)

# --- provenance: the git commit goes into meta.o only, rebuilt on change ---
# -dirty: tracked files changed, or untracked (not ignored) files where
# sources are picked up by wildcard (they are built in all the same).
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell \
	{ git diff --quiet HEAD -- && \
	  test -z "$$(git ls-files --others --exclude-standard -- $(LAYERS) tests bench)"; } \
	2>/dev/null || echo -dirty)
.PHONY: print-version
print-version:
	@echo '$(GIT_COMMIT)'
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

# A static pattern rule: only the listed objects (a plain pattern would let
# make chain its built-in link rule onto the kc*.d dependency files).
$(LAYOUT_DECL_OBJS): $(BUILD)/models/layout_decls/kc%.o: models/layout_decls.inc $(BUILD)/trace-config
	@mkdir -p $(@D)
	@echo "  CC $< (kconfig bits $*)"
	@$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -DKC_BITS=$* -x c -c $< -o $@

$(MODEL_REC_RAW): $(BUILD)/rec/%.raw.o: %.c $(BUILD)/trace-config
	@mkdir -p $(@D)
	@echo "  CC $< (recording copy)"
	@$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -DMODEL_REC_BUILD -c $< -o $@
# one list for all the copies, so their calls to each other are renamed too
$(BUILD)/rec/syms: $(MODEL_REC_RAW)
	@$(NM) -g --defined-only $^ | awk 'NF == 3 && $$2 ~ /^[TDRB]$$/ { print $$3, $$3 "_rec" }' | \
		sort -u > $@.tmp && mv $@.tmp $@
$(MODEL_REC_OBJS): $(BUILD)/rec/%.o: $(BUILD)/rec/%.raw.o $(BUILD)/rec/syms
	@$(OBJCOPY) --redefine-syms=$(BUILD)/rec/syms $< $@

LINK = @mkdir -p $(@D) && echo "  LINK $@" && \
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(filter %.o,$^) $(ALL_LDLIBS) -o $@

$(BIN)/memscale: $(BUILD)/$(MAIN_SRC:.c=.o) $(LIB_OBJS) $(BUILD)/sources
	$(LINK)

$(BIN)/tests/%: $(BUILD)/tests/%.o $(LIB_OBJS) $(BUILD)/sources
	$(LINK)

$(BIN)/bench/%: $(BUILD)/bench/%.o $(LIB_OBJS) $(BUILD)/sources
	$(LINK)

# --- will-it-scale-compatible binaries: `make wis` (wis/main.c) links one
# program and names it WORKLOAD_processes / WORKLOAD_threads in $(WIS_DIR)
# for every workload `memscale list workloads` prints (no _threads for a
# processes_only one; kernel:W as kernel_W, no ':' in a file name), so
# will-it-scale's runtest.py runs there as is.
WIS_DIR := $(BIN)/wis
$(WIS_DIR)/memscale-wis: $(BUILD)/wis/main.o $(LIB_OBJS) $(BUILD)/sources
	$(LINK)

wis: $(BIN)/memscale $(WIS_DIR)/memscale-wis
	@rm -f "$(WIS_DIR)"/*:*
	@$(BIN)/memscale list workloads | awk 'NR > 1 { print $$1, $$2 }' | \
	while read -r w flags; do \
		for m in processes threads; do \
			case ",$$flags," in *,processes_only,*) [ $$m = threads ] && continue;; esac; \
			ln -sfn memscale-wis "$(WIS_DIR)/$$(echo $$w | tr : _)_$$m" || exit 1; \
		done; \
	done
	@echo "wis: $$(ls $(WIS_DIR) | grep -c _) will-it-scale binaries in $(WIS_DIR)/ (there: runtest.py WORKLOAD)"

# --- dependencies (Debian packages) ---
DEB_PACKAGES := build-essential pkg-config libck-dev libhwloc-dev hwloc \
                libgsl-dev libcmocka-dev liblttng-ust-dev lttng-tools \
                babeltrace2 libbabeltrace2-dev gnuplot-nox perl \
                latexmk texlive-latex-base texlive-latex-recommended \
                texlive-fonts-recommended poppler-utils
# GNU parallel runs `sweep --emit-jobs` job lists (tests/sweep.t).
DEB_PACKAGES += parallel
# libbpf reads BTF (`memscale layout --btf`), zlib this machine's
# /proc/config.gz (kconfig=running); dwarves' pahole is the
# reference the BTF reader is checked against (tests/layout_btf.t).
DEB_PACKAGES += libbpf-dev dwarves zlib1g-dev
# The experiment-file reader (exp/expfile.c) parses INI with libinih.
DEB_PACKAGES += libinih-dev
# jansson writes and reads the JSON sidecars in C (core/json.c; the
# paper's captions and macros: memscale paper-tables); jq checks them in tests.
DEB_PACKAGES += jq libjansson-dev
# python3's html.parser checks `memscale report`'s page (scripts/check_html.py,
# tests/report.t).
DEB_PACKAGES += python3
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
SLOW_TESTS  := tests/paper.t tests/plots.t tests/readme.t
# Every test runs with a state directory of its own (MEMSCALE_STATE_DIR,
# predict/calib.h), never the machine's: no test reads or leaves what this
# machine may or may not have kept (tests/lib.sh gives each shell test one).
TEST_STATE = st=$$(mktemp -d) && export MEMSCALE_STATE_DIR=$$st/state &&
TEST_STATE_END = rc=$$?; rm -rf "$$st"; exit $$rc
# The builds of check and fuzz use every CPU (JOBS=1 for a serial one).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# A shell test that only computes (no clock in what it asserts, no
# threads spinning, every output under its own $TMP) says so on a line
# '# check: parallel'.  check runs those $(JOBS) at a time, then the
# others (they measure this machine, or spin) one at a time, alone.
PAR_TESTS := $(shell grep -l '^\# check: parallel' $(SHELL_TESTS))
SEQ_TESTS := $(filter-out $(PAR_TESTS),$(SHELL_TESTS))
check: deps
	$(MAKE) -j$(JOBS) all wis
	$(TEST_STATE) prove --timer -j$(JOBS) --exec '' $(PAR_TESTS) && \
		prove --timer --exec '' $(TEST_BINS) $(SEQ_TESTS); $(TEST_STATE_END)
	$(MAKE) fuzz FUZZ_RUNS=1500

check-fast: all wis
	$(TEST_STATE) prove --exec '' $(TEST_BINS) $(filter-out $(SLOW_TESTS),$(SHELL_TESTS)); \
		$(TEST_STATE_END)

# The layer rules of docs/layers.md: includes and link-time calls point
# down, no two files include each other (tests/layers.t runs it too).
check-layers: all
	sh scripts/check_layers.sh $(BUILD)

# Validators again under ThreadSanitizer, in a separate build tree (TRACE=0:
# the LTTng-UST probes are not what is checked here).  Only locks whose
# synchronisation TSAN can see are validated: qspinlock and ttas_backoff
# (C11/GCC __atomic builtins) and the pthread locks (TSAN intercepts them).
# The validator's two broken controls run uninstrumented (their races are
# the point); the locks' runs are instrumented.  4 threads oversubscribe
# this 2-CPU machine on purpose (--oversubscribe).
# The Concurrency Kit locks (ck_*) do their atomics and fences in inline
# assembly (ck_pr.h), invisible to TSAN, so it would report their correct
# critical sections as races; they are checked by `make check` only.
TSAN_LOCKS := qspinlock ttas_backoff pthread_spin pthread_mutex
check-tsan: deps
	$(MAKE) TRACE=0 BUILD=build-tsan BIN=bin-tsan CFLAGS='-O1 -g -fsanitize=thread' \
		LDFLAGS=-fsanitize=thread bin-tsan/memscale bin-tsan/tests/t_record
	@# Exit 3 (these short runs could not show the power to catch the
	@# 1-in-1000 control) is no race; TSAN's own report exits 66.
	@for l in $(TSAN_LOCKS); do for t in 2 4; do st=0; \
		TSAN_OPTIONS=halt_on_error=1 bin-tsan/memscale validate --oversubscribe \
			--lock $$l --threads $$t --iterations 20000 --min-seconds 0.1 || st=$$?; \
		[ $$st -eq 0 ] || [ $$st -eq 3 ] || exit 1; \
	done; done
	for c in $$(bin-tsan/memscale list counters | awk 'NR > 1 { print $$1 }'); do \
		TSAN_OPTIONS=halt_on_error=1 bin-tsan/memscale validate --counter $$c --threads 4 --iterations 20000 || exit 1; done
	@# The model recordings made on several threads at once (models/record.c)
	@# and the predictions' pool that simulates beside the next recording
	@# (predict/predict.c predict_sims_run).
	TSAN_OPTIONS=halt_on_error=1 bin-tsan/tests/t_record >/dev/null
	TSAN_OPTIONS=halt_on_error=1 bin-tsan/memscale layout v6.10 >/dev/null
	TSAN_OPTIONS=halt_on_error=1 bin-tsan/memscale model predict --workload page_fault2 \
		--pair v6.9..70a64b7919cb --target lkp-skl-fpga01 --cpus 104 --iters 20000 \
		--calib tests/fixtures/model_calib.txt --jobs 3 >/dev/null

# Every test again on an AddressSanitizer + UndefinedBehaviorSanitizer
# build (LeakSanitizer included: a leak at exit fails the command that
# leaked), in its own build tree.  Except tests/kernel_backend.t: it
# counts the page faults of real syscalls per operation, and ASan's shadow
# memory and allocator (which touches what malloc1 only maps) add faults.
ASAN_SKIP   := tests/kernel_backend.t
ASAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=undefined
ASAN_BINS   := $(TEST_BINS:$(BIN)/%=bin-asan/%)
check-asan: deps
	$(MAKE) BUILD=build-asan BIN=bin-asan CFLAGS='$(ASAN_CFLAGS)' \
		LDFLAGS='-fsanitize=address,undefined' bin-asan/memscale $(ASAN_BINS)
	MEMSCALE=bin-asan/memscale UBSAN_OPTIONS=print_stacktrace=1 \
		prove --exec '' $(ASAN_BINS) $(filter-out $(ASAN_SKIP),$(SHELL_TESTS))

# The parsers' fuzzing driver (tests/fuzz/): ASan+UBSan objects of the
# check-asan tree, seeds from the experiment files and test fixtures,
# mutations from a fixed seed (reproducible); findings land in
# bin-asan/fuzz-findings.  `make check` runs it briefly.
FUZZ_RUNS  ?= 100000
FUZZ_SEED  ?= 1
FUZZ_SEEDS := $(sort $(wildcard experiments/*.ini tests/fixtures/*.csv \
                tests/fixtures/*.ini tests/fixtures/model_calib.txt \
                tests/fixtures/samples_*.txt tests/fuzz/corpus/* \
                predict/targets/*.ini models/kernels/*.ini predict/work/kpath.ini \
                tests/fixtures/layout/pahole-*.txt \
                tests/fixtures/*.json))
$(BIN)/fuzz/%: $(BUILD)/tests/fuzz/%.o $(LIB_OBJS) $(BUILD)/sources
	$(LINK)
fuzz: deps
	$(MAKE) -j$(JOBS) BUILD=build-asan BIN=bin-asan CFLAGS='$(ASAN_CFLAGS)' \
		LDFLAGS='-fsanitize=address,undefined' bin-asan/fuzz/fuzz_parsers
	@mkdir -p bin-asan/fuzz-findings
	ASAN_OPTIONS=detect_leaks=0 bin-asan/fuzz/fuzz_parsers --runs $(FUZZ_RUNS) \
		--seed $(FUZZ_SEED) --out bin-asan/fuzz-findings $(FUZZ_SEEDS) || { \
		echo "fuzz: a sanitizer or signal ended the driver; its input is" \
		     "bin-asan/fuzz-findings/fuzz-current (FUZZ_VERBOSE=1 shows the report)"; exit 1; }

bench: all
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done
	@echo "== scripts/bench_predict.sh"; sh scripts/bench_predict.sh $(BIN)/memscale
	@echo "== scripts/bench_model_run.sh"; sh scripts/bench_model_run.sh $(BIN)/memscale

demo: deps
	$(MAKE) all
	sh scripts/demo.sh

# make install [PREFIX=/usr/local] [DESTDIR=...]: the command on the PATH
# and the data it reads at run time under $(PREFIX)/share/memscale (core/
# util.h data_dir(): bin/../share/memscale/REL): experiment files, kernel
# and target profiles, the work reference, the plot scripts.
PREFIX ?= /usr/local
SHARE_DATA := $(wildcard experiments/*.ini models/kernels/*.ini predict/targets/*.ini \
	predict/work/*.txt predict/work/*.ini plots/*.sh plots/*.gp plots/*.awk)
.PHONY: install
install: $(BIN)/memscale
	install -d '$(DESTDIR)$(PREFIX)/bin'
	install -m 0755 $(BIN)/memscale '$(DESTDIR)$(PREFIX)/bin/memscale'
	for f in $(SHARE_DATA); do \
		install -D -m 0644 "$$f" "$(DESTDIR)$(PREFIX)/share/memscale/$$f" || exit 1; \
	done

# --- figures and paper: any results directory, default results/ ---
#   make plots RESULTS=DIR   PNG+PDF figures into DIR/plots (plots/plot.sh)
#   make paper RESULTS=DIR   figures, generated tables, paper/memscale.pdf
#   make reproduce           quick sweeps of the seeds (`memscale list
#                            experiments`, with model predictions) and of
#                            the lock and counter studies, then plots and paper
RESULTS ?= results
STUDIES := locks counters
.PHONY: plots paper reproduce
# Both read the published numbers through `memscale published`.
plots: $(BIN)/memscale
	sh plots/plot.sh $(RESULTS)

# A RESULTS that does not exist: one line and exit 2 when the Makefile is
# read, before anything is built (a paper of "0 result rows" says nothing).
ifneq ($(filter paper,$(MAKECMDGOALS)),)
ifeq ($(wildcard $(RESULTS)),)
$(error paper: results '$(RESULTS)' not found (make paper RESULTS=DIR))
endif
endif
paper: $(BIN)/memscale
	rm -rf paper/figures && mkdir -p paper/figures
	FORMATS=pdf sh plots/plot.sh '$(RESULTS)' paper/figures
	sh paper/gen.sh '$(RESULTS)' paper/figures
	cd paper && latexmk -silent memscale.tex
	@echo "paper: paper/memscale.pdf"

reproduce: all
	@mkdir -p results; [ -s results/calib.txt ] || \
		./$(BIN)/memscale model calibrate --quick --out results/calib.txt || rm -f results/calib.txt
	@for s in $$(./$(BIN)/memscale list experiments); do \
		r=; [ -d results/$$s ] && r=--resume; \
		echo "== sweep $$s"; \
		./$(BIN)/memscale sweep experiments/$$s.ini --quick $$r --out results/$$s || exit 1; \
		c=; [ -s results/calib.txt ] && c="--calib results/calib.txt"; \
		./$(BIN)/memscale model predict $$s --cpus 52,80,104,224 $$c > results/$$s/predict.txt || \
			echo "reproduce: no prediction for $$s"; \
	done
	@c=; [ -s results/calib.txt ] && c="--calib results/calib.txt"; \
	./$(BIN)/memscale model validate -f csv $$c > results/predictions.csv || \
		{ echo "reproduce: no ledger"; rm -f results/predictions.csv; }
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
	rm -rf build build-tsan build-asan build-fuzz bin bin-tsan bin-asan bin-fuzz

FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
