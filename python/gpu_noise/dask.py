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

``to_zarr`` writes the store as ``gpu-noise render -o planet.zarr`` does: a group whose array
``noise`` has dimension names and the spec in its attributes, so ``xr.open_zarr`` opens it as
a dataset, and zarr-python and Dask read the array (``component="noise"``).
"""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence, Tuple, Union

import dask.array as da
import numpy as np

from . import Spec, render as _render_image, spec_text

__all__ = ["World", "render", "render_xarray", "ARRAY"]

#: The array's name in a store's group, as the tool writes it (xarray's variable).
ARRAY = "noise"


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
    array = da.map_blocks(
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
    names = ["z", "y", "x"][3 - len(shape):] + (["component"] if gradient else [])
    return World(array, text, names, offset)


class World(da.Array):
    """A dask array of one world (what ``render`` returns): every dask operation works on it
    as on any dask array, and ``to_zarr`` records what it is."""

    def __new__(cls, array: da.Array, spec: str, dims: Sequence[str],
                offset: Optional[Sequence[float]] = None):
        self = super().__new__(cls, array.dask, array.name, array.chunks, meta=array._meta)
        self.spec_text = spec
        self.dimension_names = list(dims)
        self.offset = None if offset is None else list(offset)
        return self

    def to_zarr(self, url, component: Optional[str] = None, overwrite: bool = False,
                compute: bool = True, **kwargs):
        """Writes the world as ``gpu-noise render -o world.zarr`` does: a Zarr v3 group with
        the spec in its attributes, holding the array ``component`` (default ``"noise"``)
        with dimension names (``y, x``; ``z, y, x``) and the spec, chunked as the dask array
        (regular chunks), compressed as the tool's (Blosc: LZ4 over shuffled bytes). ``xr.open_zarr(url)`` opens it as a dataset; zarr-python and
        ``dask.array.from_zarr(url, component="noise")`` read the array. Needs zarr
        (``pip install "gpu-noise[zarr]"``). Other keywords go to ``dask.array.to_zarr``."""
        try:
            import zarr
        except ModuleNotFoundError as e:
            raise ModuleNotFoundError(
                'to_zarr needs zarr: pip install "gpu-noise[zarr]" (or "./python[zarr]")'
            ) from e
        name = component or ARRAY
        if any(len(set(c[:-1])) > 1 for c in self.chunks):
            raise ValueError(
                f"to_zarr needs regular chunks (all equal but the last per axis), got "
                f"{self.chunks}; rechunk first"
            )
        record = {"spec": json.loads(self.spec_text)}
        if self.offset is not None:
            record["offset"] = self.offset
        attributes = {"gpu_noise": record}
        group = zarr.open_group(url, mode="w" if overwrite else "w-", attributes=attributes)
        # The tool's codec (CONVENTIONS, Zarr stores), not zarr-python's default.
        blosc = zarr.codecs.BloscCodec(cname="lz4", clevel=5, shuffle="shuffle", typesize=4)
        target = group.create_array(
            name, shape=self.shape, chunks=self.chunksize, dtype=np.float32,
            fill_value=np.nan, dimension_names=self.dimension_names, attributes=attributes,
            compressors=[blosc],
        )
        return da.Array(self.dask, self.name, self.chunks, meta=self._meta).to_zarr(
            target, compute=compute, **kwargs
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
