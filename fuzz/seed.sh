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
# The agents' files: a kind byte (0 debug log, 1 world models, 2 message log), a slicing
# byte, then the head of a real file; and single live datagrams.
mkdir -p "$here/corpus/agent"
for f in "$fx"/agents/*/agent-logs/*-7.*.gz "$fx"/agents/*/*.rcl.gz; do
  case "$f" in *.log.gz) k='\000' ;; *.dcl.gz) k='\001' ;; *) k='\002' ;; esac
  { printf "$k\\007"; zcat "$f" | head -c 12000; } > "$here/corpus/agent/$(basename "$f")-head" || true
done
# Wire packets of real logs, written by the wire tests in the fuzz target's framing.
mkdir -p "$here/corpus/wire"
(cd "$here/.." && PITCHSIDE_WIRE_SEEDS="$here/corpus/wire" cargo test -q -p pitchside-wire --test wire write_fuzz_seeds >/dev/null)
# The operator's commands as the README lists them, the README's config file, real team
# graphics from the fixtures (one message text per line) and the links the README shows.
mkdir -p "$here/corpus/control" "$here/corpus/config" "$here/corpus/team_graphic" "$here/corpus/fragment" "$here/corpus/envelope"
grep -o '`{"cmd"[^`]*}`' "$here/../README.md" | tr -d '`' | split -l 1 - "$here/corpus/control/readme-"
sed -n '/^```toml/,/^```/p' "$here/../README.md" | sed '1d;$d' > "$here/corpus/config/readme.toml"
for f in "$fx"/logs/*/*.gz; do
  name=$(basename "$(dirname "$f")")
  zcat "$f" | grep -a -o '(team_graphic_[lr] ([^"]*\("[^"]*" *\)*)' | head -40 > "$here/corpus/team_graphic/$name" || true
done
find "$here/corpus/team_graphic" -empty -delete
printf '#t=1234&view=top\001https://example.org/logs/a b&c.rcg.gz' > "$here/corpus/fragment/log-and-cycle"
printf '#control=0123456789abcdef&t=5\001?log=x' > "$here/corpus/fragment/control"
echo "corpus: $(ls "$here/corpus/agent" | wc -l) agent files, $(ls "$here/corpus/log_decoder" | wc -l) logs, $(ls "$here/corpus/datagram" | wc -l) datagrams, $(ls "$here/corpus/wire" | wc -l) wire streams, $(ls "$here/corpus/analysis" | wc -l) analysis, $(ls "$here/corpus/team_graphic" | wc -l) team graphics"
