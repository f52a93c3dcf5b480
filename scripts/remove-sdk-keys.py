#!/usr/bin/env python3
"""Removes keys (each entry with the comment above it) from every language's Localizable.strings and
Localizable.stringsdict.

Usage: scripts/remove-sdk-keys.py <Resources folder> <key> [<key> ...]
  scripts/remove-sdk-keys.py Sources/ThreeDS2SDK/Resources trustQuestion timedOut cancelled completed
"""
import re
import sys
from pathlib import Path


def main():
    root, keys = Path(sys.argv[1]), sys.argv[2:]
    for table in sorted(root.glob("*.lproj/Localizable.strings")):
        text = table.read_text(encoding="utf-8")
        for key in keys:
            pattern = r'(?:/\*(?:(?!\*/).)*\*/\s*\n)?"' + re.escape(key) + r'"\s*=\s*"(?:[^"\\]|\\.)*"\s*;\n\n?'
            text = re.sub(pattern, "", text, flags=re.S)
        table.write_text(text, encoding="utf-8")
    for plurals in sorted(root.glob("*.lproj/Localizable.stringsdict")):
        text = plurals.read_text(encoding="utf-8")
        for key in keys:
            pattern = r"(?:\t<!--[^\n]*-->\n)?\t<key>" + re.escape(key) + r"</key>\n\t<dict>.*?\n\t</dict>\n"
            text = re.sub(pattern, "", text, flags=re.S)
        plurals.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
