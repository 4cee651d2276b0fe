/*
 * escape.h - the one way a value reaches another program's source text or
 * options: one escaper per target language, each turning any byte string
 * into text that the target reads back as that same value and nothing
 * more (or refusing what the language cannot hold safely).  Every result
 * is a fresh heap string (free it); NULL means refused, with *why (when
 * why is not NULL) a phrase naming the problem ("holds a control
 * character (byte 0x0a)").
 */
#ifndef MEMSCALE_ESCAPE_H
#define MEMSCALE_ESCAPE_H

/*
 * TeX (LaTeX text mode): \ { } $ & # ^ _ % ~ become \textbackslash{},
 * \{, \}, \$, \&, \#, \textasciicircum{}, \_, \%, \textasciitilde{};
 * < > | become \textless{}, \textgreater{}, \textbar{} (defined in
 * every font encoding); "--" is split ("-{}-"); a control character becomes
 * "?" (TeX would read it as an end of line or an invalid character).
 * Nothing is refused: no ^^ sequence, no control sequence, no math mode
 * and no comment can survive.
 */
char *esc_tex(const char *s);
/*
 * A gnuplot string constant, quotes included: 'VALUE' with ' doubled
 * (gnuplot does no backquote substitution and reads no escapes inside
 * single quotes).  Refused: control characters (a newline would end the
 * command).
 */
char *esc_gnuplot(const char *s, const char **why);
/* HTML text or attribute value: & < > " ' become entities; control
 * characters other than tab and newline are dropped (as cmd_report.c's
 * html_text() does). */
char *esc_html(const char *s);
/*
 * The value of `awk -v NAME=VALUE` (argv, no shell): awk reads escape
 * sequences in it, so \ becomes \\ and a newline \n.  Refused: other
 * control characters.
 */
char *esc_awk_var(const char *s, const char **why);
/*
 * The value of an `#SBATCH --OPTION=VALUE` directive: "VALUE" in double
 * quotes with \ and " escaped by a backslash, so blanks stay in the value
 * and cannot start another option; with `pattern` (--output, --error),
 * % is doubled (Slurm's file name patterns: %% is a literal %).
 * Refused: control characters (a newline ends the directive) and the
 * empty value.
 */
char *esc_sbatch(const char *s, int pattern, const char **why);
/*
 * An argument to the lttng command (argv, no shell): returned unchanged
 * when it is safe, else refused: empty, starting with '-' (it would be
 * read as an option), or holding a blank, a control character or a byte
 * outside [A-Za-z0-9._:,*=/+@-] (event, session and size arguments never
 * need one).
 */
char *esc_lttng_arg(const char *s, const char **why);

#endif
