#!/usr/bin/env python3
"""Writes the English table compiled into a binary: the texts a process shows when its resource folder is missing.

Usage: scripts/generate-builtin-english.py <en.lproj folder> <output .swift> <type to extend> [<access>]

Reads <en.lproj>/Localizable.strings (and Localizable.stringsdict, when present, for the plural forms) and writes
one Swift file extending <type> with `builtInEnglish` ([key: text]) and `builtInEnglishPlurals` ([key: [category:
text]]). Run it after changing English; a test holds the file against the table.
"""
import plistlib
import re
import sys
from pathlib import Path

ENTRY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;')


def unescape(text):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            n = text[i + 1]
            if n in "Uu":
                out.append(chr(int(text[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append({"n": "\n", "t": "\t", "r": "\r"}.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def swift_literal(text):
    out = []
    for c in text:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n":
            out.append("\\n")
        elif ord(c) < 0x20:
            out.append("\\u{%x}" % ord(c))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def strings_entries(path):
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    return [(unescape(k), unescape(v)) for k, v in ENTRY.findall(text)]


def plural_entries(path):
    if not path.exists():
        return []
    plist = plistlib.loads(path.read_bytes())
    found = []
    for key in sorted(plist):
        rule = next(v for k, v in plist[key].items() if k != "NSStringLocalizedFormatKey")
        forms = {k: v for k, v in rule.items() if k not in ("NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey")}
        found.append((key, forms))
    return found


def main():
    folder, output, type_name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    access = (sys.argv[4] + " ") if len(sys.argv) > 4 else ""
    lines = [
        f"// Written by scripts/generate-builtin-english.py from {folder.as_posix()}; do not edit by hand.",
        "",
        f"extension {type_name} {{",
        "    /// The English table compiled into the binary, the texts shown when the resource folder is missing.",
        f"    {access}static let builtInEnglish: [String: String] = [",
    ]
    for key, value in strings_entries(folder / "Localizable.strings"):
        lines.append(f"        {swift_literal(key)}: {swift_literal(value)},")
    lines.append("    ]")
    plurals = plural_entries(folder / "Localizable.stringsdict")
    lines += [
        "",
        "    /// The English plural forms compiled into the binary, by key and CLDR category.",
        f"    {access}static let builtInEnglishPlurals: [String: [String: String]] = [",
    ]
    for key, forms in plurals:
        lines.append(f"        {swift_literal(key)}: [")
        for category in sorted(forms):
            lines.append(f"            {swift_literal(category)}: {swift_literal(forms[category])},")
        lines.append("        ],")
    if not plurals:
        lines[-1] = lines[-1] + "[:]"
        lines[-1] = lines[-1].replace("= [[:]", "= [:]")
    else:
        lines.append("    ]")
    lines.append("}")
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
