#!/usr/bin/env bash
# Builds the web app into dist/ with the pinned tools, never downloading anything.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$root/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
cargo fetch --locked
trunk build --release --offline
