//! The f64 CPU reference ("twin") of the WGSL kernels: the oracle for tests and `verify`, and
//! the `cpu` backend (multi-threaded over rows with the `parallel` feature).

// Index loops mirror the WGSL loops line by line; iterator rewrites would break the mirror.
#![allow(clippy::needless_range_loop)]

pub(crate) mod fractal;
pub mod jumps;
pub(crate) mod plan;
pub(crate) mod plan_bound;
pub(crate) mod plan_d;
pub(crate) mod points;
pub(crate) mod row;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::job::Job;
use crate::window::Window;
pub use fractal::{fractal_noise, noise_at_texel, noise_gradient_at_texel, texel_point};

/// Renders every texel in f64, memory order x fastest, then y, then z (CONVENTIONS §1); four
/// values per texel (`[value, d/dx, d/dy, d/dz]`) for a job with gradients. An image beyond
/// [`MAX_TEXELS`](crate::spec::MAX_TEXELS) is an error, not an allocation.
pub fn render_f64(job: &Job) -> Result<Vec<f64>> {
    let window = Window::full(job.size());
    window.check_in_memory()?;
    let mut out = vec![0.0; window.texels() as usize * channels(job)];
    render_window_into(job, window, &mut out, |v| v, &|_, _| {})?;
    Ok(out)
}

/// Renders every texel and rounds to f32, the layout the GPU produces and the exporters take.
pub fn render_f32(job: &Job) -> Result<Vec<f32>> {
    render_window_f32(job, Window::full(job.size()))
}

/// Renders the texels of `window` (inside the image, at most
/// [`MAX_TEXELS`](crate::spec::MAX_TEXELS)) as f32.
pub fn render_window_f32(job: &Job, window: Window) -> Result<Vec<f32>> {
    window.check_inside(job.size())?;
    window.check_in_memory()?;
    let mut out = vec![0.0; window.texels() as usize * channels(job)];
    render_window_into(job, window, &mut out, |v| v as f32, &|_, _| {})?;
    Ok(out)
}

/// Each texel's running error bound (CONVENTIONS §13, "Running bounds"): how far a correct
/// f32 backend's value (not its gradient) may lie from the twin's at that texel, from the
/// twin's own values and gradients there; never above the job's static
/// [`Job::gpu_error_bound`]. Memory order as [`render_f64`].
pub fn render_error_bounds(job: &Job) -> Result<Vec<f64>> {
    let window = Window::full(job.size());
    window.check_in_memory()?;
    let limits = job.step_error_bounds();
    let ceiling = job.gpu_error_bound().value;
    let width = window.size.width as usize;
    let height = window.size.height;
    let mut out = vec![0.0; window.texels() as usize];
    for_each_row(&mut out, width, |_, (row, bounds)| {
        let (mut scratch, mut values) = (Vec::new(), Vec::new());
        let (j, k) = (row as u32 % height, row as u32 / height);
        for (i, b) in bounds.iter_mut().enumerate() {
            let at = plan::Position::Texel([i as u32, j, k]);
            let (_, e) = plan_bound::bound_at(job, at, &limits, &mut scratch, &mut values);
            *b = e.min(ceiling);
        }
    });
    Ok(out)
}

/// Values per texel of a job's output: 1, or 4 with gradients.
pub fn channels(job: &Job) -> usize {
    if job.has_gradient() { 4 } else { 1 }
}

/// The twin's one entry: renders `window` of `job` into `out` (x fastest; one value per texel,
/// or four with gradients) through `convert`, calling `progress(rows_done, rows_total)` after
/// each row, from any thread. A flat job without gradients runs the twin's row path; every
/// other job runs its plan step by step, bit for bit the same where both apply.
pub fn render_window_into<T: Send>(
    job: &Job,
    window: Window,
    out: &mut [T],
    convert: impl Fn(f64) -> T + Sync,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<()> {
    window.check_inside(job.size())?;
    let per_texel = channels(job);
    if out.len() as u64 != window.texels() * per_texel as u64 {
        return Err(Error::invalid(
            "window",
            format!(
                "the output holds {} values; the window's {} texels need {}",
                out.len(),
                window.texels(),
                window.texels() * per_texel as u64
            ),
        ));
    }
    if job.has_gradient() {
        job.check_gradient()?;
    }
    let width = window.size.width as usize;
    let height = window.size.height;
    let [x0, y0, z0] = window.origin;
    let rows_total = window.size.rows();
    let rows_done = AtomicU64::new(0);
    let render_one = |scratch: &mut Vec<f64>, (row, texels): (usize, &mut [T])| {
        let t = [x0, y0 + row as u32 % height, z0 + row as u32 / height];
        render_row(job, t, per_texel, scratch);
        for (t, &v) in texels.iter_mut().zip(scratch.iter()) {
            *t = convert(v);
        }
        progress(rows_done.fetch_add(1, Ordering::Relaxed) + 1, rows_total);
    };
    for_each_row(out, width * per_texel, render_one);
    Ok(())
}

/// One row of `per_texel` values per texel from image texel `t` on, into `out` (as long as the
/// row).
fn render_row(job: &Job, t: [u32; 3], per_texel: usize, out: &mut [f64]) {
    let [x0, j, k] = t;
    match (job.flat(), per_texel) {
        (Some(flat), 1) => row::render_row(job, flat, t, out),
        (_, 1) => {
            let mut scratch = Vec::new();
            for (i, v) in out.iter_mut().enumerate() {
                let at = plan::Position::Texel([x0 + i as u32, j, k]);
                *v = plan::value_at(job, at, &mut scratch);
            }
        }
        (Some(_), _) => {
            for (i, texel) in out.chunks_mut(4).enumerate() {
                let d = noise_gradient_at_texel(job, [x0 + i as u32, j, k]);
                texel.copy_from_slice(&d.unwrap_or([f64::NAN; 4]));
            }
        }
        (None, _) => {
            let mut scratch = Vec::new();
            for (i, texel) in out.chunks_mut(4).enumerate() {
                let at = plan::Position::Texel([x0 + i as u32, j, k]);
                texel.copy_from_slice(&plan_d::dual_at(job, at, &mut scratch));
            }
        }
    }
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

/// A flat job's noise at points in noise space (no frequency applied), as `sample` reads them;
/// a graph job's at root points in texel units (as [`sample_texels`]).
pub fn sample(job: &Job, points: &[[f64; 4]]) -> Vec<f64> {
    if job.flat().is_none() {
        return sample_texels(job, points);
    }
    map_points(points, |p| fractal_noise(job, p))
}

/// The job's world at points in texel units: a whole-numbered point is that world texel's value
/// (an image at offset 0's texel), a point `x` in general the value of texel (0, 0, 0) of an
/// image at offset `x` (CONVENTIONS §1). NaN past 2^62 cells.
pub fn sample_texels(job: &Job, points: &[[f64; 4]]) -> Vec<f64> {
    map_points(points, |p| {
        plan::value_at(job, plan::Position::Point(p), &mut Vec::new())
    })
}

/// The job's value and gradient along the world's texel axes at root points in texel units
/// (as [`sample_texels`]): `[value, d/dx, d/dy, d/dz]` per point (CONVENTIONS §12, §13).
/// An error names the kind, interpolation or node without derivatives.
pub fn sample_texels_gradient(job: &Job, points: &[[f64; 4]]) -> Result<Vec<[f64; 4]>> {
    job.with_gradient()?;
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        Ok(points
            .par_iter()
            .map_init(Vec::new, |scratch, p| {
                plan_d::dual_at(job, plan::Position::Point(*p), scratch)
            })
            .collect())
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut scratch = Vec::new();
        Ok(points
            .iter()
            .map(|p| plan_d::dual_at(job, plan::Position::Point(*p), &mut scratch))
            .collect())
    }
}

fn map_points(points: &[[f64; 4]], f: impl Fn([f64; 4]) -> f64 + Sync + Send) -> Vec<f64> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        points.par_iter().map(|p| f(*p)).collect()
    }
    #[cfg(not(feature = "parallel"))]
    points.iter().map(|p| f(*p)).collect()
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

/// Every texel's value and partial derivatives along the image axes, `[value, d/dx, d/dy,
/// d/dz]`, memory order as [`render_f64`] (CONVENTIONS §12): the job with gradients
/// ([`Job::with_gradient`]), four values a texel. Kinds without derivatives are an error naming
/// the field.
pub fn render_gradient_f64(job: &Job) -> Result<Vec<[f64; 4]>> {
    let values = render_f64(&job.with_gradient()?)?;
    Ok(values
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect())
}
