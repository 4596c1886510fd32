# SPDX-License-Identifier: BSD-2-Clause
"""Doxygen's input filter for the C library's headers (docs/Doxyfile): their comments are
plain C comments, written to be read in the header; this hands them to Doxygen as
documentation comments, line for line (Doxygen's line numbers stay the header's):

- the license line stays a plain comment; the file's first comment after it documents the
  file (`\\file`);
- a comment after code on its line documents that member (`/**<`);
- a comment on lines of its own documents the declaration right below it (`/**`); followed
  by a blank line it is a note on the code around, not a declaration's, and stays plain;
- comments inside a macro's definition stay plain;
- a placeholder in angle brackets (`CSR_<INSTANCE>_CTRL_<FIELD>_OFFSET`) is text, not an
  HTML tag (the generated ld_hw_regs.h has them);
- a header's name (ld_hw.h) is not made a link to the file: the site's reference has no
  target for files.
"""

import re
import sys

COMMENT = re.compile(r"/\*(?![*!])(.*?)\*/", re.S)
PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]*)>")
HEADER = re.compile(r"(?<![\w/<%])((?:ld_\w+|litedigest)\.h)\b")


def convert(text):
    out = []
    pos = 0
    seen_file_doc = False
    for m in COMMENT.finditer(text):
        start, end = m.span()
        out.append(text[pos:start])
        body = HEADER.sub(r"%\1", PLACEHOLDER.sub(r"\\<\1\\>", m.group(1)))
        line_start = text.rfind("\n", 0, start) + 1
        before = text[line_start:start]
        prev_line_end = line_start - 1
        prev_line = text[text.rfind("\n", 0, max(prev_line_end, 0)) + 1 : max(prev_line_end, 0)]
        rest = text[end:]
        in_macro = before.rstrip().endswith("\\") or prev_line.rstrip().endswith("\\")
        if "SPDX-License-Identifier" in body or in_macro:
            out.append(m.group(0))
        elif not seen_file_doc and not before.strip():
            seen_file_doc = True
            out.append(f"/**{body} \\file */")
        elif before.strip():
            out.append(f"/**<{body}*/")
        elif re.match(r"[ \t]*\n[ \t]*\n", rest):
            out.append(m.group(0))
        else:
            out.append(f"/**{body}*/")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def main(argv):
    with open(argv[1], encoding="utf-8") as f:
        sys.stdout.write(convert(f.read()))


if __name__ == "__main__":
    main(sys.argv)
