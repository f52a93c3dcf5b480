#!/usr/bin/env python3
"""Lists Swift functions longer than a limit (60 lines by default) in the given folders.

A function's length is counted from the line of its declaration to the line of its closing brace. Two kinds are
left out, as the house rules allow: a function whose body is one `switch` statement (an exhaustive switch reads as a
table), and a SwiftUI view's `body`. Functions, initializers, subscripts and computed properties with a body are
counted; closures are counted as part of the function that holds them.

Usage: scripts/long-functions.py [--limit N] FOLDER...   (exit status 1 when any function is listed)
"""

import argparse
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@[\w.()\"]+\s+)*(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|"
    r"mutating|nonmutating|nonisolated|convenience|required|dynamic|@MainActor|@inlinable|@discardableResult)\s+)*"
    r"(?P<kind>func|init|deinit|subscript|var)\b\s*(?P<name>[^\s(:<{]*)")


def strip_code(text):
    """Returns the text with comments and string literals blanked (newlines kept), so braces can be counted."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r'#*', text[i:]).group(0))
            start = i + hashes
            multi = text.startswith('"""', start)
            quote = '"""' if multi else '"'
            close = quote + "#" * hashes
            j = start + len(quote)
            while j < n and not text.startswith(close, j):
                j += 2 if (text[j] == "\\" and hashes == 0) else 1
            j = min(n, j + len(close))
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def matching_brace(code, start):
    """Index of the brace closing the one at `start`."""
    depth = 0
    for index in range(start, len(code)):
        if code[index] == "{":
            depth += 1
        elif code[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return len(code) - 1


def is_switch_only(body):
    inner = body.strip()[1:-1].strip()
    if not inner.startswith("switch ") and not re.match(r"^(return\s+)?switch\b", inner):
        return False
    brace = inner.find("{")
    return brace >= 0 and matching_brace(inner, brace) == len(inner) - 1


def long_functions(path, limit):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    code = strip_code(text)
    lines = code.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    found = []
    for number, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        kind, name = match.group("kind"), match.group("name") or match.group("kind")
        # The body's opening brace: the first `{` after the declaration at parenthesis depth 0, before any `=`
        # (a stored property with an initial closure is not a function).
        position, depth = offsets[number] + match.end(), 0
        brace = None
        while position < len(code):
            char = code[position]
            if char in "([":
                depth += 1
            elif char in ")]":
                depth -= 1
            elif depth == 0 and char == "{":
                brace = position
                break
            elif depth == 0 and (char == "=" and kind == "var" or char == "}" or char == ";"):
                break
            elif depth == 0 and char == "\n" and kind == "var" and "{" not in code[position:position + 2]:
                break
            position += 1
        if brace is None:
            continue
        end = matching_brace(code, brace)
        first, last = number + 1, code.count("\n", 0, end) + 1
        length = last - first + 1
        if length <= limit:
            continue
        if kind == "var" and name == "body":
            continue
        if is_switch_only(code[brace:end + 1]):
            continue
        found.append((path, first, length, f"{kind} {name}".strip()))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=60)
    parser.add_argument("folders", nargs="+")
    arguments = parser.parse_args()
    found = []
    for folder in arguments.folders:
        for root, _, files in os.walk(folder):
            for file in sorted(files):
                if file.endswith(".swift"):
                    found += long_functions(os.path.join(root, file), arguments.limit)
    for path, line, length, name in sorted(found):
        print(f"{path}:{line}: {name} is {length} lines")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
