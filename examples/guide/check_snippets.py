#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that docs/guide.md shows the worked example's real code.

    check_snippets.py GUIDE SOURCE... [--update]

A snippet is the lines of a SOURCE between a marker line `// [guide:NAME]` (or
`# [guide:NAME]`) and `// [guide:end]`. GUIDE must hold each snippet as the fenced code
block that follows the line `<!-- snippet: NAME -->`, equal to it after removing the
snippet's common indentation. Fails (exit 1) with a diff for every snippet that differs,
is missing from GUIDE, or is named in GUIDE but marked in no SOURCE. --update rewrites
GUIDE's snippet blocks from the sources instead (then re-read the prose around them).
"""

import difflib
import re
import sys
import textwrap

MARKER = re.compile(r"^\s*(?://|#)\s*\[guide:([A-Za-z0-9_-]+)\]\s*$")
GUIDE_REF = re.compile(r"^<!--\s*snippet:\s*([A-Za-z0-9_-]+)\s*-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)")


def read_snippets(paths, errors):
    """name -> (where, text) from the marker pairs of the sources."""
    snippets = {}
    for path in paths:
        with open(path) as f:
            lines = f.read().split("\n")
        open_name, start, body = None, 0, []
        for number, line in enumerate(lines, 1):
            m = MARKER.match(line)
            if not m:
                if open_name:
                    body.append(line)
                continue
            name = m.group(1)
            if name == "end":
                if not open_name:
                    errors.append("%s:%d: [guide:end] without a [guide:NAME] before it" % (path, number))
                    continue
                where = "%s:%d" % (path, start)
                if open_name in snippets:
                    errors.append("%s: snippet '%s' is marked twice (also at %s)" % (where, open_name,
                                                                                   snippets[open_name][0]))
                snippets[open_name] = (where, textwrap.dedent("\n".join(body)).strip("\n"))
                open_name, body = None, []
            elif open_name:
                errors.append("%s:%d: [guide:%s] inside snippet '%s' (started at line %d): close it with "
                              "[guide:end] first" % (path, number, name, open_name, start))
            else:
                open_name, start, body = name, number, []
        if open_name:
            errors.append("%s:%d: snippet '%s' has no [guide:end]" % (path, start, open_name))
    return snippets


def guide_blocks(lines, errors, guide):
    """name -> (index of the block's first content line, index after its last) in GUIDE's lines."""
    blocks = {}
    i = 0
    while i < len(lines):
        m = GUIDE_REF.match(lines[i])
        if not m:
            i += 1
            continue
        name, ref_line = m.group(1), i + 1
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        fence = FENCE.match(lines[j]) if j < len(lines) else None
        if not fence:
            errors.append("%s:%d: <!-- snippet: %s --> is not followed by a fenced code block" % (guide, ref_line, name))
            i += 1
            continue
        k = j + 1
        while k < len(lines) and not lines[k].startswith(fence.group(1)):
            k += 1
        if k == len(lines):
            errors.append("%s:%d: the code block of snippet '%s' is not closed" % (guide, j + 1, name))
        if name in blocks:
            errors.append("%s:%d: snippet '%s' is shown twice in the guide" % (guide, ref_line, name))
        blocks[name] = (j + 1, k)
        i = k + 1
    return blocks


def main(argv):
    update = "--update" in argv
    args = [a for a in argv if a != "--update"]
    if len(args) < 2:
        sys.exit(__doc__)
    guide, sources = args[0], args[1:]
    errors = []
    snippets = read_snippets(sources, errors)
    with open(guide) as f:
        lines = f.read().split("\n")
    blocks = guide_blocks(lines, errors, guide)
    if update:
        for name, (first, end) in sorted(blocks.items(), key=lambda kv: -kv[1][0]):
            if name in snippets:
                lines[first:end] = snippets[name][1].split("\n")
        with open(guide, "w") as f:
            f.write("\n".join(lines))
        print("%s: %d snippet blocks rewritten from the sources" % (guide, sum(n in snippets for n in blocks)))
        return 0
    for name, (where, text) in sorted(snippets.items()):
        if name not in blocks:
            errors.append("%s: snippet '%s' is not in %s; add the line `<!-- snippet: %s -->` followed by a code "
                          "block with its code" % (where, name, guide, name))
            continue
        first, end = blocks[name]
        shown = "\n".join(lines[first:end])
        if shown != text:
            diff = difflib.unified_diff(text.split("\n"), shown.split("\n"), "%s (the example)" % where,
                                        "%s:%d (the guide)" % (guide, first + 1), lineterm="")
            errors.append("snippet '%s' in %s differs from the example's code:\n%s" % (name, guide, "\n".join(diff)))
    for name, (first, _) in sorted(blocks.items()):
        if name not in snippets:
            errors.append("%s:%d: the guide shows snippet '%s', which no example source marks (renamed or removed?)"
                          % (guide, first, name))
    if errors:
        print("\n\n".join(errors))
        print("\n%d problem(s). The guide must show the example's code verbatim: edit one to match the other, or "
              "run %s %s --update to copy the sources' snippets into the guide." % (
                  len(errors), sys.argv[0], " ".join(args)))
        return 1
    print("%s: all %d snippets match the example's code" % (guide, len(snippets)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
