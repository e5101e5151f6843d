"""Worlds bigger than one machine: a dask array whose blocks are exact windows of one world.

Each block is the window of one image (``gpu_noise.render(..., window=...)``) rendered where
the task runs, so a block is bit for bit the same texels as the same window of a single render
on the twin (within the stated bound on the GPU and SIMD backends), on any worker, in any
order, again after a worker dies. Nothing is held but the spec's JSON text::

    import gpu_noise.dask
    from dask.distributed import Client
    client = Client()                       # or a cluster: dask-jobqueue, dask-kubernetes ...
    world = gpu_noise.dask.render({"kind": "perlin", "fractal": "ridged", "octaves": 10,
                                   "lattice": "hash"},
                                  shape=(1 << 20, 1 << 20), chunks=4096)
    world.to_zarr("planet.zarr")            # written chunk by chunk by the workers
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import dask.array as da
import numpy as np

from . import Spec, render as _render_image, spec_text

__all__ = ["render", "render_xarray"]


def render(
    spec: Spec,
    shape: Sequence[int],
    chunks: Union[int, Sequence[Any], str] = 4096,
    offset: Optional[Sequence[float]] = None,
    channels: Optional[str] = None,
    backend: str = "auto",
) -> da.Array:
    """A lazy float32 dask array of a spec's or graph's world.

    shape: in array order: ``(W,)`` for 1D specs, ``(H, W)`` for 2D (or a slice of 3D),
    ``(D, H, W)`` for volumes; gradients (``channels="gradient"``) add a last axis, never
    split, of the value and one derivative per axis of ``shape``.
    chunks: anything ``dask.array`` takes (``4096``, ``(1024, 2048)``, ``"auto"``).
    offset: the world texel of element 0 (x, y[, z]), as ``render``'s.
    """
    text = spec_text(spec)
    shape = tuple(int(s) for s in shape)
    if not 1 <= len(shape) <= 3 or min(shape) < 1:
        raise ValueError(f"shape: one to three positive sizes in array order, got {shape}")
    size = list(reversed(shape))  # (W, H, D): the tool's order
    gradient = channels == "gradient"
    components = 1 + len(shape)
    full_shape = shape + ((components,) if gradient else ())
    normalized = da.core.normalize_chunks(
        chunks if not gradient or not isinstance(chunks, (tuple, list)) else tuple(chunks),
        shape=shape,
        dtype=np.float32,
    )
    if gradient:
        normalized = normalized + ((components,),)
    offset = None if offset is None else [float(o) for o in offset]
    return da.map_blocks(
        _block,
        dtype=np.float32,
        chunks=normalized,
        meta=np.empty((0,) * len(full_shape), dtype=np.float32),
        text=text,
        size=size,
        offset=offset,
        channels=channels,
        backend=backend,
        spatial=len(shape),
    )


def render_xarray(
    spec: Spec,
    shape: Sequence[int],
    chunks: Union[int, Sequence[Any], str] = 4096,
    offset: Optional[Sequence[float]] = None,
    channels: Optional[str] = None,
    backend: str = "auto",
):
    """``render`` as an ``xarray.DataArray``: dims ``x`` (1D), ``y, x`` or ``z, y, x`` (and
    ``component``: value, d/dx, ... for gradients), each spatial coordinate the world texel of
    its row or column (offset + index, the points the texels sample, CONVENTIONS §1), and the
    spec's JSON text in ``attrs["gpu_noise_spec"]``. Needs xarray."""
    import xarray as xr

    data = render(spec, shape, chunks, offset, channels, backend)
    spatial = len(tuple(shape))
    names = ["z", "y", "x"][3 - spatial:]
    start = [float(o) for o in (offset or [])] + [0.0] * 3
    coords = {name: start[spatial - 1 - i] + np.arange(data.shape[i], dtype=np.float64)
              for i, name in enumerate(names)}
    dims = list(names)
    if channels == "gradient":
        dims.append("component")
        coords["component"] = ["value", "d/dx", "d/dy", "d/dz"][: data.shape[-1]]
    return xr.DataArray(data, dims=dims, coords=coords,
                        attrs={"gpu_noise_spec": spec_text(spec)})


def _block(
    block_info: Optional[dict] = None,
    *,
    text: str,
    size: list,
    offset: Optional[list],
    channels: Optional[str],
    backend: str,
    spatial: int,
) -> np.ndarray:
    """One block: the window of the whole image at the block's place."""
    location = block_info[None]["array-location"][:spatial]
    # Array order (z, y, x) to the tool's (x, y, z).
    starts = [start for start, _ in reversed(location)] + [0] * (3 - spatial)
    extents = [stop - start for start, stop in reversed(location)] + [1] * (3 - spatial)
    window = tuple(starts) + tuple(extents)
    image = _render_image(
        text, size=size, offset=offset, channels=channels, backend=backend, window=window
    )
    # A 1D spec's image is one row: (1, W) as the .npy export writes it.
    return image.reshape(block_info[None]["chunk-shape"])
