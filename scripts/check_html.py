#!/usr/bin/env python3
"""check_html.py - a strict well-formedness check of a generated HTML page.

    python3 scripts/check_html.py PAGE.html

Checks (Python's html.parser): a <!DOCTYPE html>, one <title>, every
non-void element closed in order, no <script>, no attribute that runs code
(on*=), every <img src> a relative path to an existing file beside PAGE.
Prints one line per problem; exit 1 when there is any, 2 on bad usage.
"""
import html.parser
import os
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Check(html.parser.HTMLParser):
    def __init__(self, base):
        super().__init__(convert_charrefs=True)
        self.base, self.stack, self.errors = base, [], []
        self.doctype = False
        self.titles = 0

    def err(self, msg):
        self.errors.append("line %d: %s" % (self.getpos()[0], msg))

    def handle_decl(self, decl):
        if decl.lower() == "doctype html":
            self.doctype = True

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.err("<script> element")
        for k, v in attrs:
            if k.startswith("on"):
                self.err("event attribute %s" % k)
        if tag == "title":
            self.titles += 1
        if tag == "img":
            src = dict(attrs).get("src") or ""
            if not src or src.startswith("/") or ":" in src or ".." in src.split("/"):
                self.err("img src %r is not a relative path" % src)
            elif not os.path.isfile(os.path.join(self.base, src)):
                self.err("img src %r: no such file" % src)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            self.err("end tag of void element </%s>" % tag)
        elif not self.stack or self.stack[-1] != tag:
            self.err("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
        else:
            self.stack.pop()


def main():
    if len(sys.argv) != 2:
        print("usage: check_html.py PAGE.html", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print("check_html: %s" % e, file=sys.stderr)
        return 2
    c = Check(os.path.dirname(os.path.abspath(sys.argv[1])))
    c.feed(text)
    c.close()
    if not c.doctype:
        c.errors.append("no <!DOCTYPE html>")
    if c.titles != 1:
        c.errors.append("%d <title> elements (want 1)" % c.titles)
    if c.stack:
        c.errors.append("unclosed: %s" % " ".join(c.stack))
    for e in c.errors:
        print("%s: %s" % (sys.argv[1], e))
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main())
