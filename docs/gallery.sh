#!/usr/bin/env bash
# Regenerates the README gallery: 256x256 PNGs rendered with `--backend gpu` (any adapter;
# lavapipe or llvmpipe on a machine without a GPU), a 1D profile plot, the real-time example's
# GIF and the terrain example's preview.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --examples
bin=target/release/gpu-noise
out=docs/gallery
mkdir -p "$out"
render() { name=$1; shift; "$bin" render --quiet --size 256x256 --backend gpu -o "$out/$name.png" "$@"; }
render perlin-2d           --kind perlin --dims 2
render perlin-fbm          --kind perlin --dims 2 --fractal fbm --octaves 6
render perlin-3d-ridged    --kind perlin --dims 3 --offset 0,0,17.5 --fractal ridged --octaves 6 --frequency 0.0078125
render perlin-turbulence   --kind perlin --dims 2 --fractal turbulence --octaves 6 --seed 3
render perlin-4d-billow    --kind perlin --dims 4 --offset 0,0,3,9 --fractal billow --octaves 5 --seed 8
render perlin-tiled        --kind perlin --dims 2 --fractal fbm --octaves 5 --tile --frequency 0.015625
render gradient-2d         --kind gradient --dims 2 --seed 1
render gradient-3d-fbm     --kind gradient --dims 3 --fractal fbm --octaves 5 --interp quintic --seed 2
render value-quintic       --kind value --dims 2 --frequency 0.0625
render value-nearest       --kind value --dims 2 --interp nearest --frequency 0.0625
render value-catmull-rom   --kind value --dims 2 --interp catmull-rom --fractal fbm --octaves 4
render simplex-2d          --kind simplex --dims 2
render simplex-3d-fbm      --kind simplex --dims 3 --fractal fbm --octaves 6 --offset 0,0,5 --seed 4
render cellular-f1         --kind cellular --dims 2
render cellular-f2-f1      --kind cellular --dims 2 --return f2-f1
render cellular-manhattan  --kind cellular --dims 2 --distance manhattan --return cell-value --seed 5
render cellular-3d-fbm     --kind cellular --dims 3 --distance chebyshev --fractal fbm --octaves 4 --jitter 0.8
render sparse-convolution  --kind sparse-convolution --dims 2 --frequency 0.0625
render sparse-fbm          --kind sparse-convolution --dims 2 --fractal fbm --octaves 5 --density 4
render gabor-anisotropic   --kind gabor --frequency 0.0625 --gabor-orientation 30 --gabor-frequency 2
render gabor-isotropic     --kind gabor --frequency 0.0625 --gabor-orientation isotropic
render terrain-colormap    --kind perlin --fractal ridged --octaves 7 --colormap terrain --seed 7 --frequency 0.01171875
render magma-cellular      --kind cellular --fractal fbm --octaves 3 --return f1*f2 --colormap magma
render normal-perlin-fbm   --kind perlin --fractal fbm --octaves 5 --channels normal --normal-strength 6
render normal-ridged       --kind perlin --fractal ridged --octaves 6 --channels normal --normal-strength 4 --seed 7 --frequency 0.01171875
render normal-simplex      --kind simplex --fractal billow --octaves 4 --channels normal --normal-strength 6 --lattice hash
render hash-perlin-fbm     --kind perlin --fractal fbm --octaves 6 --lattice hash
render table-perlin-fbm    --kind perlin --fractal fbm --octaves 6 --lattice table
"$bin" render --quiet --size 256x256 --backend gpu --graph examples/graphs/terrain.json --colormap terrain -o "$out/graph-terrain.png"
"$bin" render --quiet --size 256x256 --backend gpu --graph examples/graphs/marble.json -o "$out/graph-marble.png"
"$bin" render --quiet --size 256x256 --backend gpu --graph examples/graphs/caves.json --range 0,1 -o "$out/graph-caves.png"
"$bin" render --quiet --backend gpu --kind perlin --dims 1 --size 1024 --fractal fbm --octaves 5 -o "$out/profile-1d.png"
target/release/examples/realtime --size 256 --frames 8 --gif docs/realtime.gif --gif-size 192 --gif-frames 36
target/release/examples/terrain --size 384 --ply /tmp/gpu-noise-terrain.ply --png docs/terrain.png
target/release/examples/chunks --frames 60 --size 64 --png docs/chunks.png
