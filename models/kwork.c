/*
 * kwork.c - the per-worker kernel footprint walk of kernel-shaped local
 * work (see kwork.h) and its knob.
 */
#include "models/kwork.h"

#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/util.h"

const struct knob knob_kwork = {
	.name = "kwork", .owner = "model", .type = KNOB_STR, .def = "auto",
	.help = "with page_work=kernel: kernel work per operation outside the memcg "
		"paths, in line accesses: auto (calibrated from the kernel backend's "
		"1-worker cost, else from probes), probes, or a number",
};
REGISTER(knob, knob_kwork);

/* A calibration hash as calib_file_hash() writes it (16 hex digits), or
 * "run-" and 16 hex digits for a kwork calibrated by the run itself. */
static bool hash_ok(const char *v)
{
	size_t n;

	if (!strcmp(v, "any") || !strcmp(v, "none"))
		return true;
	if (!strncmp(v, "run-", 4))
		v += 4;
	n = strlen(v);
	return n == 16 && strspn(v, "0123456789abcdef") == n;
}

const struct knob knob_calib_file = {
	.name = "calib_file", .owner = "model", .type = KNOB_STR, .def = "auto",
	.help = "with page_work=kernel and kwork=auto: the calibration file the kernel-shaped "
		"work is read from: auto (the machine's file, 'memscale model calibrate' writes "
		"it, $MEMSCALE_CALIB overrides; a workload it lacks is calibrated once and kept "
		"in the state directory's kwork.ini), none (calibrate for this run only) or a "
		"path; results record the file used",
};
REGISTER(knob, knob_calib_file);

const struct knob knob_calib_hash = {
	.name = "calib_hash", .owner = "model", .type = KNOB_STR, .def = "any",
	.check = hash_ok, .allowed = "any, or the 16-hex-digit hash of a calibration file",
	.help = "with page_work=kernel: the hash of the calibration the kernel-shaped work "
		"came from (results record it; setting it refuses a run whose calibration "
		"file has another hash)",
};
REGISTER(knob, knob_calib_hash);

struct kline {
	uint32_t next;
	uint32_t count;
	char pad[CACHELINE - 2 * sizeof(uint32_t)];
};

void kwork_init(struct kwork *k, struct arena *a, unsigned seed)
{
	struct kline *l = arena_alloc(a, KWORK_LINES * sizeof(*l), CACHELINE);
	uint32_t perm[KWORK_LINES];
	uint64_t x = 0x9E3779B97F4A7C15ull ^ seed;

	for (uint32_t i = 0; i < KWORK_LINES; i++)
		perm[i] = i;
	for (uint32_t i = KWORK_LINES - 1; i > 0; i--) {
		uint32_t j, t;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		j = (uint32_t)(x % (i + 1));
		t = perm[i], perm[i] = perm[j], perm[j] = t;
	}
	/* One cycle through every line: perm[i] -> perm[i + 1]. */
	for (uint32_t i = 0; i < KWORK_LINES; i++)
		l[perm[i]].next = perm[(i + 1) % KWORK_LINES];
	k->next = &l[0].next;
	k->pos = perm[0];
}

void kwork_spend(struct kwork *k, uint64_t units)
{
	struct kline *l = (struct kline *)k->next;
	uint32_t pos = k->pos;

	for (uint64_t i = 0; i < units; i++) {
		/* Load the line (the next index depends on it), write it. */
		struct kline *c = &l[pos];
		pos = *(volatile uint32_t *)&c->next;
		*(volatile uint32_t *)&c->count += 1;
	}
	k->pos = pos;
}

double kwork_unit_ns(unsigned reps)
{
	struct arena *a = arena_create((size_t)1 << 20);
	struct kwork k;
	double best = 0;
	const uint64_t n = 2000000;

	kwork_init(&k, a, 1);
	kwork_spend(&k, KWORK_LINES * 4); /* warm */
	for (unsigned r = 0; r < (reps ? reps : 1); r++) {
		uint64_t t0 = now_ns();
		double ns;
		kwork_spend(&k, n);
		ns = (double)(now_ns() - t0) / (double)n;
		if (!r || ns < best)
			best = ns;
	}
	arena_destroy(a);
	return best;
}
