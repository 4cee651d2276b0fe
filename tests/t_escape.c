/*
 * t_escape - the escapers of core/escape.h against each language's hostile
 * characters: TeX control sequences, ^^ notation, math and comments;
 * gnuplot quotes; HTML markup; awk escapes; sbatch blanks, quotes and
 * newlines (no value may add an option); lttng option-looking arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "tap.h"

static const char *tex_macros[] = { "textbackslash{}", "textasciicircum{}",
	"textasciitilde{}", "textless{}", "textgreater{}", "textbar{}" };

/* Whether t is plain text to TeX: every backslash starts one of the
 * escapes esc_tex makes, no special character stands alone, no ^^. */
static int tex_inert(const char *t)
{
	for (const char *p = t; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f)
			return 0;
		if (*p == '\\') {
			size_t i, n = sizeof(tex_macros) / sizeof(tex_macros[0]);
			if (p[1] && strchr("{}$&#_%", p[1])) {
				p++;
				continue;
			}
			for (i = 0; i < n; i++)
				if (!strncmp(p + 1, tex_macros[i], strlen(tex_macros[i])))
					break;
			if (i == n)
				return 0;
			p += strlen(tex_macros[i]);
			continue;
		}
		if (*p == '{' && p[1] == '}' && p > t && p[-1] == '-') {
			p++;
			continue;
		}
		if (strchr("{}$&#^_%~", *p))
			return 0;
	}
	return 1;
}

static void test_tex(void)
{
	static const char *hostile[] = {
		"\\input{/etc/shadow}", "^^5cinput^^7b/root/secret^^7d", "$x^2$",
		"a & b # c % d", "~user_name", "{\\catcode`\\^=7}", "\\\\", "x\\",
		"a--b---c", "<|>\"", "line\nbreak\r\x01\x7f", "\\def\\x{y}\\x",
		"^^M^^J", "\xc3\xa9t\xc3\xa9", "",
	};
	char all[256];

	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char *t = esc_tex(hostile[i]);
		ok(tex_inert(t), "TeX: hostile value %zu escapes to inert text (%s)", i, t);
		free(t);
	}
	for (int c = 1; c < 256; c++)
		all[c - 1] = (char)c;
	all[255] = '\0';
	{
		char *t = esc_tex(all);
		ok(tex_inert(t), "TeX: every byte 1..255 escapes to inert text");
		free(t);
	}
	{
		char *t = esc_tex("a_b%c");
		ok(!strcmp(t, "a\\_b\\%c"), "TeX: a_b%%c is a\\_b\\%%c (%s)", t);
		free(t);
		t = esc_tex("^^5c");
		ok(!strcmp(t, "\\textasciicircum{}\\textasciicircum{}5c"),
		   "TeX: ^^5c is two printed circumflexes (%s)", t);
		free(t);
	}
}

static void test_gnuplot(void)
{
	const char *why;
	char *t = esc_gnuplot("it's `touch x` $(y) \"q\"", &why);

	ok(t && !strcmp(t, "'it''s `touch x` $(y) \"q\"'"),
	   "gnuplot: single-quoted, ' doubled (%s)", t ? t : "NULL");
	free(t);
	ok(!esc_gnuplot("a\nsystem('id')", &why) && strstr(why, "0x0a"),
	   "gnuplot: a newline is refused (%s)", why);
	ok(!esc_gnuplot("a\rb", &why), "gnuplot: a carriage return is refused");
}

static void test_html(void)
{
	char *t = esc_html("<script>alert('x')</script>&\"");

	ok(t && !strcmp(t, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"),
	   "HTML: markup becomes entities (%s)", t ? t : "NULL");
	free(t);
	t = esc_html("a\x1b[2J\tb\n");
	ok(!strcmp(t, "a[2J\tb\n"), "HTML: an escape character is dropped, tab and "
	   "newline kept");
	free(t);
}

static void test_awk(void)
{
	const char *why;
	char *t = esc_awk_var("a\\nb\nc\"d", &why);

	ok(t && !strcmp(t, "a\\\\nb\\nc\"d"), "awk -v: \\ doubled, newline as \\n (%s)",
	   t ? t : "NULL");
	free(t);
	ok(!esc_awk_var("a\tb\x01", &why), "awk -v: other control characters refused");
}

static void test_sbatch(void)
{
	const char *why;
	char *t = esc_sbatch("my dir --wrap=id", 0, &why);

	ok(t && !strcmp(t, "\"my dir --wrap=id\""), "sbatch: blanks stay in the "
	   "quoted value (%s)", t ? t : "NULL");
	free(t);
	t = esc_sbatch("a\"b\\c %j", 1, &why);
	ok(t && !strcmp(t, "\"a\\\"b\\\\c %%j\""), "sbatch: \" and \\ escaped, %% "
	   "doubled in a file name pattern (%s)", t ? t : "NULL");
	free(t);
	ok(!esc_sbatch("d\n#SBATCH --wrap=id", 0, &why) && strstr(why, "0x0a"),
	   "sbatch: a newline is refused (%s)", why);
	ok(!esc_sbatch("", 0, &why), "sbatch: an empty value is refused");
}

static void test_lttng(void)
{
	const char *why;
	char *t = esc_lttng_arg("memscale:lock_agg,memscale:run_phase", &why);

	ok(t && !strcmp(t, "memscale:lock_agg,memscale:run_phase"),
	   "lttng: an event list passes unchanged");
	free(t);
	t = esc_lttng_arg("4M", &why);
	ok(t != NULL, "lttng: 4M passes");
	free(t);
	ok(!esc_lttng_arg("--help", &why) && strstr(why, "option"),
	   "lttng: an option-looking value is refused (%s)", why);
	ok(!esc_lttng_arg("4M --output=/etc", &why), "lttng: a blank is refused");
	ok(!esc_lttng_arg("a\nb", &why), "lttng: a newline is refused");
	ok(!esc_lttng_arg("$(id)", &why), "lttng: shell characters are refused");
}

int main(void)
{
	test_tex();
	test_gnuplot();
	test_html();
	test_awk();
	test_sbatch();
	test_lttng();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
