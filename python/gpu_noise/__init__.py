"""Procedural noise from gpu-noise as numpy arrays: the GPU, the SIMD lanes or the f64 twin.

Specs and graphs are the tool's own JSON (``gpu-noise render --print-spec`` writes one; graphs
as in docs/CONVENTIONS.md §13), given as a dict or as JSON text::

    import gpu_noise
    heights = gpu_noise.render({"kind": "perlin", "fractal": "fbm", "octaves": 6},
                               size=(1024, 512), offset=(1e9, -1e9))
    heights.shape, heights.dtype            # ((512, 1024), dtype('float32'))

Every texel of a world is one function of its world coordinates (CONVENTIONS §1): a window,
or an image rendered at the window's offset, holds the same texels, which is what
``gpu_noise.dask`` builds a chunked array from.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._native import NoiseError, __version__
from ._native import error_bound as _error_bound
from ._native import kinds
from ._native import render as _render
from ._native import sample as _sample

__all__ = ["NoiseError", "__version__", "render", "sample", "error_bound", "kinds", "spec_text"]

Spec = Union[str, Mapping[str, Any]]


def spec_text(spec: Spec) -> str:
    """The JSON text of a spec or graph given as a dict (or already as text)."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, Mapping):
        return json.dumps(spec)
    raise TypeError(f"spec must be a dict or JSON text, got {type(spec).__name__}")


def _size(size: Union[None, int, Sequence[int]]) -> Optional[list]:
    # Passed as given: the native side refuses floats, booleans and sides out of range by name
    # (int() here truncated 64.7 to 64).
    if size is None:
        return None
    if isinstance(size, (int, np.integer, float, np.floating, str)):
        return [size]
    return list(size)


def render(
    spec: Spec,
    size: Union[None, int, Sequence[int]] = None,
    offset: Optional[Sequence[float]] = None,
    channels: Optional[str] = None,
    backend: str = "auto",
    window: Optional[Tuple[int, ...]] = None,
) -> np.ndarray:
    """Renders a spec or graph to a float32 array.

    size: ``N`` (1D), ``(W, H)`` or ``(W, H, D)`` texels, over the spec's ``size``.
    offset: the world texel of the image's first texel, over the spec's ``offset``.
    channels: ``"value"`` (default) or ``"gradient"``: the value and its partial derivatives
    along the image's axes (analytic, CONVENTIONS §12, §13).
    backend: ``"auto"`` (a hardware GPU, else the SIMD lanes), ``"gpu"``, ``"simd"`` or
    ``"cpu"`` (the f64 twin, rounded to f32).
    window: ``(x, y, width, height)`` or ``(x, y, z, width, height, depth)``: only that part of
    the image.

    Returns the ``.npy`` export's shape: ``(H, W)`` (``(1, W)`` for 1D), ``(D, H, W)`` for
    volumes; gradients ``[D,] [H,] W, 1 + axes``: the value, then d/dx (, d/dy, d/dz) per image
    axis. The GIL is released while rendering; Ctrl-C interrupts between bands of
    about a million texels. Raises NoiseError (a ValueError) naming the field or node.
    """
    if window is not None:
        window = list(window)
        if len(window) == 4:
            x, y, w, h = window
            window = [x, y, 0, w, h, 1]
        elif len(window) != 6:
            raise NoiseError(
                f"window: must be (x, y, width, height) or (x, y, z, width, height, depth), "
                f"got {len(window)} numbers"
            )
    offset = None if offset is None else [float(o) for o in offset]
    return _render(spec_text(spec), _size(size), offset, channels, backend, window)


def sample(spec: Spec, points: Any) -> np.ndarray:
    """The f64 twin at ``points`` (an array of N rows of ``dims`` coordinates), as
    ``gpu-noise sample`` evaluates them: a flat spec in noise space (its frequency not applied),
    a graph at root points in texel units. Returns float64 of shape (N,)."""
    points = np.ascontiguousarray(points, dtype=np.float64)
    if points.ndim == 1:
        points = points[:, None]
    if points.ndim != 2:
        raise NoiseError(f"points: must be N rows of coordinates, got {points.ndim} axes")
    return _sample(spec_text(spec), points)


def error_bound(
    spec: Spec,
    size: Union[None, int, Sequence[int]] = None,
    offset: Optional[Sequence[float]] = None,
) -> Tuple[float, str]:
    """The largest |GPU - twin| a correct f32 backend can produce for this image, and why."""
    offset = None if offset is None else [float(o) for o in offset]
    return _error_bound(spec_text(spec), _size(size), offset)
