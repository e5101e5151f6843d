"""A Dask LocalCluster of 1 and 2 single-threaded worker processes against one process with as
many threads, on one world (8192^2 by default, blocks of 1024^2), interleaved round by round:
Msamples/s and the ratio to one process thread for thread.

    python python/bench/dask_scaling.py [--side 8192] [--chunk 1024] [--rounds 3]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from dask.distributed import Client, LocalCluster

import gpu_noise
import gpu_noise.dask

SPEC = {"kind": "perlin", "fractal": "fbm", "octaves": 6, "lattice": "hash"}


def timed(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def one_process(threads, side, backend):
    """Seconds of one render in a fresh process whose pool has `threads` threads."""
    code = (
        "import gpu_noise, json, sys, time\n"
        "spec, side, backend = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3]\n"
        "gpu_noise.render(spec, size=(256, 256), backend=backend)\n"
        "start = time.perf_counter()\n"
        "gpu_noise.render(spec, size=(side, side), backend=backend)\n"
        "print(time.perf_counter() - start)\n"
    )
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    done = subprocess.run([sys.executable, "-c", code, json.dumps(SPEC), str(side), backend],
                          env=env, capture_output=True, text=True, check=True)
    return float(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=8192)
    parser.add_argument("--chunk", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backend", default="simd")
    args = parser.parse_args()
    samples = args.side * args.side * 6 / 1e6
    world = gpu_noise.dask.render(SPEC, shape=(args.side, args.side), chunks=args.chunk,
                                  backend=args.backend)
    print(f"perlin fBm 6 octaves, hash lattice, {args.side}^2 in blocks of {args.chunk}^2, "
          f"backend {args.backend}; median of {args.rounds} rounds")
    print("| engine | threads | Msamples/s | ratio to one process |")
    print("| --- | ---: | ---: | ---: |")
    for workers in (1, 2):
        # One thread per worker process (the library's pool follows RAYON_NUM_THREADS).
        env = {"RAYON_NUM_THREADS": "1"}
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0", env=env) as cluster, Client(cluster) as c:
            c.compute(world[: args.chunk, : args.chunk]).result()  # warm the workers
            alone, spread = [], []
            for _ in range(args.rounds):
                alone.append(one_process(workers, args.side, args.backend))
                spread.append(timed(lambda: c.compute(world.sum()).result()))
            a, s = statistics.median(alone), statistics.median(spread)
            print(f"| one process | {workers} | {samples / a:.0f} | 1 |")
            print(f"| LocalCluster, {workers} worker(s) | {workers} | {samples / s:.0f} | "
                  f"{a / s:.2f} |")


if __name__ == "__main__":
    main()
