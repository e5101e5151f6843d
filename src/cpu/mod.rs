//! The f64 CPU reference ("twin") of the WGSL kernels: the oracle for tests and `verify`, and
//! the `cpu` backend (multi-threaded over rows with rayon).

// Index loops mirror the WGSL loops line by line; iterator rewrites would break the mirror.
#![allow(clippy::needless_range_loop)]

pub mod common;
pub mod fractal;
pub mod gradient;
pub mod perlin;
pub mod row;
pub mod value;

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::spec::Prepared;
pub use fractal::{fractal_noise, noise_at_texel, texel_point};

/// Renders every texel in f64, memory order x fastest, then y, then z (REFERENCE §1).
pub fn render_f64(prep: &Prepared) -> Vec<f64> {
    render_rows(prep, |v| v, &|_, _| {})
}

/// Renders every texel and rounds to f32, the layout the GPU produces and the exporters take.
pub fn render_f32(prep: &Prepared) -> Vec<f32> {
    render_rows(prep, |v| v as f32, &|_, _| {})
}

/// As [`render_f32`], calling `progress(rows_done, rows_total)` after each row, from any thread.
pub fn render_f32_with_progress(prep: &Prepared, progress: &(dyn Fn(u64, u64) + Sync)) -> Vec<f32> {
    render_rows(prep, |v| v as f32, progress)
}

fn render_rows<T: Send + Default + Copy>(
    prep: &Prepared,
    convert: impl Fn(f64) -> T + Sync,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Vec<T> {
    let size = prep.spec.size;
    let width = size.width as usize;
    let height = size.height as usize;
    let by_row = row::row_path_applies(prep);
    let rows_total = (size.texels() / width as u64).max(1);
    let rows_done = AtomicU64::new(0);
    let mut out = vec![T::default(); size.texels() as usize];
    out.par_chunks_mut(width).enumerate().for_each_init(
        || vec![0.0f64; width],
        |scratch, (row, texels)| {
            let j = (row % height) as u32;
            let k = (row / height) as u32;
            if by_row {
                row::render_row(prep, j, k, scratch);
                for (t, &v) in texels.iter_mut().zip(scratch.iter()) {
                    *t = convert(v);
                }
            } else {
                for (i, t) in texels.iter_mut().enumerate() {
                    *t = convert(noise_at_texel(prep, i as u32, j, k));
                }
            }
            progress(rows_done.fetch_add(1, Ordering::Relaxed) + 1, rows_total);
        },
    );
    out
}

/// Noise at points already in noise space (no frequency applied), as `sample` reads them.
pub fn sample(prep: &Prepared, points: &[[f64; 4]]) -> Vec<f64> {
    points.par_iter().map(|p| fractal_noise(prep, *p)).collect()
}
