#!/usr/bin/env bash
# Builds the libFuzzer targets under Fuzz/ (address sanitizer, leak detection on) and runs each for SECONDS
# (default 30) from its seed corpus, as many targets at once as there are cores. Exits non-zero on any crash,
# sanitizer or leak report, or timeout; the input that failed is left in .build-fuzz/artifacts/<target>/. Keep each
# failing input as a regression file in Fuzz/Regressions/<target>/: every run replays those first.
#
#   scripts/fuzz.sh            # every target, 30 s each
#   scripts/fuzz.sh 600 jwe    # one target for 10 minutes
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(json base64 jwk jwe jws cres html form bundle customization); fi

flags=(--scratch-path ../.build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld)
(cd Fuzz && swift build "${flags[@]}" 2>&1 | grep -Ev "swift-distributed-tracing|CMakeLists.txt" || true)
bin="$(cd Fuzz && swift build "${flags[@]}" --show-bin-path)"

# One libFuzzer process uses one core: the targets run side by side, as many at once as there are cores (FUZZ_JOBS
# to choose), each for its full SECONDS. On the 2-core CI machine that halves the step's time and fuzzes as much.
jobs_max="${FUZZ_JOBS:-$(nproc)}"

# Fuzzes one target for SECONDS; prints its summary line, or its failure, when it ends.
fuzz_one() {
    local target="$1" corpus=".build-fuzz/corpus/$1" artifacts=".build-fuzz/artifacts/$1" log=".build-fuzz/fuzz-$1.log"
    if "$bin/fuzz-$target" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1; then
        echo "== fuzz-$target: ${seconds}s: $(grep -E "^stat::number_of_executed_units|^Done" "$log" | tr '\n' ' ')"
    else
        echo "fuzz-$target FAILED:" >&2
        grep -E "ERROR|SUMMARY|panic|Fatal error|Precondition|test unit written" "$log" | head -20 >&2
        return 1
    fi
}

status=0
running=0
for target in "${targets[@]}"; do
    corpus=".build-fuzz/corpus/$target"
    artifacts=".build-fuzz/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    cp -n Fuzz/Corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    if [ -d "Fuzz/Regressions/$target" ] && [ -n "$(ls -A "Fuzz/Regressions/$target")" ]; then
        echo "== fuzz-$target: replaying regressions"
        "$bin/fuzz-$target" -runs=0 Fuzz/Regressions/"$target"/* >/dev/null 2>&1 || {
            echo "fuzz-$target: a regression input fails again" >&2
            status=1
        }
    fi
    if [ "$running" -ge "$jobs_max" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
    fuzz_one "$target" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit $status
