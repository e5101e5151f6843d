#!/usr/bin/env bash
# Regenerates the README gallery: 256x256 PNGs, one per line below, rendered with
# `--backend gpu` (any adapter; lavapipe or llvmpipe on a machine without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/gpu-noise
out=docs/gallery
render() { name=$1; shift; "$bin" render --size 256x256 --backend gpu -o "$out/$name.png" "$@"; }
render perlin-2d           --kind perlin --dims 2
render perlin-fbm          --kind perlin --dims 2 --fractal fbm --octaves 6
render perlin-3d-ridged    --kind perlin --dims 3 --offset 0,0,17.5 --fractal ridged --octaves 6 --frequency 0.0078125
render perlin-turbulence   --kind perlin --dims 2 --fractal turbulence --octaves 6 --seed 3
render perlin-4d-billow    --kind perlin --dims 4 --offset 0,0,3,9 --fractal billow --octaves 5 --seed 8
render gradient-2d         --kind gradient --dims 2 --seed 1
render gradient-3d-fbm     --kind gradient --dims 3 --fractal fbm --octaves 5 --interp quintic --seed 2
render value-quintic       --kind value --dims 2 --frequency 0.0625
render value-nearest       --kind value --dims 2 --interp nearest --frequency 0.0625
render value-catmull-rom   --kind value --dims 2 --interp catmull-rom --fractal fbm --octaves 4
render perlin-tiled        --kind perlin --dims 2 --fractal fbm --octaves 5 --tile --frequency 0.015625
