#!/usr/bin/env bash
# Runs every fuzz target (or the TARGETs named) for SECONDS each (default 60) or RUNS
# executions, whichever comes first, one after another, from the corpora (seeded from the
# real fixtures if there are none), and prints a table: executions, executions a second, and
# what went wrong. A crash, a hang (a run over 10 s), more than
# 2 GB resident or a single allocation over 256 MB stops a target and fails the script; the
# input is left in artifacts/TARGET/.
#
# The targets are safe Rust, so by default they run without a sanitizer (5 to 30 times more
# executions a second); the allocation cap is then kept by the targets themselves
# (common/cap.rs). SANITIZER=address runs them under AddressSanitizer instead, where
# libFuzzer's -malloc_limit_mb keeps it too. Each sanitizer builds into target/SANITIZER.
#
#   cargo install cargo-fuzz --version 0.12.0 --locked     # once; needs the nightly toolchain
#   bash fuzz/run-all.sh 300                       # every target, 5 minutes each
#   bash fuzz/run-all.sh 3600 10000000 datagram    # one target, up to 10 million runs
#   RESULTS=slow.md bash fuzz/run-all.sh …          # the table elsewhere (runs side by side)
#   MAX_LEN=4096 bash fuzz/run-all.sh …             # shorter inputs than each target's default
#
# The committed corpora (fuzz/corpora/TARGET, or TARGET.tar.xz for the large ones) are
# minimised with
#   cargo +nightly fuzz cmin -O -s none --target-dir target/none TARGET corpus/TARGET -- -max_len=LEN
# then copied there (or packed: tar -C corpus -cf - TARGET | xz -9 > corpora/TARGET.tar.xz).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
secs="${1:-60}"
runs_cap="${2:--1}"
shift $(( $# > 2 ? 2 : $# ))
cd "$here"
[ -d corpus/control ] || bash seed.sh
targets="${*:-$(cargo +nightly fuzz list)}"
san="${SANITIZER:-none}"
failed=0
results="${RESULTS:-results.md}"
printf '| target | seconds | executions | executions/s | corpus | result |\n|---|---:|---:|---:|---:|---|\n' > "$results"
for t in $targets; do
  mkdir -p "corpus/$t" "artifacts/$t"
  # Inputs past these lengths only repeat what shorter ones reach (a log's records, a
  # datagram, a command), and each byte more slows every run.
  case "$t" in
    control|fragment|team_graphic|envelope) len=4096 ;;
    agent) len=16384 ;;
    *) len=65536 ;;
  esac
  # MAX_LEN=N runs every target on shorter inputs: many more executions a second for the
  # log targets, whose longer inputs mostly repeat records (RELIABILITY.md says when it was used).
  len="${MAX_LEN:-$len}"
  start=$(date +%s)
  log="$(mktemp)"
  # corpus/ grows as the fuzzer learns (not committed); corpora/ holds the minimised corpus
  # committed with the code, read as seeds.
  seeds=()
  [ -d "corpora/$t" ] && seeds=("corpora/$t")
  # Large corpora are committed packed (xz makes 17 MB of wire packets 0.3 MB).
  if [ -f "corpora/$t.tar.xz" ]; then
    mkdir -p "target/seeds"
    [ -d "target/seeds/$t" ] || tar -C target/seeds -xJf "corpora/$t.tar.xz"
    seeds=("target/seeds/$t")
  fi
  if cargo +nightly fuzz run -O -s "$san" --target-dir "target/$san" "$t" "corpus/$t" "${seeds[@]}" -- -max_total_time="$secs" -runs="$runs_cap" -max_len="$len" \
      -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 -print_final_stats=1 >"$log" 2>&1; then
    result="no crash, hang or allocation over the caps (sanitizer: $san)"
  else
    result="FAILED: $(grep -m1 -E 'ERROR|panicked|timeout|out-of-memory|malloc' "$log" | tr '|' ' ' | cut -c1-120)"
    failed=1
  fi
  runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)"
  took=$(( $(date +%s) - start ))
  rate=$(( runs / (took > 0 ? took : 1) ))
  files="$(ls "corpus/$t" | wc -l)"
  printf '| %s | %s | %s | %s | %s | %s |\n' "$t" "$took" "$runs" "$rate" "$files" "$result" | tee -a "$results"
  rm -f "$log"
done
cat "$results"
exit "$failed"
