#!/usr/bin/env bash
# Builds the DocC documentation of the SDK package's modules with the toolchain's own `docc` (no documentation plugin:
# it would be a fifth package in every app's graph) and fails on any warning: a broken symbol link, an undocumented
# parameter, an article the catalogue does not reach. The archives land in .build/docc/.
#
#   scripts/docc.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# The package's test modules may not be built yet (a fresh clone): their graphs fail and are not needed, so the
# command's status is not trusted; each module's own graph must exist below instead.
swift build >/dev/null
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 || true
graphs="$(swift build --show-bin-path)/../symbolgraph"
status=0
for module in ThreeDS2JOSE ThreeDS2Messages ThreeDS2ACSKit ThreeDS2SDK ThreeDS2SDKTesting ThreeDS2HTML; do
    input=".build/docc/$module-graphs"
    rm -rf "$input" ".build/docc/$module.doccarchive"
    mkdir -p "$input"
    if [ ! -f "$graphs/$module.symbols.json" ]; then
        echo "docc: no symbol graph for $module (swift package dump-symbol-graph failed for it)" >&2
        status=1
        continue
    fi
    cp "$graphs/$module.symbols.json" "$input/"
    cp "$graphs/$module"@*.symbols.json "$input/" 2>/dev/null || true
    catalogue=()
    [ -d "Sources/$module/Docs.docc" ] && catalogue=("Sources/$module/Docs.docc")
    echo "== docc: $module"
    log=".build/docc/$module.log"
    if ! docc convert "${catalogue[@]}" --additional-symbol-graph-dir "$input" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.threeds2.$module" --output-path ".build/docc/$module.doccarchive" \
        --warnings-as-errors --diagnostic-filter warning >"$log" 2>&1; then
        status=1
    fi
    grep -v "^$" "$log" || true
    # Any diagnostic is a failure, whatever docc's own exit status says.
    if grep -Eq "^(error|warning):" "$log"; then status=1; fi
done
exit $status
