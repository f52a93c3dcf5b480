#!/usr/bin/env bash
# Every test in the repository, in one line: the SDK package's tests (this folder), then the tools package's
# (Tools/: the TestLab, the `threeds` CLI, the terminal presenter, the NIO transport, the example and the end-to-end
# tests), then the Split-SDK web client's node tests (scripts/test-web-client.sh; node 20 or later). Extra arguments
# go to both `swift test` runs (for example `--filter Demo`). Fuzzing and benchmarks have their own steps in `.ci/run`.
#
# Linux needs libxml2-dev, zlib1g-dev and pkg-config to build, tmux for the terminal tests, and Debian's chromium and
# chromium-driver for the Split-SDK's browser tests (headless Chromium driven over WebDriver; nothing downloads a
# browser or a driver), and PostgreSQL for the Split-SDK's shared-store tests (scripts/postgres.sh); when one is
# missing and this runs as root, it is installed first (as `.ci/run` does). When it is missing and this does not run
# as root, this stops and names it: the browser and database tests never skip.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
if command -v dpkg >/dev/null 2>&1; then
    for package in libxml2-dev zlib1g-dev pkg-config chromium chromium-driver; do
        dpkg -s "$package" >/dev/null 2>&1 || need+=("$package")
    done
    command -v tmux >/dev/null 2>&1 || need+=(tmux)
    command -v node >/dev/null 2>&1 || need+=(nodejs)
    # A CJK font for the Japanese screenshot: installed when it can be, never required (the test passes without it).
    if [ "$(id -u)" -eq 0 ] && ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then need+=(fonts-noto-cjk); fi
fi
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
    else
        echo "missing: ${need[*]} (install them with apt-get, then run this again)" >&2
        exit 1
    fi
fi

# PostgreSQL for the Split-SDK's shared-store tests: installed, started and given its test role when this runs as
# root; otherwise it must answer already (scripts/postgres.sh says how).
bash scripts/postgres.sh

echo "== the SDK package (swift test)"
swift test "$@"
echo "== the tools package (swift test --package-path Tools)"
swift test --package-path Tools "$@"
echo "== the Split-SDK web client (node --test, scripts/test-web-client.sh)"
command -v node >/dev/null 2>&1 || { echo "node is missing: the web client's tests need node 20 or later" >&2; exit 1; }
swift build --package-path Tools --product jose-interop
bash scripts/test-web-client.sh "$(swift build --package-path Tools --show-bin-path)/jose-interop"
