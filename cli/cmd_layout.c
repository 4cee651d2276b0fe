/*
 * cmd_layout.c - `memscale layout [--lock NAME] [VARIANT...]`: the byte
 * layout of struct mem_cgroup_per_node per kernel version as the model
 * uses it (models/layout.c): each field's offset, size, 64 B line and
 * 128 B line pair (Intel's adjacent-line prefetcher), and a mark on every
 * read-mostly field that shares a line (!) or a pair (~) with a field
 * written on the hot path.  With a lock bigger than the kernel's 4-byte
 * spinlock the lock grows into the following bytes; that is said.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "locks/lock.h"
#include "models/layout.h"

static int layout_main(int argc, char **argv);

const struct subcommand layout_cmd = {
	.name = "layout",
	.summary = "print the mem_cgroup_per_node field layouts and their false sharing",
	.usage = "layout [--lock NAME] [v6.9|v6.10|fixed|fixed_padded ...]\n"
		 "  -l, --lock NAME  size the lru_lock slot for this lock (default: the\n"
		 "                   kernel's 4-byte spinlock)\n"
		 "marks: ! shares a 64 B line with a hot-written field,\n"
		 "       ~ shares only the 128 B line pair\n",
	.main = layout_main,
};
REGISTER(subcommand, layout_cmd);

static bool overlaps_unit(const struct pn_layout *l, enum pn_field a,
			  enum pn_field b, size_t unit)
{
	size_t a0, a1, b0, b1;

	if (!l->present[a] || !l->present[b] || !l->size[a] || !l->size[b])
		return false;
	a0 = l->off[a] / unit;
	a1 = (l->off[a] + l->size[a] - 1) / unit;
	b0 = l->off[b] / unit;
	b1 = (l->off[b] + l->size[b] - 1) / unit;
	return a0 <= b1 && b0 <= a1;
}

static void print_layout(const struct pn_layout *l)
{
	enum pn_field order[PN_NR_FIELDS];
	size_t n = 0;

	printf("%s: sizeof %zu%s\n", l->name, l->sizeof_pn,
	       l->lock_grew ? "  (lock bigger than spinlock_t: layout differs from the kernel's)" : "");
	for (int f = 0; f < PN_NR_FIELDS; f++)
		if (l->present[f])
			order[n++] = (enum pn_field)f;
	/* sort by offset (insertion sort; at most 15 fields) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && l->off[order[j]] * 2 + !!l->size[order[j]] <
						   l->off[order[j - 1]] * 2 + !!l->size[order[j - 1]]; j--) {
			enum pn_field t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	printf("  %-30s %6s %6s %-9s %-7s %s\n", "FIELD", "OFFSET", "SIZE",
	       "LINES", "PAIRS", "ACCESS");
	for (size_t i = 0; i < n; i++) {
		enum pn_field f = order[i];
		size_t end = l->off[f] + (l->size[f] ? l->size[f] - 1 : 0);
		char lines[64], pairs[64], mark = ' ';
		const char *acc = pn_fields[f].access == PN_HOT_WRITE ? "hot write"
				  : pn_fields[f].access == PN_HOT_READ ? "hot read" : "";

		snprintf(lines, sizeof(lines), "L%zu-L%zu", l->off[f] / 64, end / 64);
		snprintf(pairs, sizeof(pairs), "P%zu-P%zu", l->off[f] / 128, end / 128);
		if (pn_fields[f].access == PN_HOT_READ)
			for (int g = 0; g < PN_NR_FIELDS; g++) {
				if (pn_fields[g].access != PN_HOT_WRITE)
					continue;
				if (overlaps_unit(l, f, (enum pn_field)g, 64))
					mark = '!';
				else if (mark == ' ' && overlaps_unit(l, f, (enum pn_field)g, 128))
					mark = '~';
			}
		printf("%c %-30s %6zu %6zu %-9s %-7s %s\n", mark, pn_fields[f].name,
		       l->off[f], l->size[f], lines, pairs, acc);
	}
	printf("\n");
}

static int layout_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "lock", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	size_t lock_size = 4;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "l:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l': {
			const struct lock_ops *ops = lock_find(optarg);
			if (!ops)
				die(EXIT_USAGE, "unknown lock '%s' (see 'memscale list locks')",
				    optarg);
			lock_size = ops->size;
			break;
		}
		case 'h':
			cli_usage(&layout_cmd, stdout);
			return 0;
		default:
			cli_bad_option(&layout_cmd, argv[optind - 1]);
		}
	}
	for (int i = optind; i < argc; i++) {
		bool found = false;
		for (int id = 0; id < LAYOUT_NR; id++)
			found |= !strcmp(argv[i], pn_layout_names[id]);
		if (!found)
			die(EXIT_USAGE, "unknown layout '%s' (allowed: v6.9|v6.10|fixed|fixed_padded)",
			    argv[i]);
	}
	for (int id = 0; id < LAYOUT_NR; id++) {
		struct pn_layout l;
		bool want = optind >= argc;

		for (int i = optind; i < argc; i++)
			want |= !strcmp(argv[i], pn_layout_names[id]);
		if (!want)
			continue;
		pn_layout_resolve(&l, (enum pn_layout_id)id, lock_size);
		printf("# %s\n", pn_layout_notes[id]);
		print_layout(&l);
	}
	return 0;
}
