#!/usr/bin/env bash
# The GPU figures on a hardware GPU (README "On a hardware GPU"), in one run that fits a short
# lease: the adapter, correctness on it (verify against the f64 twin, near the origin and far
# out), then the speed issue's figures: Perlin 3D one octave and 2D fBm of 8 octaves at 8192^2
# (kernel time from timestamp queries, and rendered to the host), on the three lattices; the
# webgl-noise functions on the same adapter; a graph's fused kernel; the CLI's wall time.
#
#   bash bench/hardware-gpu.sh [BIN] [OUT]
#
# BIN is a built gpu-noise (default target/release/gpu-noise); OUT a folder for the log and the
# bench's JSON (default gpu-figures). The webgl-noise rows need `npm ci --prefix bench/peers`.
set -uo pipefail
bin=${1:-target/release/gpu-noise}
out=${2:-gpu-figures}
repeat=${REPEAT:-5}
mkdir -p "$out"
log="$out/log"
: >"$log"
failed=0

step() {
    echo "== $*" | tee -a "$log"
    local start
    start=$(date +%s%N)
    "$@" 2>&1 | tee -a "$log"
    local rc=${PIPESTATUS[0]}
    echo "   (exit $rc, $((($(date +%s%N) - start) / 1000000)) ms)" | tee -a "$log"
    [ "$rc" -eq 0 ] || failed=1
}

if command -v nvidia-smi >/dev/null; then
    step nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm \
        --format=csv
fi
step "$bin" info

# Correctness first: every texel within its bound of the twin, on this adapter.
step "$bin" verify --kind perlin --dims 3 --size 1024x1024
step "$bin" verify --kind perlin --fractal fbm --octaves 8 --size 1024x1024 --offset 1e12,-3e11
step "$bin" verify --kind simplex --dims 3 --fractal fbm --octaves 4 --lattice prime --size 512x512
step "$bin" verify --kind cellular --size 512x512 --lattice hash --offset -7e11,2e9
step "$bin" verify --kind gabor --size 256x256
step "$bin" verify --graph examples/graphs/terrain.json --size 1024x1024
step "$bin" verify --graph examples/graphs/marble.json --offset 1e12,-5e9 --size 512x512

# Speed: the GPU engines alone (the host CPU is not the machine the CPU figures are about).
peers=()
[ -d bench/peers/node_modules/glsl-noise ] || peers=(--no-webgl-noise)
step "$bin" bench --gpu-only --grid 8192 --workload perlin-3d,perlin-2d-fbm8 \
    --lattice table,hash,prime --side 8192 --repeat "$repeat" "${peers[@]}" \
    --json "$out/bench.json"
step "$bin" bench --gpu-only --graph examples/graphs/terrain.json --side 8192 --repeat "$repeat"
# Small enough for the node-by-node registers to fit one binding.
step "$bin" bench --gpu-only --graph examples/graphs/terrain.json --side 2048 --repeat "$repeat"
step "$bin" bench --gpu-only --graph examples/graphs/highlands.json --side 4096 --repeat "$repeat"

# The whole CLI, 8192^2 to a file in memory: device start, shader build, kernel, readback, write.
tmp=$(mktemp -d /dev/shm/gpu-noise.XXXXXX)
for lattice in table prime; do
    step "$bin" render --quiet --backend gpu --kind perlin --dims 3 --size 8192x8192 \
        --lattice "$lattice" -o "$tmp/perlin3d.f32"
    step "$bin" render --quiet --backend gpu --fractal fbm --octaves 8 --size 8192x8192 \
        --lattice "$lattice" -o "$tmp/fbm8.f32"
done
rm -rf "$tmp"
exit "$failed"
