/*
 * t_file - core/file.c, the one way to open: a new output replaces a
 * symbolic link at its name instead of writing through it and leaves no
 * temporary behind; an append refuses links, FIFOs and files with a
 * second hard link; inputs refuse FIFOs without blocking and links when
 * asked; a bounded read stops at a NUL byte and past its limit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "tap.h"

static char dir[] = "/tmp/t_file.XXXXXX";

static char *p(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static size_t entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static void test_out_file(void)
{
	char *victim = p("victim"), *out = p("out.txt"), *text;
	struct out_file o;
	struct stat st;

	ok(!atomic_write_file(victim, "precious\n", 9), "a first file is written");
	ok(!symlink(victim, out), "a symbolic link is planted at the output's name");
	ok(!out_file_begin(&o, out, 0644), "out_file_begin beside it");
	ok(fputs("new\n", o.f) >= 0 && !out_file_commit(&o), "written and committed");
	text = read_text_file(victim);
	ok(text && !strcmp(text, "precious\n"), "the link's target is untouched");
	free(text);
	ok(!lstat(out, &st) && S_ISREG(st.st_mode), "the link was replaced by the file");
	text = read_text_file(out);
	ok(text && !strcmp(text, "new\n"), "which holds what was written");
	free(text);
	ok(!out_file_begin(&o, out, 0644), "a second writer begins");
	out_file_abort(&o);
	is_int(entries(), 2, "an aborted write leaves no temporary file");
	free(victim);
	free(out);
}

static void test_append(void)
{
	char *a = p("a.csv"), *l = p("l.csv"), *h = p("h.csv"), *fifo = p("f.csv");
	const char *why;
	bool created;
	int fd;

	fd = file_append_open(a, O_WRONLY | O_CREAT, &created, &why);
	ok(fd >= 0 && created, "append creates a missing file");
	ok(fd >= 0 && write(fd, "x\n", 2) == 2 && !close(fd), "and writes to it");
	fd = file_append_open(a, O_WRONLY | O_CREAT, &created, &why);
	ok(fd >= 0 && !created, "a second append opens the same file");
	if (fd >= 0)
		close(fd);
	ok(!symlink(a, l), "a link to it");
	fd = file_append_open(l, O_WRONLY | O_CREAT, &created, &why);
	ok(fd < 0 && strstr(why, "symbolic link"), "append refuses the link (%s)",
	   fd < 0 ? why : "opened");
	ok(!link(a, h), "a hard link to it");
	fd = file_append_open(h, O_WRONLY, NULL, &why);
	ok(fd < 0 && strstr(why, "hard link"), "append refuses a file with two "
	   "links (%s)", fd < 0 ? why : "opened");
	ok(!mkfifo(fifo, 0600), "a FIFO");
	fd = file_append_open(fifo, O_WRONLY | O_CREAT, NULL, &why);
	ok(fd < 0, "append refuses the FIFO without waiting (%s)", fd < 0 ? why : "opened");
	free(a);
	free(l);
	free(h);
	free(fifo);
}

static void test_inputs(void)
{
	char *f = p("f.csv"), *l = p("l.csv"), *big = p("big");
	const char *why;
	FILE *in;
	char *text;
	size_t len;

	in = input_fopen(f, &why);
	ok(!in && strstr(why, "FIFO"), "input refuses a FIFO (%s)", in ? "opened" : why);
	in = input_fopen(l, &why);
	ok(in != NULL, "input follows a link given as the user's argument");
	if (in)
		fclose(in);
	in = file_read_open(l, FILE_NOFOLLOW, &why);
	ok(!in && strstr(why, "symbolic link"), "FILE_NOFOLLOW refuses it (%s)",
	   in ? "opened" : why);
	if (in)
		fclose(in);
	ok(!atomic_write_file(big, "abc\0def", 7), "a file with a NUL byte");
	in = input_fopen(big, &why);
	text = in ? file_read_bounded(in, 100, &len, &why) : NULL;
	ok(!text && strstr(why, "NUL byte at offset 3"), "a bounded read stops at "
	   "the NUL (%s)", text ? "read" : why);
	if (in)
		fclose(in);
	ok(!atomic_write_file(big, "0123456789", 10), "a file of 10 bytes");
	in = input_fopen(big, &why);
	text = in ? file_read_bounded(in, 9, &len, &why) : NULL;
	ok(!text && strstr(why, "larger than 9"), "a 9-byte bound refuses it (%s)",
	   text ? "read" : why);
	if (in)
		fclose(in);
	in = input_fopen(big, &why);
	text = in ? file_read_bounded(in, 10, &len, &why) : NULL;
	ok(text && len == 10 && !strcmp(text, "0123456789"), "a 10-byte bound reads it");
	free(text);
	if (in)
		fclose(in);
	free(f);
	free(l);
	free(big);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("1..0 # SKIP no temporary directory\n");
		return 0;
	}
	test_out_file();
	test_append();
	test_inputs();
	{
		char *cmd = xasprintf("rm -rf %s", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
		free(cmd);
	}
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
