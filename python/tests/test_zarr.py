"""`gpu-noise render -o world.zarr`: a Zarr v3 store that xarray, zarr-python and Dask read as
it is, filled by independent processes, resumed after a kill."""

import os
import pathlib
import signal
import subprocess
import time

import dask.array as da
import numpy as np
import zarr

import gpu_noise

WORLD = ["--kind", "perlin", "--fractal", "fbm", "--octaves", "5", "--lattice", "hash",
         "--offset", "1e9,-2e9", "--backend", "cpu"]


def open_noise(store):
    """The store's array, as zarr-python reads it: the group's `noise`."""
    return zarr.open_group(str(store), mode="r")["noise"]


def files(store):
    """Every file of a store but temporaries, with its bytes."""
    root = pathlib.Path(store)
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.name.startswith(".")}


def test_the_store_reads_as_the_f32_export(cli, tmp_path):
    store, raw = tmp_path / "world.zarr", tmp_path / "world.f32"
    cli("render", "-q", *WORLD, "--size", "300x200", "--tiles", "128", "-o", str(store))
    cli("render", "-q", *WORLD, "--size", "300x200", "-o", str(raw))
    array = open_noise(store)
    assert array.shape == (200, 300) and array.chunks == (128, 128)
    assert array.dtype == np.float32 and array.metadata.zarr_format == 3
    expected = np.fromfile(raw, dtype="<f4").reshape(200, 300)
    assert np.array_equal(array[:], expected)
    assert np.array_equal(da.from_zarr(str(store), component="noise").compute(), expected)
    # The spec that renders it again, in the attributes; Python renders the same texels.
    spec = array.attrs["gpu_noise"]["spec"]
    assert spec["kind"] == "perlin" and spec["lattice"] == "hash"
    assert np.array_equal(gpu_noise.render(spec, backend="cpu"), expected)


def test_a_volume_is_stored_in_cubes_equal_to_the_npy_export(cli, tmp_path):
    volume = ["--kind", "simplex", "--dims", "3", "--frequency", "0.07", "--size", "40x30x20",
              "--offset", "-1e9,5,3", "--backend", "cpu"]
    store, npy = tmp_path / "volume.zarr", tmp_path / "volume.npy"
    cli("render", "-q", *volume, "--tiles", "16", "-o", str(store))
    cli("render", "-q", *volume, "-o", str(npy))
    array = open_noise(store)
    assert array.shape == (20, 30, 40) and array.chunks == (16, 16, 16)
    assert array.metadata.dimension_names == ("z", "y", "x")
    assert np.array_equal(array[:], np.load(npy))
    # Columns and rows picked by --tile-range take every layer.
    part = tmp_path / "part.zarr"
    cli("render", "-q", *volume, "--tiles", "16", "--tile-range", "1..2,0..1", "-o", str(part))
    got = open_noise(part)[:]
    assert np.array_equal(got[:, :16, 16:32], np.load(npy)[:, :16, 16:32])
    assert np.isnan(got[:, 16:, :]).all() and np.isnan(got[:, :, :16]).all()


def test_two_processes_on_disjoint_halves_make_the_same_store_as_one(cli, binary, tmp_path):
    size = ["--size", "512x512", "--tiles", "128"]
    one = tmp_path / "one.zarr"
    cli("render", "-q", *WORLD, *size, "-o", str(one))
    shared = tmp_path / "shared.zarr"
    halves = [subprocess.Popen([binary, "render", "-q", *WORLD, *size, "--tile-range", rows,
                                "-o", str(shared)]) for rows in ["0..4,0..2", "0..4,2..4"]]
    assert [p.wait(timeout=120) for p in halves] == [0, 0]
    assert files(shared) == files(one) and len(files(one)) == 2 + 16


def test_a_killed_run_resumes_with_the_missing_chunks(binary, tmp_path):
    store = tmp_path / "world.zarr"
    args = ["render", "-q", "--kind", "gabor", "--frequency", "0.05", "--backend", "cpu",
            "--size", "1024x1024", "--tiles", "128", "-o", str(store)]
    run = subprocess.Popen([binary, *args])

    def chunks():
        return [p for p in store.rglob("noise/c/*/*") if not p.name.startswith(".")]

    deadline = time.monotonic() + 60
    while len(chunks()) < 4 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.wait()
    done = len(chunks())
    assert 4 <= done < 64, f"{done} chunks when killed: make the render longer"
    # Every chunk there is whole: it decodes (zarr-python would raise on half a compressed chunk).
    array = open_noise(store)
    for path in chunks():
        y, x = int(path.parent.name), int(path.name)
        assert not np.isnan(array[y * 128:(y + 1) * 128, x * 128:(x + 1) * 128]).any()
    # A temporary of a dead writer goes; one of a live process (this one) stays.
    row = store / "noise" / "c" / "0"
    dead, alive = row / ".0.partial-4194303-0", row / f".1.partial-{os.getpid()}-0"
    dead.write_bytes(b"half a chunk")
    alive.write_bytes(b"being written")
    report = subprocess.run([binary, *[a for a in args if a != "-q"]], capture_output=True,
                            text=True)
    assert not dead.exists() and alive.exists()
    alive.unlink()
    assert report.returncode == 0, report.stderr
    assert f"kept {done} already complete" in report.stderr, report.stderr
    expected = gpu_noise.render({"kind": "gabor", "frequency": 0.05}, size=(1024, 1024),
                                backend="cpu")
    assert np.array_equal(array[:], expected)


def test_a_store_of_another_world_is_refused(cli, binary, tmp_path):
    store = tmp_path / "world.zarr"
    cli("render", "-q", "--kind", "value", "--size", "64", "--tiles", "32", "-o", str(store))
    for other in [["--kind", "perlin", "--size", "64", "--tiles", "32"],
                  ["--kind", "value", "--size", "64", "--tiles", "16"]]:
        done = subprocess.run([binary, "render", *other, "-o", str(store)],
                              capture_output=True, text=True)
        assert done.returncode == 2 and "-o" in done.stderr and "another" in done.stderr
    done = subprocess.run([binary, "render", "--kind", "value", "--size", "64",
                           "--tile-format", "png", "-o", str(store)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "--tile-format" in done.stderr, done.stderr


def test_xarray_opens_the_store_as_a_dataset(cli, tmp_path):
    import xarray as xr

    store, raw = tmp_path / "world.zarr", tmp_path / "world.f32"
    cli("render", "-q", *WORLD, "--size", "300x200", "--tiles", "128", "-o", str(store))
    cli("render", "-q", *WORLD, "--size", "300x200", "-o", str(raw))
    dataset = xr.open_zarr(str(store), consolidated=False)
    noise = dataset["noise"]
    assert noise.dims == ("y", "x") and noise.shape == (200, 300)
    expected = np.fromfile(raw, dtype="<f4").reshape(200, 300)
    assert np.array_equal(noise.values, expected)
    assert dataset.attrs["gpu_noise"]["spec"]["kind"] == "perlin"
    assert noise.attrs["gpu_noise"]["spec"]["lattice"] == "hash"
