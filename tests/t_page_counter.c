/*
 * t_page_counter.c - the memcg model's page_counter at the offsets of the
 * declared struct page_counter the knob pc_layout names
 * (models/layout_struct.c): the parent pointer, max and usage live where
 * the compiler put them in that kernel (offsets worked out by hand from
 * include/linux/page_counter.h before and at 802f1d522d5f and at
 * 408587baee39), and a charge moves usage up the whole hierarchy there.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "core/knob.h"
#include "locks/lock.h"
#include "models/layout_struct.h"
#include "models/memcg.h"
#include "tap.h"

static unsigned pc_index(const char *version)
{
	for (unsigned i = 0; knob_pc_layout.values[i].value; i++)
		if (!strcmp(knob_pc_layout.values[i].value, version))
			return i;
	return 0;
}

static long word_at(struct page_counter *c, size_t off)
{
	long v;
	memcpy(&v, c->bytes + off, sizeof(v));
	return v;
}

static void *ptr_at(struct page_counter *c, size_t off)
{
	void *v;
	memcpy(&v, c->bytes + off, sizeof(v));
	return v;
}

int main(void)
{
	static const struct {
		const char *version;
		size_t usage, max, parent, watermark, size;
	} want[] = {
		{ "v5", 0, 32, 40, 96, 112 },
		{ "802f1d522d5f", 0, 32, 104, 88, 112 },
		{ "408587baee39", 0, 152, 160, 112, 192 },
		{ "v6.18", 0, 160, 168, 112, 192 },
	};

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct arena *a = arena_create((size_t)64 << 20);
		struct model_params p;
		struct model *m;
		struct mcg *leaf;
		struct model_worker *mw;
		struct mpage *pg;
		long before;

		model_params_default(&p);
		p.pc_layout = pc_index(want[i].version);
		m = model_setup(a, &p, lock_find("pthread_spin"), 1, 64);
		leaf = m->leaves[0];
		ok(m->pc.usage == want[i].usage && m->pc.max == want[i].max &&
		   m->pc.parent == want[i].parent && m->pc.watermark == want[i].watermark &&
		   m->pc.size == want[i].size,
		   "%s: usage %zu max %zu parent %zu watermark %zu, size %zu", want[i].version,
		   m->pc.usage, m->pc.max, m->pc.parent, m->pc.watermark, m->pc.size);
		ok(mcg_parent(m, leaf) &&
		   ptr_at(mcg_memory(m, leaf), want[i].parent) == mcg_memory(m, mcg_parent(m, leaf)) &&
		   word_at(mcg_memory(m, leaf), want[i].max) == LONG_MAX,
		   "%s: the leaf's parent pointer and max are stored at those offsets",
		   want[i].version);
		mw = model_worker(m, 0);
		before = word_at(mcg_memory(m, &m->memcgs[0]), want[i].usage);
		pg = model_page_alloc(mw);
		ok(model_charge(mw, pg, leaf) &&
		   word_at(mcg_memory(m, leaf), want[i].usage) == (long)p.charge_batch &&
		   word_at(mcg_memory(m, &m->memcgs[0]), want[i].usage) == before + (long)p.charge_batch &&
		   word_at(mcg_memory(m, leaf), want[i].watermark) == (long)p.charge_batch,
		   "%s: a charge adds a batch to usage at every level, watermark follows",
		   want[i].version);
		arena_destroy(a);
	}
	/* the page_counter inside struct mem_cgroup at its derived offset */
	{
		static const struct { const char *mc, *pc; size_t memory, parent; } lay[] = {
			{ "4df910620beb", "v5", 208, 192 },
			{ "4df910620beb", "802f1d522d5f", 208, 192 },
			{ "v6.8", "408587baee39", 256, 192 },
		};
		for (unsigned i = 0; i < sizeof(lay) / sizeof(lay[0]); i++) {
			struct arena *a = arena_create((size_t)64 << 20);
			struct model_params p;
			struct model *m;
			struct mcg *leaf;
			unsigned k = 0;

			model_params_default(&p);
			p.pc_layout = pc_index(lay[i].pc);
			while (strcmp(knob_mc_layout.values[k].value, lay[i].mc))
				k++;
			p.mc_layout = k;
			m = model_setup(a, &p, lock_find("pthread_spin"), 1, 64);
			leaf = m->leaves[0];
			ok((size_t)((char *)mcg_memory(m, leaf) - (char *)leaf) == lay[i].memory &&
			   (size_t)((char *)mcg_parent_p(m, leaf) - (char *)leaf) == lay[i].parent &&
			   mcg_of_memory(m, mcg_memory(m, leaf)) == leaf,
			   "mc_layout %s with pc_layout %s: memory at %zu, css.parent at %zu of the memcg",
			   lay[i].mc, lay[i].pc, lay[i].memory, lay[i].parent);
			arena_destroy(a);
		}
	}
	return done_testing();
}
