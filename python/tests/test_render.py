"""gpu_noise.render and sample against the tool (the Rust library's own output), errors, the
GIL and Ctrl-C."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import gpu_noise
from conftest import ROOT

TERRAIN = (ROOT / "examples" / "graphs" / "terrain.json").read_text()


@pytest.mark.parametrize("kind, low, high", gpu_noise.kinds())
def test_every_kind_equals_the_tools_twin_bit_for_bit(npy, kind, low, high):
    for dims in sorted({low, min(max(low, 2), high), high}):
        size = {1: [40], 2: [24, 16], 3: [12, 8, 3], 4: [12, 8]}[dims]
        spec = {"kind": kind, "dims": dims, "fractal": "fbm", "octaves": 2, "seed": 7}
        ours = gpu_noise.render(spec, size=size, offset=[1e9, -3.5, 2.0, 1.0][:dims],
                                backend="cpu")
        flags = ["--kind", kind, "--dims", str(dims), "--fractal", "fbm", "--octaves", "2",
                 "--seed", "7", "--backend", "cpu", "--size", "x".join(map(str, size)),
                 "--offset", ",".join(map(str, [1e9, -3.5, 2.0, 1.0][:dims]))]
        theirs = npy(*flags)
        assert ours.dtype == np.float32 and ours.shape == theirs.shape, (kind, dims)
        assert np.array_equal(ours, theirs), (kind, dims)


def test_graphs_gradients_and_windows_equal_the_tools(npy):
    ours = gpu_noise.render(TERRAIN, size=(48, 32), offset=(1e6, 2e6), backend="cpu")
    graph = str(ROOT / "examples" / "graphs" / "terrain.json")
    theirs = npy("--graph", graph, "--size", "48x32", "--offset", "1e6,2e6", "--backend", "cpu")
    assert np.array_equal(ours, theirs)
    spec = {"kind": "simplex", "fractal": "fbm", "octaves": 3}
    gradient = gpu_noise.render(spec, size=(20, 10), channels="gradient", backend="cpu")
    theirs = npy("--kind", "simplex", "--fractal", "fbm", "--octaves", "3", "--size", "20x10",
                 "--channels", "gradient", "--backend", "cpu")
    assert gradient.shape == (10, 20, 3) and np.array_equal(gradient, theirs)
    # The SIMD lanes compute gradients too (the GPU's f32), the tool's SIMD output bit for bit.
    lanes = gpu_noise.render(TERRAIN, size=(48, 32), channels="gradient", backend="simd")
    theirs = npy("--graph", graph, "--size", "48x32", "--channels", "gradient",
                 "--backend", "simd")
    assert lanes.shape == (32, 48, 3) and np.array_equal(lanes, theirs)
    twin = gpu_noise.render(TERRAIN, size=(48, 32), channels="gradient", backend="cpu")
    assert np.abs(lanes - twin).max() < 1e-4
    # A window is the same texels as the whole image's; so is an image at the window's offset.
    whole = gpu_noise.render(spec, size=(64, 48), offset=(-1e12, 5.0), backend="cpu")
    part = gpu_noise.render(spec, size=(64, 48), offset=(-1e12, 5.0), backend="cpu",
                            window=(10, 20, 30, 17))
    assert np.array_equal(part, whole[20:37, 10:40])
    moved = gpu_noise.render(spec, size=(30, 17), offset=(-1e12 + 10, 25.0), backend="cpu")
    assert np.array_equal(moved, part)


def test_the_f32_backends_stay_within_the_stated_bound():
    spec = {"kind": "perlin", "fractal": "fbm", "octaves": 4, "lattice": "hash"}
    twin = gpu_noise.render(spec, size=(64, 64), offset=(3e11, 0), backend="cpu")
    bound, reason = gpu_noise.error_bound(spec, size=(64, 64), offset=(3e11, 0))
    assert "CONVENTIONS" in reason
    for backend in ["simd", "gpu"]:
        image = gpu_noise.render(spec, size=(64, 64), offset=(3e11, 0), backend=backend)
        error = np.abs(image.astype(np.float64) - twin).max()
        assert 0 < error <= bound, (backend, error, bound)


def test_sample_equals_the_tools_sample(cli):
    rng = np.random.default_rng(5)
    points = rng.uniform(-1e6, 1e6, size=(200, 3))
    spec = {"kind": "gradient", "dims": 3, "seed": 11, "fractal": "ridged", "octaves": 3}
    ours = gpu_noise.sample(spec, points)
    text = "\n".join(" ".join(repr(float(c)) for c in p) for p in points) + "\n"
    out = cli("sample", "--kind", "gradient", "--dims", "3", "--seed", "11", "--fractal",
              "ridged", "--octaves", "3", stdin=text)
    theirs = np.array([float(v) for v in out.split()])
    assert ours.dtype == np.float64 and np.array_equal(ours, theirs)
    graph_points = rng.uniform(-1e3, 1e3, size=(50, 2))
    ours = gpu_noise.sample(TERRAIN, graph_points)
    text = "\n".join(" ".join(repr(float(c)) for c in p) for p in graph_points) + "\n"
    graph = str(ROOT / "examples" / "graphs" / "terrain.json")
    theirs = np.array([float(v) for v in cli("sample", "--graph", graph, stdin=text).split()])
    assert np.array_equal(ours, theirs)


def test_bad_input_raises_naming_the_field_or_node():
    with pytest.raises(gpu_noise.NoiseError, match=r"octaves.*1\.\.=16.*40"):
        gpu_noise.render({"kind": "perlin", "octaves": 40})
    with pytest.raises(ValueError, match="frequency"):
        gpu_noise.render({"kind": "perlin", "frequency": -1})
    with pytest.raises(gpu_noise.NoiseError, match="backend"):
        gpu_noise.render({"kind": "perlin"}, size=8, backend="tpu")
    with pytest.raises(gpu_noise.NoiseError, match="channels"):
        gpu_noise.render({"kind": "perlin"}, size=8, channels="normal")
    with pytest.raises(gpu_noise.NoiseError, match="window"):
        gpu_noise.render({"kind": "perlin"}, size=(8, 8), window=(4, 4, 8, 8))
    graph = json.loads(TERRAIN)
    name = next(n for n, node in graph["nodes"].items() if "octaves" in node)
    graph["nodes"][name]["octaves"] = 99
    with pytest.raises(gpu_noise.NoiseError, match=name):
        gpu_noise.render(graph, size=8)
    with pytest.raises(gpu_noise.NoiseError, match="points"):
        gpu_noise.sample({"kind": "perlin", "dims": 3}, np.zeros((4, 2)))
    with pytest.raises(TypeError):
        gpu_noise.render(42)


def test_the_gil_is_released_while_rendering():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    start = time.perf_counter()
    gpu_noise.render({"kind": "gabor"}, size=(512, 512), backend="cpu")
    elapsed = time.perf_counter() - start
    done.set()
    counter.join()
    # A held GIL would leave the counter one or two ticks for the whole render.
    assert elapsed > 0.1 and len(ticks) > elapsed * 100, (elapsed, len(ticks))


def test_ctrl_c_interrupts_a_long_render():
    script = (
        "import gpu_noise, sys\n"
        "print('started', flush=True)\n"
        "gpu_noise.render({'kind': 'gabor', 'fractal': 'fbm', 'octaves': 4},\n"
        "                 size=(4096, 4096), backend='cpu')\n"
        "print('finished', flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "started"
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    start = time.perf_counter()
    out, err = child.communicate(timeout=60)
    waited = time.perf_counter() - start
    assert "KeyboardInterrupt" in err and "finished" not in out, (out, err)
    # The render alone takes well over 10 s here; a band takes a fraction of one.
    assert waited < 5.0, waited
    assert child.returncode != 0 and os.name == "posix"
