//! The f64 CPU reference ("twin") of the WGSL kernels: the oracle for tests and `verify`, and
//! the `cpu` backend (multi-threaded over rows with the `parallel` feature).

// Index loops mirror the WGSL loops line by line; iterator rewrites would break the mirror.
#![allow(clippy::needless_range_loop)]

pub(crate) mod fractal;
pub(crate) mod points;
pub(crate) mod row;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Result;
use crate::spec::Prepared;
use crate::window::Window;
pub use fractal::{fractal_noise, noise_at_texel, noise_gradient_at_texel, texel_point};

/// Renders every texel in f64, memory order x fastest, then y, then z (CONVENTIONS §1). An
/// image beyond [`MAX_TEXELS`](crate::limits::MAX_TEXELS) is an error, not an allocation.
pub fn render_f64(prep: &Prepared) -> Result<Vec<f64>> {
    let window = Window::full(prep.spec().size);
    window.check_in_memory()?;
    let mut out = vec![0.0; window.texels() as usize];
    render_window_into(prep, window, &mut out, |v| v, &|_, _| {});
    Ok(out)
}

/// Renders every texel and rounds to f32, the layout the GPU produces and the exporters take.
pub fn render_f32(prep: &Prepared) -> Result<Vec<f32>> {
    render_window_f32(prep, Window::full(prep.spec().size))
}

/// Renders the texels of `window` (inside the image, at most
/// [`MAX_TEXELS`](crate::limits::MAX_TEXELS)) as f32.
pub fn render_window_f32(prep: &Prepared, window: Window) -> Result<Vec<f32>> {
    window.check_inside(prep.spec().size)?;
    window.check_in_memory()?;
    let mut out = vec![0.0; window.texels() as usize];
    render_window_into(prep, window, &mut out, |v| v as f32, &|_, _| {});
    Ok(out)
}

/// Renders `window` into `out` (one value per texel, x fastest) through `convert`, calling
/// `progress(rows_done, rows_total)` after each row, from any thread.
pub fn render_window_into<T: Send>(
    prep: &Prepared,
    window: Window,
    out: &mut [T],
    convert: impl Fn(f64) -> T + Sync,
    progress: &(dyn Fn(u64, u64) + Sync),
) {
    let width = window.size.width as usize;
    let height = window.size.height;
    let [x0, y0, z0] = window.origin;
    let rows_total = window.size.rows();
    let rows_done = AtomicU64::new(0);
    let render_one = |scratch: &mut Vec<f64>, (row, texels): (usize, &mut [T])| {
        let j = y0 + row as u32 % height;
        let k = z0 + row as u32 / height;
        row::render_row(prep, x0, j, k, scratch);
        for (t, &v) in texels.iter_mut().zip(scratch.iter()) {
            *t = convert(v);
        }
        progress(rows_done.fetch_add(1, Ordering::Relaxed) + 1, rows_total);
    };
    for_each_row(out, width, render_one);
}

#[cfg(feature = "parallel")]
pub(crate) fn for_each_row<T: Send>(
    out: &mut [T],
    width: usize,
    f: impl Fn(&mut Vec<f64>, (usize, &mut [T])) + Sync + Send,
) {
    use rayon::prelude::*;
    // A small window (a tile of a tile set) costs less than waking the pool's threads, whose
    // spinning would then compete with this one: it runs here.
    if out.len() < MIN_PARALLEL_TEXELS {
        let mut scratch = vec![0.0f64; width];
        return out
            .chunks_mut(width)
            .enumerate()
            .for_each(|row| f(&mut scratch, row));
    }
    out.par_chunks_mut(width)
        .enumerate()
        .for_each_init(|| vec![0.0f64; width], f);
}

/// Fewest texels worth spreading over threads.
#[cfg(feature = "parallel")]
pub(crate) const MIN_PARALLEL_TEXELS: usize = 1 << 14;

#[cfg(not(feature = "parallel"))]
pub(crate) fn for_each_row<T: Send>(
    out: &mut [T],
    width: usize,
    f: impl Fn(&mut Vec<f64>, (usize, &mut [T])) + Sync + Send,
) {
    let mut scratch = vec![0.0f64; width];
    for row in out.chunks_mut(width).enumerate() {
        f(&mut scratch, row);
    }
}

/// Every texel's value and partial derivatives along the texel axes, `[value, d/dx, d/dy,
/// d/dz]`, memory order as [`render_f64`] (CONVENTIONS §12). Kinds without derivatives are an
/// error naming the field ([`NoiseSpec::check_derivatives`](crate::NoiseSpec::check_derivatives)).
pub fn render_gradient_f64(prep: &Prepared) -> Result<Vec<[f64; 4]>> {
    render_gradient_window(prep, Window::full(prep.spec().size))
}

/// [`render_gradient_f64`] for the texels of `window` (inside the image), rows in parallel.
pub fn render_gradient_window(prep: &Prepared, window: Window) -> Result<Vec<[f64; 4]>> {
    prep.spec().check_derivatives()?;
    window.check_inside(prep.spec().size)?;
    window.check_in_memory()?;
    let mut out = vec![[0.0; 4]; window.texels() as usize];
    let [x0, y0, z0] = window.origin;
    let height = window.size.height;
    for_each_row(&mut out, window.size.width as usize, |_, (row, texels)| {
        let (j, k) = (y0 + row as u32 % height, z0 + row as u32 / height);
        for (i, t) in texels.iter_mut().enumerate() {
            // check_derivatives above makes every kind here differentiable.
            *t = noise_gradient_at_texel(prep, x0 + i as u32, j, k).unwrap_or([f64::NAN; 4]);
        }
    });
    Ok(out)
}

/// Noise at points already in noise space (no frequency applied), as `sample` reads them.
pub fn sample(prep: &Prepared, points: &[[f64; 4]]) -> Vec<f64> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        points.par_iter().map(|p| fractal_noise(prep, *p)).collect()
    }
    #[cfg(not(feature = "parallel"))]
    points.iter().map(|p| fractal_noise(prep, *p)).collect()
}

/// Threads the CPU backend renders with.
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    1
}
