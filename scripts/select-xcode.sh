#!/usr/bin/env bash
# Selects the Xcode a job of .github/workflows/apple.yml runs with: a version as the runner image names it (a leg of
# scripts/apple-runner-images.json, such as "16.4": Swift 6.1, which reads the manifests' tools version 6.1) or
# "newest" (the highest stable Xcode on the image; betas and release candidates are left out). Fails when the image
# has no such Xcode, listing those it has.
set -euo pipefail
wanted="${1:?usage: scripts/select-xcode.sh VERSION|newest}"
if [ "$wanted" = newest ]; then
    wanted=$(
        for app in /Applications/Xcode_*.app; do
            name=${app#/Applications/Xcode_}
            name=${name%.app}
            if [[ $name =~ ^[0-9]+(\.[0-9]+)*$ ]]; then echo "$name"; fi
        done | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1
    )
fi
app="/Applications/Xcode_${wanted}.app"
if [ -z "$wanted" ] || [ ! -d "$app" ]; then
    echo "no Xcode ${wanted:-release} on this image; it has:" >&2
    ls -d /Applications/Xcode*.app >&2 || true
    exit 1
fi
sudo xcode-select --switch "$app/Contents/Developer"
xcodebuild -version
swift --version
