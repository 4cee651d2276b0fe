# tex.awk - the TeX escaper of core/escape.c (esc_tex) for gen.sh's awk
# programs, which gen.sh puts in front of each of them: every character
# TeX treats specially is printed as itself, a control character as "?",
# so no value from a results directory can start a control sequence, a
# ^^ sequence, math or a comment.  texnum(v): v when it is a plain
# decimal number, else "?" (for columns that can only be numbers).
function tex(s,   r, i, ch) {
	r = ""
	for (i = 1; i <= length(s); i++) {
		ch = substr(s, i, 1)
		if (ch == "\\") r = r "\\textbackslash{}"
		else if (ch == "^") r = r "\\textasciicircum{}"
		else if (ch == "~") r = r "\\textasciitilde{}"
		else if (ch == "<") r = r "\\textless{}"
		else if (ch == ">") r = r "\\textgreater{}"
		else if (ch == "|") r = r "\\textbar{}"
		else if (index("{}$&#_%", ch)) r = r "\\" ch
		else if (ch == "-" && substr(s, i + 1, 1) == "-") r = r "-{}"
		else if (ch ~ /[\001-\037\177]/) r = r "?"
		else r = r ch
	}
	return r
}
function texnum(v) { return v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ ? v : "?" }
