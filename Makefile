# memscale - one GNU Makefile: pattern rules, automatic header dependencies.
#
#   make            build bin/memscale (and the test and bench programs)
#   make deps       install the Debian packages memscale needs (idempotent)
#   make check      deps + build + run every test (TAP, via prove)
#   make check-tsan validators built with -fsanitize=thread
#   make bench      microbenchmarks with their figures printed
#   make demo       deps + build + the default study

CC      ?= gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 \
           -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers \
           -pthread -MMD -MP
CPPFLAGS += -D_GNU_SOURCE -I. $(shell pkg-config --cflags hwloc 2>/dev/null)
LDLIBS  += $(shell pkg-config --libs hwloc 2>/dev/null || echo -lhwloc) -lck -lgsl -lgslcblas -lm -pthread

BUILD   ?= build
BIN     ?= bin

# Every .c under these folders is part of memscale; adding a lock, counter,
# workload or subcommand means adding a file, never editing this list.
SRC_DIRS := core locks counters models experiments trace
SRCS     := $(sort $(wildcard $(addsuffix /*.c,$(SRC_DIRS))))
MAIN_SRC := core/main.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
TEST_SRCS := $(sort $(wildcard tests/t_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BIN)/tests/%)
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BIN)/bench/%)

.PHONY: all deps check check-tsan bench demo clean FORCE
all: $(BIN)/memscale $(TEST_BINS) $(BENCH_BINS)

# --- provenance: the git commit goes into meta.o only, rebuilt on change ---
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)
$(BUILD)/git-commit: FORCE
	@mkdir -p $(@D)
	@echo '$(GIT_COMMIT)' | cmp -s - $@ || echo '$(GIT_COMMIT)' > $@
$(BUILD)/core/meta.o: $(BUILD)/git-commit
$(BUILD)/core/meta.o: CPPFLAGS += -DMEMSCALE_GIT='"$(GIT_COMMIT)"' -DMEMSCALE_CFLAGS='"$(strip $(CFLAGS))"'

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BIN)/memscale: $(BUILD)/$(MAIN_SRC:.c=.o) $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BIN)/tests/%: $(BUILD)/tests/%.o $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BIN)/bench/%: $(BUILD)/bench/%.o $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# --- dependencies (Debian packages) ---
DEB_PACKAGES := build-essential pkg-config libck-dev libhwloc-dev hwloc \
                libgsl-dev libcmocka-dev liblttng-ust-dev lttng-tools \
                babeltrace2 libbabeltrace2-dev gnuplot-nox perl
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -z "$$missing" ]; then echo "deps: all Debian packages present"; \
	else echo "deps: installing$$(echo $$missing | sed 's/^/ /')"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; fi

# --- tests: C programs print TAP, shell tests too; prove counts them ---
SHELL_TESTS := $(sort $(wildcard tests/*.t))
check: deps
	$(MAKE) all
	prove --exec '' $(TEST_BINS) $(SHELL_TESTS)

# Validators again under ThreadSanitizer, in a separate build tree.
check-tsan: deps
	$(MAKE) BUILD=build-tsan BIN=bin-tsan CFLAGS='-O1 -g -fsanitize=thread' \
		LDFLAGS=-fsanitize=thread bin-tsan/memscale
	TSAN_OPTIONS=halt_on_error=1 bin-tsan/memscale validate --lock pthread_mutex --threads 4 --iterations 20000
	TSAN_OPTIONS=halt_on_error=1 bin-tsan/memscale validate --lock pthread_spin --threads 4 --iterations 20000

bench: all
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

demo: deps
	$(MAKE) all
	sh experiments/demo.sh

clean:
	rm -rf build build-tsan bin bin-tsan

FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
