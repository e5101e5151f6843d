from typing import List, Optional, Tuple

import numpy as np
import numpy.typing as npt

__version__: str

class NoiseError(ValueError): ...

def render(
    spec: str,
    size: Optional[List[int]] = None,
    offset: Optional[List[float]] = None,
    channels: Optional[str] = None,
    backend: str = "auto",
    window: Optional[List[int]] = None,
) -> npt.NDArray[np.float32]: ...
def sample(spec: str, points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]: ...
def error_bound(
    spec: str, size: Optional[List[int]] = None, offset: Optional[List[float]] = None
) -> Tuple[float, str]: ...
def kinds() -> List[Tuple[str, int, int]]: ...
def _adapter_probes() -> int: ...
