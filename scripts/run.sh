#!/usr/bin/env bash
# Builds the web app and starts the relay: open http://127.0.0.1:8080.
# Extra arguments go to the relay, e.g. `scripts/run.sh --server 127.0.0.1:6000`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-tools.sh
bash scripts/build-web.sh
cargo build --release --locked -p pitchside-relay
exec target/release/pitchside-relay --dist dist "$@"
