"""gpu_noise.dask on a dask.distributed LocalCluster of worker processes: blocks equal one
render, to_zarr round trips, and a worker killed mid-computation changes nothing."""

import json
import os
import signal
import time

import dask.array as da
import numpy as np
import pytest
from dask.distributed import Client, LocalCluster

import gpu_noise
import gpu_noise.dask
from conftest import ROOT

SPEC = {"kind": "perlin", "fractal": "fbm", "octaves": 3, "lattice": "hash", "seed": 3}


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        yield client


def test_sixteen_blocks_on_two_workers_equal_one_render(client):
    world = gpu_noise.dask.render(SPEC, shape=(4096, 4096), chunks=1024,
                                  offset=(1e12, -7.0), backend="cpu")
    assert world.numblocks == (4, 4) and world.dtype == np.float32
    one = gpu_noise.render(SPEC, size=(4096, 4096), offset=(1e12, -7.0), backend="cpu")
    assert np.array_equal(client.compute(world).result(), one)
    # Both workers took blocks.
    assert len(client.has_what()) == 2


def test_graphs_volumes_and_gradients_in_blocks(client):
    terrain = (ROOT / "examples" / "graphs" / "terrain.json").read_text()
    world = gpu_noise.dask.render(terrain, shape=(200, 300), chunks=(64, 100), backend="cpu")
    one = gpu_noise.render(terrain, size=(300, 200), backend="cpu")
    assert np.array_equal(client.compute(world).result(), one)
    volume = {"kind": "simplex", "dims": 3, "frequency": 0.05}
    world = gpu_noise.dask.render(volume, shape=(8, 40, 30), chunks=(3, 16, 16), backend="cpu")
    assert np.array_equal(world.compute(), gpu_noise.render(volume, size=(30, 40, 8),
                                                            backend="cpu"))
    world = gpu_noise.dask.render(SPEC, shape=(50, 70), chunks=32, channels="gradient",
                                  backend="cpu")
    gradient = gpu_noise.render(SPEC, size=(70, 50), channels="gradient", backend="cpu")
    assert world.shape == gradient.shape == (50, 70, 3)
    assert np.array_equal(world.compute(), gradient)


def codecs_of(store):
    """The array's codecs as its metadata document states them."""
    with open(os.path.join(store, "noise", "zarr.json")) as f:
        return json.load(f)["codecs"]


def test_to_zarr_round_trips(client, tmp_path, cli):
    world = gpu_noise.dask.render(SPEC, shape=(512, 768), chunks=256, backend="simd")
    store = str(tmp_path / "world.zarr")
    world.to_zarr(store)
    # Encoded as the tool encodes its stores.
    tools = str(tmp_path / "tool.zarr")
    cli("render", "-q", "--size", "64", "-o", tools)
    assert codecs_of(store) == codecs_of(tools)
    back = da.from_zarr(store, component="noise")
    assert back.chunksize == (256, 256)
    expected = gpu_noise.render(SPEC, size=(768, 512), backend="simd")
    assert np.array_equal(back.compute(), expected)
    # As the tool's stores: xarray opens it, with dimension names and the spec recorded.
    import xarray as xr

    dataset = xr.open_zarr(store, consolidated=False)
    assert dataset["noise"].dims == ("y", "x")
    assert np.array_equal(dataset["noise"].values, expected)
    assert dataset.attrs["gpu_noise"]["spec"] == SPEC
    # Still a dask array for every other use.
    assert np.array_equal((world + 1).compute(), expected + 1)


def blocks_in_memory(dask_scheduler=None):
    """How many of the scheduler's tasks hold results (runs on the scheduler)."""
    return sum(ts.state == "memory" for ts in dask_scheduler.tasks.values())


def test_a_worker_killed_mid_computation_changes_nothing():
    spec = {"kind": "gabor", "frequency": 0.05, "seed": 9}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        world = gpu_noise.dask.render(spec, shape=(2048, 2048), chunks=256, backend="cpu")
        future = client.compute(world)
        victim, pid = sorted(client.run(os.getpid).items())[0]
        while client.run_on_scheduler(blocks_in_memory) < 8:
            time.sleep(0.02)
        assert not future.done(), "the computation ended before the kill: make it longer"
        # The worker process dies at once (SIGKILL), holding blocks and running one; its nanny
        # starts a new one and the scheduler reruns what was lost.
        os.kill(pid, signal.SIGKILL)
        result = future.result(timeout=300)
        assert victim not in client.scheduler_info()["workers"]
    one = gpu_noise.render(spec, size=(2048, 2048), backend="cpu")
    assert np.array_equal(result, one)


def test_an_xarray_with_world_texel_coordinates(client):
    world = gpu_noise.dask.render_xarray(SPEC, shape=(30, 50), chunks=16, offset=(1e9, -4.0),
                                         backend="cpu")
    assert world.dims == ("y", "x")
    assert np.array_equal(world.x.values, 1e9 + np.arange(50))
    assert np.array_equal(world.y.values, -4.0 + np.arange(30))
    one = gpu_noise.render(SPEC, size=(50, 30), offset=(1e9, -4.0), backend="cpu")
    assert np.array_equal(world.sel(x=1e9 + 7).values, one[:, 7])
    assert json.loads(world.attrs["gpu_noise_spec"]) == SPEC
    slopes = gpu_noise.dask.render_xarray(SPEC, shape=(8, 8), chunks=4, channels="gradient",
                                          backend="cpu")
    assert list(slopes.component.values) == ["value", "d/dx", "d/dy"]
