"""What Python costs over the Rust library: gpu_noise.render (JSON, bands with the GIL released,
Ctrl-C checks, the numpy array) against the same render timed inside the extension through the
Rust API alone, interleaved round by round; Msamples/s and the ratio per size.

    python python/bench/overhead.py [--backend simd] [--rounds 7]
"""

import argparse
import statistics
import time

import gpu_noise
from gpu_noise import _native

SPEC = {"kind": "perlin", "fractal": "fbm", "octaves": 6, "lattice": "hash"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="simd")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sizes", default="512,4096")
    args = parser.parse_args()
    text = gpu_noise.spec_text(SPEC)
    print(f"perlin fBm 6 octaves, hash lattice, backend {args.backend}; median of "
          f"{args.rounds} interleaved rounds")
    print("| size | Rust API Msamples/s | Python render Msamples/s | Python / Rust time |")
    print("| ---: | ---: | ---: | ---: |")
    for side in (int(s) for s in args.sizes.split(",")):
        samples = side * side * 6 / 1e6
        gpu_noise.render(text, size=(side, side), backend=args.backend)  # warm up
        rust, python = [], []
        for _ in range(args.rounds):
            rust.append(_native._time_rust_render(text, [side, side], args.backend, 1))
            start = time.perf_counter()
            image = gpu_noise.render(text, size=(side, side), backend=args.backend)
            python.append(time.perf_counter() - start)
            # Freed after the clock stops, as the Rust side frees its buffer.
            del image
        r, p = statistics.median(rust), statistics.median(python)
        print(f"| {side}^2 | {samples / r:.0f} | {samples / p:.0f} | {p / r:.3f} |")


if __name__ == "__main__":
    main()
