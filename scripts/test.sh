#!/usr/bin/env bash
# Runs the whole test suite, installing what it needs first: formatting and lints, the web
# build (the browser tests load it), then every test of the workspace, browser, NATS and
# Slurm tests included.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-tools.sh --browser --nats --slurm
export PATH="$root/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

echo "==> cargo fmt --check"
cargo fmt --all -- --check
echo "==> building the web app"
bash scripts/build-web.sh
echo "==> cargo doc (rcss-formats, published on its own: no broken or private links)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked -p rcss-formats --no-deps
echo "==> cargo clippy"
cargo clippy --locked --workspace --all-targets -- -D warnings
echo "==> cargo test"
cargo test --locked --workspace
