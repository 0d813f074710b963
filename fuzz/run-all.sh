#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after another, from the corpora
# (seeded from the real fixtures if there are none), and prints a table: executions,
# executions a second, and what went wrong. A crash, a hang (a run over 10 s), more than
# 2 GB resident or a single allocation over 256 MB stops a target and fails the script; the
# input is left in artifacts/TARGET/.
#
#   cargo install cargo-fuzz --version 0.12.0 --locked     # once; needs the nightly toolchain
#   bash fuzz/run-all.sh 300
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
secs="${1:-60}"
cd "$here"
[ -d corpus/log_decoder ] || bash seed.sh
failed=0
printf '| target | seconds | executions | executions/s | corpus | result |\n|---|---:|---:|---:|---:|---|\n' > results.md
for t in $(cargo +nightly fuzz list); do
  mkdir -p "corpus/$t" "artifacts/$t"
  case "$t" in
    datagram) len=65536 ;;
    *) len=200000 ;;
  esac
  log="$(mktemp)"
  if cargo +nightly fuzz run -O "$t" "corpus/$t" -- -max_total_time="$secs" -max_len="$len" \
      -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 -print_final_stats=1 >"$log" 2>&1; then
    result="no crash, hang or allocation over the caps"
  else
    result="FAILED: $(grep -m1 -E 'ERROR|panicked|timeout|out-of-memory|malloc' "$log" | tr '|' ' ' | cut -c1-120)"
    failed=1
  fi
  runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)"
  rate=$(( runs / secs ))
  files="$(ls "corpus/$t" | wc -l)"
  printf '| %s | %s | %s | %s | %s | %s |\n' "$t" "$secs" "$runs" "$rate" "$files" "$result" | tee -a results.md
  rm -f "$log"
done
cat results.md
exit "$failed"
