#!/usr/bin/env bash
# Builds the web app into dist/ and the book into dist/docs/ with the pinned tools, never
# downloading anything.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$root/.tools/bin:$root/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
cargo fetch --locked
trunk build --release --offline
# After trunk, which empties dist/ first. A chapter missing from SUMMARY.md or an include
# that is not there fails the build; tests/tests/book.rs checks the links.
mdbook build docs --dest-dir "$root/dist/docs"
