#!/usr/bin/env python3
"""Writes docs/translations/width-320pt.md: per language, which SDK texts risk wrapping or truncation on a phone 320
points wide, estimated from measured character counts (never rendered on a device).

Usage: scripts/width-notes.py > docs/translations/width-320pt.md

The estimate: 288 pt of content (320 minus 16 pt margins each side); a text at 17 pt takes about 8.5 pt per narrow
character and 17 pt per East Asian wide one (display columns x 8.5 pt, counted as the terminal counts them: wide and
full-width characters 2, combining marks and format characters 0, everything else 1). So a line holds about 33
columns; a button (12 pt padding each side) about 31; the toolbar's title shares its line with the cancel button and
about 16 pt between them.
"""
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "Sources/ThreeDS2SDK/Resources"
ENTRY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;')
LINE, BUTTON, PT = 33, 31, 8.5
BUTTONS = ["cancel", "continueButton", "submit", "resend", "openApp", "showMore", "showLess"]
LABELS = ["codeField", "chooseOption", "processing"]


def columns(text):
    width = 0
    for c in text:
        cat = unicodedata.category(c)
        if cat in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return width


def table(language):
    text = (ROOT / f"{language}.lproj/Localizable.strings").read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return {k: v.replace('\\"', '"') for k, v in ENTRY.findall(text)}


def main():
    languages = sorted(p.name[:-6] for p in ROOT.glob("*.lproj"))
    method = __doc__.split("\n\n")[2].strip().replace("\n", " ")
    out = ["# Width notes: the SDK's texts on a phone 320 points wide", "",
           "Written by `scripts/width-notes.py` (re-run it after changing a table). " + method, "",
           "An estimate from measured character counts, not a rendering: proportional fonts vary (a German text of "
           "capitals and `m`s is wider, one of `i`s and `l`s narrower), Dynamic Type sizes above the default shrink "
           "every budget, and no table was drawn on a 320-point device or simulator. The SwiftUI previews include "
           "every sample screen pseudo-localized (+40 %) at 320 points (`PseudoLocalizedPreviews`), to look at in "
           "Xcode; they are type-checked on Linux against stand-ins, never compiled on an Apple platform here.", "",
           "| Language | Toolbar: title + cancel (of 30 columns) | Buttons over one line (31 columns) | Labels over one line | Longest sentence (lines at 33 columns) |",
           "|---|---|---|---|---|"]
    for language in languages:
        t = table(language)
        bar = columns(t["secureCheckout"]) + columns(t["cancel"])
        bar_note = f"{bar}" + (" **title truncated or wrapped**" if bar > 30 else "")
        wide_buttons = [f"`{k}` ({columns(t[k])})" for k in BUTTONS if columns(t[k]) > BUTTON]
        wide_labels = [f"`{k}` ({columns(t[k])})" for k in LABELS if columns(t[k]) > LINE]
        sentences = {k: v for k, v in t.items() if k not in BUTTONS + LABELS + ["secureCheckout"]}
        longest = max(sentences, key=lambda k: columns(sentences[k]))
        lines = -(-columns(sentences[longest]) // LINE)
        out.append(f"| `{language}` | {bar_note} | {', '.join(wide_buttons) or 'none'} | "
                   f"{', '.join(wide_labels) or 'none'} | `{longest}`: {columns(sentences[longest])} columns, {lines} lines |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
