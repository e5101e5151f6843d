"""The fourth hostile probe, from Python: sizes and windows refused by name, memory checked
in bytes before any allocation, messages escaped and cut short, `auto` probing the adapters
once, and stores that xarray opens as they are."""

import json
import pathlib
import resource
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gpu_noise
from gpu_noise import NoiseError

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC = {"kind": "perlin", "fractal": "fbm", "octaves": 3, "lattice": "hash"}


@pytest.mark.parametrize("size", [(2**32, 2), (-1, 8), 64.7, (64, 8.5), (True, 8), ("64", 8),
                                  (2**200, 1), (0, 4)])
def test_bad_sizes_raise_noise_error_naming_size_and_the_range(size):
    with pytest.raises(NoiseError, match=r"^size: .*1\.\.=16777216, got "):
        gpu_noise.render(SPEC, size=size, backend="cpu")
    with pytest.raises(NoiseError, match=r"^size: "):
        gpu_noise.error_bound(SPEC, size=size)


@pytest.mark.parametrize("window", [(-1, 0, 4, 4), (0, 0, 2**32, 4), (0.5, 0, 4, 4),
                                    (0, 0, 0, 4, 4)])
def test_bad_windows_raise_noise_error_naming_window(window):
    with pytest.raises(NoiseError, match=r"^window: "):
        gpu_noise.render(SPEC, size=(16, 16), window=window, backend="cpu")


def test_numpy_integers_are_sizes():
    a = gpu_noise.render(SPEC, size=(np.int64(8), np.uint16(4)), backend="cpu")
    assert a.shape == (4, 8)


def test_a_gradient_too_large_for_memory_is_refused_in_bytes_naming_window_and_dask():
    # 32768^2 texels of three values: 12 GiB, which aborted the interpreter under a 6 GiB
    # limit. Run in a child under that limit, so a regression kills the child, not the tests.
    code = textwrap.dedent("""
        import resource, gpu_noise
        resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
        try:
            gpu_noise.render({"kind": "perlin"}, size=(32768, 32768), channels="gradient",
                             backend="cpu")
        except gpu_noise.NoiseError as e:
            print(e)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    message = done.stdout
    assert message.startswith("size: 32768x32768x1 texels of 3 float32 values"), message
    assert "12.0 GiB" in message and "window=" in message and "gpu_noise.dask" in message
    assert "Renderer" not in message and "cpu::" not in message


OSC52 = "\x1b]52;c;aGVsbG8=\x07"


@pytest.mark.parametrize("spec", [
    {"kind": "A" * 10_000_000},
    {"kind": "perlin", OSC52: 1},
    {"kind": OSC52},
    {"kind": "perlin", "k" * 900_000: 1},
    {"output": "p", "nodes": {"p": {"type": "perlin", OSC52: 1}}},
    "{" + " " * (2 << 20) + "}",
])
def test_messages_are_escaped_and_short(spec):
    with pytest.raises(NoiseError) as raised:
        gpu_noise.render(spec, size=(8, 8), backend="cpu")
    message = str(raised.value)
    assert len(message) < 2000, f"{len(message)} characters"
    assert "\x1b" not in message and "\x07" not in message, repr(message)


def test_a_flat_spec_larger_than_1_mib_is_refused_before_parsing():
    big = json.dumps({"kind": "perlin", "seed": 1}) + " " * (1 << 20)
    with pytest.raises(NoiseError, match=r"^spec: is \d+ bytes, more than 1024 KiB"):
        gpu_noise.render(big, size=(8, 8), backend="cpu")


def test_auto_probes_the_adapters_once_per_process():
    code = textwrap.dedent("""
        import gpu_noise, gpu_noise._native as native
        for _ in range(3):
            gpu_noise.render({"kind": "perlin"}, size=(8, 8))
        print(native._adapter_probes())
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_the_docs_install_zarr_with_dask_and_to_zarr_names_the_extra(monkeypatch):
    readme = (ROOT / "docs" / "python.md").read_text() + (ROOT / "python" / "README.md").read_text()
    assert '"./python[dask,zarr]"' in readme
    import gpu_noise.dask

    world = gpu_noise.dask.render(SPEC, shape=(8, 8), chunks=4, backend="cpu")
    monkeypatch.setitem(sys.modules, "zarr", None)
    with pytest.raises(ModuleNotFoundError, match=r'gpu-noise\[zarr\]'):
        world.to_zarr("unused.zarr")
