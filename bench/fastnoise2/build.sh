#!/usr/bin/env bash
# Builds FastNoise2 (Auburn, v1.x) as the shared library that `gpu-noise bench --fastnoise2 LIB`
# loads (README "Beside FastNoise2"), from two source folders you provide: FastNoise2 (tag
# v1.1.1) and FastSIMD (the commit FastNoise2's CPM file pins, 16450dae). CPM would download
# FastSIMD itself; -DCPM_FastSIMD_SOURCE points it at yours instead, so nothing is fetched.
# None of their code is part of gpu-noise, and CI does not build this peer.
#
#   bash bench/fastnoise2/build.sh FASTNOISE2_DIR FASTSIMD_DIR [BUILD_DIR]
#
# Needs cmake and a C++17 compiler; prints the library's path last.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,10p' "$0" >&2
    exit 2
fi
fastnoise2=$(realpath "$1")
fastsimd=$(realpath "$2")
build=${3:-target/fastnoise2}
for dir in "$fastnoise2/include/FastNoise" "$fastsimd/include/FastSIMD"; do
    [ -d "$dir" ] || { echo "not a source folder: $dir is missing" >&2; exit 2; }
done
command -v cmake >/dev/null || { echo "cmake is missing (apt-get install cmake)" >&2; exit 2; }
cmake -S "$fastnoise2" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DFASTNOISE2_TOOLS=OFF -DFASTNOISE2_TESTS=OFF -DCPM_FastSIMD_SOURCE="$fastsimd" >/dev/null
cmake --build "$build" --parallel "$(nproc)" >/dev/null
lib=$(find "$build" -name 'libFastNoise*.so' | head -n 1)
[ -n "$lib" ] || { echo "the build made no libFastNoise*.so" >&2; exit 1; }
realpath "$lib"
