#!/usr/bin/env bash
# Builds the previewer into web/www/pkg: the library compiled to wasm (web/src) and
# wasm-bindgen's JavaScript glue. Installs the wasm target and a wasm-bindgen CLI of the
# version in Cargo.lock if they are missing (the CLI must match the crate exactly).
set -euo pipefail
cd "$(dirname "$0")/.."

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
