/* cmd_list.c - `memscale list locks|counters|workloads|variants|kernels|stats|targets|
 * experiments`. */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/model.h"
#include "counters/counter.h"
#include "harness/expfile.h"
#include "harness/workload.h"
#include "models/layout_struct.h"
#include "models/stats/stats.h"
#include "predict/target.h"

static int list_main(int argc, char **argv);

const struct subcommand list_cmd = {
	.name = "list",
	.summary = "list locks, counters, workloads, variants (knobs), kernel profiles, stats designs, targets or experiments",
	.usage = "list locks|counters|workloads|variants|kernels|stats|targets\n"
		 "       list experiments [--long]\n"
		 "  experiments: the seed experiments, one name a line: the experiment\n"
		 "  files (experiments/*.ini, or $MEMSCALE_EXPERIMENTS) with [published]\n"
		 "  rows, the ones `model validate` scores; --long: tab-separated\n"
		 "  NAME, ROWS, TITLE, ABOUT (the paper's section of each)\n",
	.main = list_main,
};
REGISTER(subcommand, list_cmd);

static void list_locks(void)
{
	const struct lock_ops **v;
	size_t n = lock_all(&v);
	char flags[128];

	printf("%-16s %-28s %s\n", "NAME", "FLAGS", "DESCRIPTION");
	for (size_t i = 0; i < n; i++) {
		char caps[160];

		lock_flags_str(v[i]->flags, flags, sizeof(flags));
		snprintf(caps, sizeof(caps), "%s%s%s", flags,
			 v[i]->trylock && flags[0] ? "," : "",
			 v[i]->trylock ? "trylock" : "");
		printf("%-16s %-28s %s\n", v[i]->name, caps, v[i]->description);
	}
}

static void list_counters(void)
{
	const struct counter_ops **v;
	size_t n = counter_all(&v);

	char flags[128];

	printf("%-22s %-24s %s\n", "NAME", "FLAGS", "DESCRIPTION");
	for (size_t i = 0; i < n; i++)
		printf("%-22s %-24s %s\n", v[i]->name,
		       counter_flags_str(v[i]->flags, flags, sizeof(flags)),
		       v[i]->description);
}

/* FLAGS of `list workloads`: the kind first (micro, model or kernel), then
 * what the workload honours; tests pick workloads by these words. */
static const struct flag_name workload_flag_names[] = {
	{ WL_F_USES_LOCK, "lock" },
	{ WL_F_USES_COUNTER, "counter" },
	{ WL_F_LOCK_VIA_COUNTER, "lock_via_counter" },
	{ WL_F_PROCESSES_ONLY, "processes_only" },
};

static void list_workloads(void)
{
	const struct workload **v;
	size_t n = workload_all(&v);
	char flags[128], col[160];

	printf("%-22s %-36s %s\n", "NAME", "FLAGS", "DESCRIPTION");
	for (size_t i = 0; i < n; i++) {
		unsigned f = v[i]->flags;

		flags_str(f, workload_flag_names, ARRAY_SIZE(workload_flag_names),
			  flags, sizeof(flags));
		snprintf(col, sizeof(col), "%s%s%s",
			 f & WL_F_KERNEL ? "kernel" : f & WL_F_MODEL ? "model" : "micro",
			 flags[0] ? "," : "", flags);
		printf("%-22s %-36s %s\n", v[i]->name, col, v[i]->description);
	}
}

static void list_variants(void)
{
	const struct knob **v;
	size_t n = knob_all(&v);
	char allowed[512];

	for (size_t i = 0; i < n; i++) {
		const struct knob *k = v[i];
		printf("%s  (%s; default %s)\n    %s\n", k->name, k->owner ? k->owner : "",
		       k->def, k->help);
		if (k->type == KNOB_ENUM) {
			for (const struct knob_value *kv = k->values; kv->value; kv++)
				printf("    %-22s %s%s\n", kv->value,
				       kv->note ? kv->note : "",
				       !strcmp(kv->value, k->def) ? "  [default]" : "");
		} else {
			printf("    allowed: %s\n", knob_allowed(k, allowed, sizeof(allowed)));
		}
	}
}

/* Each kernel profile's knob values with the commit and file they come
 * from; a per-kernel knob a profile leaves out would be a bug (see
 * tests/kernels.t), shown as such. */
static void list_kernels(void)
{
	const struct knob_profile **v;
	const struct knob **k;
	size_t n = knob_profile_all(&v), nk = knob_all(&k);

	for (size_t i = 0; i < n; i++) {
		/* the profile's file, and the struct layouts declared for it */
		printf("%s  (%s)  %s", v[i]->name, v[i]->commit, v[i]->file);
		for (int s = 0; s < KSTRUCT_NR; s++)
			if (kernel_struct_version(v[i], (enum kstruct_kind)s))
				printf("  %s@%s", kstruct_names[s],
				       kernel_struct_version(v[i], (enum kstruct_kind)s));
		printf("\n    %s\n", v[i]->title);
		for (size_t j = 0; j < nk; j++) {
			const struct knob_preset *s;

			if (!k[j]->per_kernel)
				continue;
			for (s = v[i]->sets; s->knob && strcmp(s->knob, k[j]->name); s++)
				;
			if (s->knob)
				printf("    %-13s %-22s %s\n", s->knob, s->value, s->source);
			else
				printf("    %-13s %-22s NOT SET by this profile\n", k[j]->name,
				       k[j]->def);
		}
		/* knobs a profile may set that are not per-kernel (pc_layout) */
		for (const struct knob_preset *s = v[i]->sets; s->knob; s++) {
			const struct knob *kk = knob_find(s->knob);
			if (kk && !kk->per_kernel)
				printf("    %-13s %-22s %s\n", s->knob, s->value, s->source);
		}
	}
}

/* The stats designs (models/stats/): one line each with the commit it
 * follows, then its update path, flush trigger and ancestor walk. */
static void list_stats(void)
{
	static const char *const scopes[] = {
		[STATS_FLUSH_NONE] = "none", [STATS_FLUSH_TREE] = "tree",
		[STATS_FLUSH_SUBTREE] = "subtree",
	};
	const struct stats_design **v;
	size_t n = stats_design_all(&v);

	printf("%-22s %-12s %-7s %-14s %-12s %s\n", "NAME", "COMMIT", "FLUSH", "PROBE",
	       "READS", "DESCRIPTION");
	for (size_t i = 0; i < n; i++) {
		char reads[128] = "";
		size_t len = 0;

		for (const char *const *r = v[i]->reads; r && *r && len < sizeof(reads); r++)
			len += (size_t)snprintf(reads + len, sizeof(reads) - len, "%s%s",
						len ? "," : "", *r);
		printf("%-22s %-12s %-7s %-14s %-12s %s\n", v[i]->name, v[i]->commit,
		       scopes[v[i]->scope], v[i]->probe ? v[i]->probe : "-",
		       reads[0] ? reads : "-", v[i]->description);
		printf("    update:  %s\n    trigger: %s\n    walk:    %s\n", v[i]->update,
		       v[i]->trigger, v[i]->walk);
	}
}

/* A field of `list experiments --long`: tabs and line ends as spaces. */
static void put_field(const char *s)
{
	putchar('\t');
	for (; s && *s; s++)
		putchar(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

/* The seed list: every experiment file with [published] rows, in file
 * name order, the set and order model_experiments() scores.  Derived
 * from the files, so a new seed is one new .ini. */
static void list_experiments(bool lng)
{
	char *pat = xasprintf("%s/*.ini", model_experiment_dir());
	glob_t g;

	if (glob(pat, 0, NULL, &g))
		die(EXIT_USAGE, "list: no experiment files %s (set MEMSCALE_EXPERIMENTS=DIR)", pat);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct experiment *e = exp_load(g.gl_pathv[i]);

		if (e->npublished) {
			fputs(e->name, stdout);
			if (lng) {
				printf("\t%zu", e->npublished);
				put_field(e->title ? e->title :
					  e->description ? e->description : e->name);
				put_field(e->about);
			}
			putchar('\n');
		}
		exp_free(e);
	}
	globfree(&g);
	free(pat);
}

static int list_main(int argc, char **argv)
{
	/* --long is the one option, and only after "experiments": the
	 * argument there is --long or named as unexpected below */
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1] && !(i == 2 && !strcmp(argv[1], "experiments")))
			cli_bad_option(&list_cmd, argv[i]);
	if (argc < 2)
		die(EXIT_USAGE, "list: say what to list: locks|counters|workloads|variants|kernels|stats|targets|experiments");
	if (!strcmp(argv[1], "experiments") && argc == 3 && !strcmp(argv[2], "--long"))
		list_experiments(true);
	else if (argc > 2)
		die(EXIT_USAGE, "list: unexpected argument '%s' (list takes one kind: "
		    "locks|counters|workloads|variants|kernels|stats|targets|experiments)", argv[2]);
	else if (!strcmp(argv[1], "experiments"))
		list_experiments(false);
	else if (!strcmp(argv[1], "locks"))
		list_locks();
	else if (!strcmp(argv[1], "counters"))
		list_counters();
	else if (!strcmp(argv[1], "workloads"))
		list_workloads();
	else if (!strcmp(argv[1], "variants") || !strcmp(argv[1], "knobs"))
		list_variants();
	else if (!strcmp(argv[1], "kernels"))
		list_kernels();
	else if (!strcmp(argv[1], "stats"))
		list_stats();
	else if (!strcmp(argv[1], "targets"))
		target_list(stdout); /* machines to predict for, with sources */
	else
		die(EXIT_USAGE, "list: unknown kind '%s' (allowed: locks|counters|workloads|variants|kernels|stats|targets|experiments)",
		    argv[1]);
	return 0;
}
