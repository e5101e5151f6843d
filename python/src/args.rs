//! The Python arguments that are numbers of texels (`size`, `window`) and the memory of the
//! array `render` returns: each refused with a `NoiseError` naming the argument and the allowed
//! range, where a bare conversion raised an `OverflowError` naming nothing, truncated `64.7`
//! to 64, or aborted the interpreter asking for more memory than it had.

use gpu_noise::low_level::limits::{MAX_SIDE, MAX_TEXELS};
use gpu_noise::low_level::text::{QUOTED_CHARS, tamed};
use gpu_noise::{Size, Window};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::NoiseError;

/// `size`: each side a whole number in 1..=MAX_SIDE (ints and numpy integers; not floats,
/// not booleans).
pub fn sides(items: &[Bound<'_, PyAny>]) -> PyResult<Vec<u32>> {
    let range = format!("1..={MAX_SIDE}");
    items
        .iter()
        .map(|v| {
            whole(v)
                .filter(|n| (1..=i128::from(MAX_SIDE)).contains(n))
                .map(|n| n as u32)
                .ok_or_else(|| {
                    NoiseError::new_err(format!(
                        "size: each side must be a whole number in {range}, got {}",
                        shown(v)
                    ))
                })
        })
        .collect()
}

/// `window`: (x, y, z, width, height, depth), whole numbers in 0..=2^32 - 1 (the Python side
/// turns the 2D form into this one); inside the image is checked after.
pub fn window(items: &[Bound<'_, PyAny>]) -> PyResult<Window> {
    let numbers: Vec<u32> = items
        .iter()
        .map(|v| {
            whole(v).and_then(|n| u32::try_from(n).ok()).ok_or_else(|| {
                NoiseError::new_err(format!(
                    "window: each of x, y, z, width, height, depth must be a whole number in \
                         0..={}, got {}",
                    u32::MAX,
                    shown(v)
                ))
            })
        })
        .collect::<PyResult<_>>()?;
    let [x, y, z, w, h, d] = numbers[..] else {
        return Err(NoiseError::new_err(format!(
            "window: must be (x, y, width, height) or (x, y, z, width, height, depth), got {} \
             numbers",
            numbers.len()
        )));
    };
    Ok(Window::new([x, y, z], Size::new(w, h, d)))
}

/// A Python int (or anything with `__index__`, as numpy's integers) that is not a bool.
fn whole(v: &Bound<'_, PyAny>) -> Option<i128> {
    if v.is_instance_of::<PyBool>() {
        return None;
    }
    v.extract::<i128>().ok()
}

/// A Python value as a message shows it: its repr (`64.7`, `'x'`), escaped and cut short.
fn shown(v: &Bound<'_, PyAny>) -> String {
    let repr = v.repr().map_or_else(|_| "?".into(), |r| r.to_string());
    match repr.char_indices().nth(QUOTED_CHARS) {
        None => tamed(&repr),
        Some((cut, _)) => format!("{}... ({} bytes)", tamed(&repr[..cut]), repr.len()),
    }
}

/// The zeroed array `render` fills: `kept` float32 values a texel of `window`. Past
/// [`MAX_TEXELS`] values (4 GiB), or where the allocation fails, a `NoiseError` naming the
/// size and what renders it instead.
pub fn array_memory(window: Window, kept: usize) -> PyResult<Vec<f32>> {
    let values = window.texels().saturating_mul(kept as u64);
    let gib = values as f64 * 4.0 / f64::from(1u32 << 30);
    let refuse = |why: String| {
        let s = window.size;
        NoiseError::new_err(format!(
            "size: {}x{}x{} texels of {kept} float32 values each is {gib:.1} GiB, {why}; render \
             part of it with window=(x, y, width, height), or the whole as a chunked array with \
             gpu_noise.dask.render(...)",
            s.width, s.height, s.depth
        ))
    };
    if values > MAX_TEXELS {
        let limit = MAX_TEXELS as f64 * 4.0 / f64::from(1u32 << 30);
        return Err(refuse(format!(
            "more than one array holds ({limit:.0} GiB)"
        )));
    }
    let mut array = Vec::new();
    (array.try_reserve_exact(values as usize))
        .map_err(|_| refuse("more than this process can allocate".into()))?;
    array.resize(values as usize, 0.0);
    Ok(array)
}
