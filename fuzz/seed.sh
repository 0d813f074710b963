#!/usr/bin/env bash
# Seeds the fuzz corpora from the real fixtures: the head of every log (whole records of each
# kind) and single datagrams of the captures.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fx="$here/../tests/fixtures"
mkdir -p "$here/corpus/log_decoder" "$here/corpus/datagram" "$here/corpus/analysis"
for f in "$fx"/logs/*/*.gz; do
  name=$(basename "$(dirname "$f")")
  # A step byte, then the first 24 KB of the decompressed log; and the compressed head.
  { printf '\x07'; zcat "$f" | head -c 24000; } > "$here/corpus/log_decoder/$name-head" || true
  { printf '\x20'; head -c 16000 "$f"; } > "$here/corpus/log_decoder/$name-gz-head" || true
done
# The analysis target reads the same log heads, without the step byte.
for f in "$fx"/logs/*/*.gz; do
  name=$(basename "$(dirname "$f")")
  zcat "$f" | head -c 60000 > "$here/corpus/analysis/$name-head" || true
done
python3 - "$fx" "$here/corpus/datagram" <<'PY'
import gzip, struct, sys, pathlib
fx, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for f in sorted(fx.glob("captures/*/*.dgrams.gz")):
    data = gzip.decompress(f.read_bytes())
    pos, i = 0, 0
    while pos + 4 <= len(data):
        n = struct.unpack(">I", data[pos:pos+4])[0]
        d = data[pos+4:pos+4+n]
        pos += 4 + n
        if i < 25 or i % 50 == 0:
            (out / f"{f.name}-{i}").write_bytes(d)
        i += 1
PY
# Wire packets of real logs, written by the wire tests in the fuzz target's framing.
mkdir -p "$here/corpus/wire"
(cd "$here/.." && PITCHSIDE_WIRE_SEEDS="$here/corpus/wire" cargo test -q -p pitchside-shared --test wire write_fuzz_seeds >/dev/null)
echo "corpus: $(ls "$here/corpus/log_decoder" | wc -l) logs, $(ls "$here/corpus/datagram" | wc -l) datagrams, $(ls "$here/corpus/wire" | wc -l) wire streams, $(ls "$here/corpus/analysis" | wc -l) analysis"
