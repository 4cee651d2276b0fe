/*
 * cmd_merge.c - `memscale merge OUT.csv IN.csv...`: one dataset from
 * results taken on several machines (Feng Tang's "several generations of
 * Xeon", Shakeel's 52- and 80-CPU boxes).  Each input's JSON sidecar
 * names its machine; those fields become leading columns, and inputs with
 * different columns (other knobs, other metrics) merge into the union.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/outlock.h"
#include "core/csv.h"
#include "core/json.h"
#include "core/meta.h"
#include "harness/sweep.h"
static int merge_main(int argc, char **argv);

const struct subcommand merge_cmd = {
	.name = "merge",
	.summary = "merge result CSVs from several machines into one",
	.usage = "merge OUT.csv IN1.csv IN2.csv...\n"
		 "\n"
		 "Adds the columns machine, machine_cpu, machine_packages,\n"
		 "machine_cores, machine_pus, machine_numa_nodes, machine_kernel\n"
		 "(from each input's JSON sidecar, IN.json) and source (the input\n"
		 "file); the other columns are the union of the inputs' columns, empty\n"
		 "where an input lacks one.  Writes OUT.json listing the sources.\n",
	.main = merge_main,
};
REGISTER(subcommand, merge_cmd);

static const char *const machine_keys[] = {
	"hostname", "cpu_model", "packages", "cores", "pus", "numa_nodes", "kernel",
};
static const char *const machine_cols[] = {
	"machine", "machine_cpu", "machine_packages", "machine_cores",
	"machine_pus", "machine_numa_nodes", "machine_kernel", "source",
};
#define NMACHINE ARRAY_SIZE(machine_keys)

/*
 * One file given twice (by the same name, another spelling, a hard or
 * symbolic link) would count every one of its rows twice; the output
 * given as an input would be truncated before it is read.  Files are the
 * same when device and inode are.
 */
static void refuse_same_file(int argc, char **argv)
{
	struct stat *st = xcalloc((size_t)argc, sizeof(*st));
	bool out_exists = !stat(argv[1], &st[1]);

	for (int i = 2; i < argc; i++) {
		if (stat(argv[i], &st[i]))
			die_errno(EXIT_USAGE, "merge: cannot read '%s'", argv[i]);
		if (out_exists && st[i].st_dev == st[1].st_dev && st[i].st_ino == st[1].st_ino)
			die(EXIT_USAGE, "merge: output '%s' is also an input ('%s')",
			    argv[1], argv[i]);
		for (int k = 2; k < i; k++)
			if (st[i].st_dev == st[k].st_dev && st[i].st_ino == st[k].st_ino)
				die(EXIT_USAGE, "merge: '%s' is the same file as '%s' "
				    "(its rows would be merged twice)", argv[i], argv[k]);
	}
	free(st);
}

static int merge_main(int argc, char **argv)
{
	size_t n;
	struct csv_table **t;
	struct union_input *in;
	char ***vals, *side;
	FILE *f;
	struct json j;
	int status = 0;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cli_usage(&merge_cmd, stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			cli_bad_option(&merge_cmd, argv[i]);
	if (argc < 3)
		die(EXIT_USAGE, "merge: want OUT.csv and at least one input CSV");
	check_output_file("merge", argv[1]);
	for (int i = 2; i < argc; i++)
		check_input_file("merge", argv[i], "a results CSV");
	refuse_same_file(argc, argv);
	/* One writer per output: a run -o or another merge into OUT is refused. */
	out_lock_file(argv[1], "merge");
	n = (size_t)argc - 2;
	t = xcalloc(n, sizeof(*t));
	in = xcalloc(n, sizeof(*in));
	vals = xcalloc(n, sizeof(*vals));
	for (size_t i = 0; i < n; i++) {
		const char *path = argv[i + 2], *err;
		char *sp = meta_sidecar_path(path), jerr[512];
		struct json_doc *doc;
		size_t line;

		if (!strcmp(path, argv[1]))
			die(EXIT_USAGE, "merge: output '%s' is also an input", path);
		t[i] = csv_read_file(path, &err, &line);
		if (!t[i])
			die(EXIT_USAGE, "merge: %s:%zu: %s", path, line, err);
		if (access(sp, F_OK)) {
			doc = NULL;
			warnx_("merge: note: no sidecar '%s'; machine columns taken "
			       "from its 'host' column", sp);
		} else if (!(doc = json_read_file(sp, jerr, sizeof(jerr)))) {
			warnx_("merge: note: sidecar %s; machine columns taken from "
			       "its 'host' column", jerr);
		}
		vals[i] = xcalloc(NMACHINE + 1, sizeof(char *));
		for (size_t k = 0; k < NMACHINE; k++) {
			char *v = json_doc_get(doc, "machine", machine_keys[k], NULL);
			if (!v && k == 0) {
				int hc = csv_col(t[i], "host");
				v = xstrdup(hc >= 0 && t[i]->nrows ? t[i]->rows[0][hc] : path);
			}
			vals[i][k] = v ? v : xstrdup("");
		}
		vals[i][NMACHINE] = xstrdup(path);
		in[i] = (struct union_input){ t[i], NMACHINE + 1, machine_cols,
					      (const char *const *)vals[i] };
		json_doc_free(doc);
		free(sp);
	}
	if (csv_union_write(argv[1], in, n))
		status = 1;
	side = meta_sidecar_path(argv[1]);
	if (!status) {
		char *text = NULL;
		size_t len = 0;

		/* checked, whole or not at all, never through a symlink */
		f = open_memstream(&text, &len);
		json_begin(&j, f);
		json_str(&j, "tool", "memscale");
		json_str(&j, "time", meta_now_iso());
		json_str(&j, "results", argv[1]);
		json_arr_open(&j, "merged");
		for (size_t i = 0; i < n; i++) {
			json_obj_open(&j, NULL);
			json_str(&j, "source", argv[i + 2]);
			json_str(&j, "machine", vals[i][0]);
			json_int(&j, "rows", (long long)t[i]->nrows);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		if (json_end(&j) || fclose(f))
			die(1, "out of memory");
		if (atomic_write_file(side, text, len)) {
			warnx_("merge: cannot write '%s': %s", side, strerror(errno));
			status = 1;
		}
		free(text);
	}
	if (!status) {
		size_t rows = 0;
		for (size_t i = 0; i < n; i++)
			rows += t[i]->nrows;
		fprintf(stderr, "merge: %zu rows from %zu files in %s\n", rows, n, argv[1]);
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k <= NMACHINE; k++)
			free(vals[i][k]);
		free(vals[i]);
		csv_free(t[i]);
	}
	free(vals);
	free(t);
	free(in);
	free(side);
	return status;
}
