"""gpu_noise beside the Python noise packages on one thread, interleaved round by round:
2D fBm, 6 octaves, 512^2 samples, Msamples/s (texels x octaves per second). gpu_noise as a user
calls it (no backend, no lattice: the defaults) and on the SIMD backend's hash lattices; each
peer as its documentation uses it; a peer that is not installed is skipped and says so.

    RAYON_NUM_THREADS=1 python python/bench/peers.py [--side 512] [--rounds 5]

pyfastnoisesimd 0.4.2 builds only against numpy < 2 (`pip install "numpy<2"` then
`pip install --no-build-isolation pyfastnoisesimd`); `noise` and `opensimplex` install as they
are.
"""

import argparse
import os
import statistics
import time

import numpy as np

import gpu_noise

OCTAVES = 6
FREQUENCY = 1 / 32


def gpu_noise_default(side):
    """What a user runs: no backend (auto: a hardware GPU, else the SIMD backend) and no
    lattice (the default)."""
    spec = {"kind": "perlin", "fractal": "fbm", "octaves": OCTAVES, "frequency": FREQUENCY}
    return lambda: gpu_noise.render(spec, size=(side, side))


def gpu_noise_lattice(lattice):
    def make(side):
        spec = {"kind": "perlin", "fractal": "fbm", "octaves": OCTAVES, "frequency": FREQUENCY,
                "lattice": lattice}
        return lambda: gpu_noise.render(spec, size=(side, side), backend="simd")

    return make


def pyfastnoisesimd(side):
    import pyfastnoisesimd as fns

    perlin = fns.Noise(seed=42, numWorkers=1)
    perlin.noiseType = fns.NoiseType.PerlinFractal
    perlin.fractal.fractalType = fns.FractalType.FBM
    perlin.fractal.octaves = OCTAVES
    perlin.frequency = FREQUENCY
    return lambda: perlin.genAsGrid(shape=[1, side, side])


def opensimplex(side):
    import opensimplex as osx

    osx.seed(42)
    axis = np.arange(side, dtype=np.float64) * FREQUENCY

    def fbm():
        total = np.zeros((side, side))
        for k in range(OCTAVES):
            total += 0.5**k * osx.noise2array(axis * 2**k, axis * 2**k)
        return total

    return fbm


def noise_package(side):
    import noise

    def fbm():
        return [[noise.pnoise2(x * FREQUENCY, y * FREQUENCY, octaves=OCTAVES)
                 for x in range(side)] for y in range(side)]

    return fbm


OURS = "gpu_noise (defaults)"
PEERS = {OURS: gpu_noise_default, "gpu_noise (SIMD, hash lattice)": gpu_noise_lattice("hash"),
         "gpu_noise (SIMD, prime lattice)": gpu_noise_lattice("prime"),
         "pyfastnoisesimd": pyfastnoisesimd, "opensimplex": opensimplex, "noise": noise_package}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    runs = {}
    for name, make in PEERS.items():
        try:
            runs[name] = make(args.side)
        except ImportError as e:
            print(f"{name}: not installed ({e})")
    times = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    samples = args.side * args.side * OCTAVES / 1e6
    ours = statistics.median(times[OURS])
    print(f"2D fBm {OCTAVES} octaves, {args.side}^2, threads: "
          f"{os.environ.get('RAYON_NUM_THREADS', 'all')} for gpu_noise, 1 for the peers; "
          f"median of {args.rounds} interleaved rounds")
    print(f"| package | Msamples/s | {OURS} / package |")
    print("| --- | ---: | ---: |")
    for name, t in times.items():
        m = statistics.median(t)
        print(f"| {name} | {samples / m:.2f} | {m / ours:.2f} |")


if __name__ == "__main__":
    main()
