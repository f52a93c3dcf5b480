#!/usr/bin/env bash
# The Split-SDK web client's tests (SplitSDK/WebClientTests, node's built-in runner): the channel's known answers,
# its cross-test against the Swift ACS channel (through `jose-interop web-channel`), the entry rules and the step
# loop. Needs node 20 or later (WebCrypto as globalThis.crypto.subtle) and no npm package.
#
#   scripts/test-web-client.sh [PATH-TO-jose-interop]
#
# Without a path it builds jose-interop in the tools package (scripts/test.sh passes the one its tests built).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null 2>&1; then
    echo "node is missing: the web client's tests need node 20 or later (Debian: apt-get install nodejs)" >&2
    exit 1
fi
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
    echo "node $(node --version) is too old: the web client's tests need node 20 or later" >&2
    exit 1
fi

tool="${1:-}"
if [ -z "$tool" ]; then
    swift build --package-path Tools --product jose-interop
    tool="$(swift build --package-path Tools --show-bin-path)/jose-interop"
fi
[ -x "$tool" ] || { echo "jose-interop not found at $tool" >&2; exit 1; }

JOSE_INTEROP="$tool" node --test SplitSDK/WebClientTests/
