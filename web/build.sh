#!/usr/bin/env bash
# Builds the previewer into web/www/pkg: the library compiled to wasm (web/src) and
# wasm-bindgen's JavaScript glue. Installs the wasm target and a wasm-bindgen CLI of the
# version in Cargo.lock if they are missing (the CLI must match the crate exactly).
#
#   bash web/build.sh                  the page in web/www, served by `node web/serve.mjs`
#   bash web/build.sh --static [DIR]   also a folder (default web/dist) that any static web
#                                      server hosts, with no node at run time: the page, the
#                                      wasm and the few files of three.js and Drawflow it loads
set -euo pipefail
cd "$(dirname "$0")/.."
static=""
case "${1:-}" in
    "") ;;
    --static) static="${2:-web/dist}" ;;
    *) echo "usage: bash web/build.sh [--static [DIR]]" >&2; exit 2 ;;
esac

if ! grep -qx wasm32-unknown-unknown <<<"$(rustup target list --installed)"; then
    rustup target add wasm32-unknown-unknown
fi
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }')" != "$version" ]; then
    echo "== installing wasm-bindgen-cli $version (once; about a minute)"
    # No TLS stack and only the one binary: wasm-bindgen itself downloads nothing. Unoptimized:
    # it installs in about a minute instead of four, and still processes our wasm in a second.
    cargo install wasm-bindgen-cli --version "$version" --no-default-features \
        --bin wasm-bindgen --debug --quiet
fi
echo "== building the library for wasm32 (a few minutes the first time)"
# The SIMD backend's lanes vectorize to wasm's 128-bit SIMD (every browser with WebGPU has it).
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" \
    cargo build --release --quiet --target wasm32-unknown-unknown -p gpu-noise-web
wasm-bindgen --target web --no-typescript --out-dir web/www/pkg \
    target/wasm32-unknown-unknown/release/gpu_noise_web.wasm
echo "built web/www/pkg ($(du -sh web/www/pkg | cut -f1))"

if [ -n "$static" ]; then
    [ -d web/node_modules/three ] && [ -d web/node_modules/drawflow ] \
        || npm ci --prefix web --no-audit --no-fund --loglevel=error
    rm -rf "$static"
    mkdir -p "$static/vendor/three/build" "$static/vendor/three/examples/jsm/controls" \
        "$static/vendor/drawflow/dist"
    cp -r web/www/. "$static/"
    # What the page imports (index.html's import map and script tags), with the licenses.
    cp web/node_modules/three/build/three.module.js web/node_modules/three/build/three.core.js \
        "$static/vendor/three/build/"
    cp web/node_modules/three/examples/jsm/controls/OrbitControls.js \
        web/node_modules/three/examples/jsm/controls/FlyControls.js \
        "$static/vendor/three/examples/jsm/controls/"
    cp web/node_modules/three/LICENSE "$static/vendor/three/"
    cp web/node_modules/drawflow/dist/drawflow.min.js web/node_modules/drawflow/dist/drawflow.min.css \
        "$static/vendor/drawflow/dist/"
    cp web/node_modules/drawflow/LICENSE "$static/vendor/drawflow/"
    echo "static previewer in $static ($(du -sh "$static" | cut -f1)): host the folder with any"
    echo "static web server, e.g. python3 -m http.server -d $static 8080 (WebGPU needs https or localhost)"
fi
