//! The SIMD CPU backend: the GPU's f32 kernels evaluated 16 texels at a time in SIMD lanes
//! (AVX-512, AVX2 or the baseline, chosen at run time), rows in parallel with the `parallel`
//! feature. It reads the numbers the GPU reads (each noise's frame as the GPU's words, f32
//! weights and kind parameters, the tables as uploaded), so it computes the GPU's f32 noise
//! on the GPU's points; tests hold it to the GPU's bound of the f64 twin (CONVENTIONS §7),
//! which stays the oracle.
//!
//! Its one entry, [`render_window_into`], runs any job's plan step by step over segments of a
//! row (`plan`); a flat job is the plan `fractal(kind)`, whose octaves add into the sum
//! straight from their kernels. A noise step runs its kind's row: on x86-64 with a hash
//! lattice, untiled, the kind's wide row (every value of a block in registers, AVX-512 or AVX2;
//! `kinds::lattice::wide`) where it has one, else its lane kernel; the two compute the same
//! numbers (tested per kind).
//! Function names mirror the WGSL's (`perlin3`, `corner_hashes3`, `cellular_search`, ...).

// Lane loops index several arrays by the lane; iterator rewrites would hide the mirror.
#![allow(clippy::needless_range_loop)]

mod plan;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::job::Job;
pub use crate::kinds::InstructionSet;
use crate::window::Window;

/// Renders every texel as f32, memory order x fastest, then y, then z (CONVENTIONS §1); with
/// gradients `[value, d/dx, d/dy, d/dz]` per texel (CONVENTIONS §12).
pub fn render_f32(job: &Job) -> Result<Vec<f32>> {
    render_window_f32(job, Window::full(job.size()))
}

/// Renders the texels of `window` (inside the image, at most
/// [`MAX_TEXELS`](crate::spec::MAX_TEXELS)).
pub fn render_window_f32(job: &Job, window: Window) -> Result<Vec<f32>> {
    render_window_on(InstructionSet::detect(), job, window)
}

/// [`render_window_f32`] on a given instruction set; an error where this CPU lacks it.
pub fn render_window_on(isa: InstructionSet, job: &Job, window: Window) -> Result<Vec<f32>> {
    window.check_inside(job.size())?;
    window.check_in_memory()?;
    let mut out = vec![0.0; window.texels() as usize * crate::cpu::channels(job)];
    render_window_into_on(isa, job, window, &mut out, &|_, _| {})?;
    Ok(out)
}

/// The SIMD backend's one entry: renders `window` of `job` into `out` (x fastest; one value
/// per texel, or four with gradients), calling `progress(rows_done, rows_total)` after each row, from any thread.
pub fn render_window_into(
    job: &Job,
    window: Window,
    out: &mut [f32],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<()> {
    render_window_into_on(InstructionSet::detect(), job, window, out, progress)
}

/// [`render_window_into`] on a given instruction set; an error where this CPU lacks it.
pub fn render_window_into_on(
    isa: InstructionSet,
    job: &Job,
    window: Window,
    out: &mut [f32],
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<()> {
    if !isa.available() {
        return Err(Error::Unsupported(format!(
            "the SIMD backend's {} lanes: this CPU lacks the instructions",
            isa.name()
        )));
    }
    window.check_inside(job.size())?;
    let per_texel = crate::cpu::channels(job);
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
    job.check_gpu_precision()?;
    if job.has_gradient() {
        job.check_gradient()?;
    }
    let lanes = plan::PlanLanes::new(job, isa);
    let row_values = window.size.width as usize * per_texel;
    let scratch = || lanes.scratch();
    for_each_row(window, row_values, out, progress, scratch, |s, t, out| {
        lanes.render_row(s, t, out)
    });
    Ok(())
}

/// Runs `row(scratch, first texel, values)` over every row of `window` (`row_values` values
/// each), in parallel with the `parallel` feature; each thread makes its scratch once with
/// `scratch()` (a row's registers are up to hundreds of KiB with gradients: allocated per row,
/// the allocator mapped and unmapped them, and the TLB shootdowns of the unmaps were 7-9% of a
/// gradient render's profile).
fn for_each_row<S: Send>(
    window: Window,
    row_values: usize,
    out: &mut [f32],
    progress: &(dyn Fn(u64, u64) + Sync),
    scratch: impl Fn() -> S + Sync + Send,
    row: impl Fn(&mut S, [u32; 3], &mut [f32]) + Sync + Send,
) {
    let height = window.size.height;
    let [x0, y0, z0] = window.origin;
    let rows_total = window.size.rows();
    let rows_done = AtomicU64::new(0);
    let render_one = |s: &mut S, (n, texels): (usize, &mut [f32])| {
        let j = y0 + n as u32 % height;
        let k = z0 + n as u32 / height;
        row(s, [x0, j, k], texels);
        progress(rows_done.fetch_add(1, Ordering::Relaxed) + 1, rows_total);
    };
    let width = row_values;
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        // As the scalar backend: a small window runs on this thread.
        if out.len() >= crate::cpu::MIN_PARALLEL_TEXELS {
            let rows = out.par_chunks_mut(width).enumerate();
            rows.for_each_init(&scratch, render_one);
            return;
        }
    }
    let mut s = scratch();
    for n_texels in out.chunks_mut(width).enumerate() {
        render_one(&mut s, n_texels);
    }
}
