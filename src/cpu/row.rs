//! Row rendering for the CPU backend. Per texel it performs exactly the operations of
//! `noise_at_texel`, in the same order, so the values are bit-identical (tests assert it); it
//! only arranges them for speed: octaves outermost over a row, the y and z frames computed once
//! per row and octave, and corner hashes reused while consecutive texels share a lattice cell
//! (32 texels at the default frequency). Perlin 1D-3D only; other kinds go texel by texel.

use super::common::{Lattice, axis_frame};
use super::fractal::{fractal_finish, fractal_term};
use super::perlin::{perlin1_blend, perlin1_hashes, perlin2_blend, perlin2_hashes};
use super::perlin::{perlin3_blend, perlin3_hashes};
use crate::spec::{Kind, Prepared};

/// Whether [`render_row`] handles this spec.
pub fn row_path_applies(prep: &Prepared) -> bool {
    prep.spec().kind == Kind::Perlin && prep.spec().dims <= 3
}

/// Fills `out` (`out.len()` texels) with the noise of image texels (x0 + i, j, k).
pub fn render_row(prep: &Prepared, x0: u32, j: u32, k: u32, out: &mut [f64]) {
    let spec = prep.spec();
    let (f, o) = (spec.frequency, spec.offset);
    // The same expressions as texel_point, so the same roundings.
    let py = f * (o[1] + f64::from(j));
    let pz = f * (o[2] + f64::from(k));
    out.fill(0.0);
    for octave in prep.octaves() {
        let lat = Lattice::new(octave, spec.interp, prep.kind_params());
        let (scale, amplitude) = (octave.scale(), octave.weight());
        let perm = lat.perm;
        let x_at = |i: usize| f * (o[0] + f64::from(x0 + i as u32)) * scale;
        match spec.dims {
            1 => {
                let mut cached = (i64::MIN, [0usize; 2]);
                for (i, s) in out.iter_mut().enumerate() {
                    let ax = axis_frame(&lat, x_at(i), 0);
                    if ax.cell != cached.0 {
                        cached = (ax.cell, perlin1_hashes(perm, &ax));
                    }
                    *s += amplitude * fractal_term(spec.fractal, perlin1_blend(&cached.1, &ax));
                }
            }
            2 => {
                let ay = axis_frame(&lat, py * scale, 1);
                let mut cached = (i64::MIN, [0usize; 4]);
                for (i, s) in out.iter_mut().enumerate() {
                    let ax = axis_frame(&lat, x_at(i), 0);
                    if ax.cell != cached.0 {
                        cached = (ax.cell, perlin2_hashes(perm, &ax, &ay));
                    }
                    *s +=
                        amplitude * fractal_term(spec.fractal, perlin2_blend(&cached.1, &ax, &ay));
                }
            }
            _ => {
                let ay = axis_frame(&lat, py * scale, 1);
                let az = axis_frame(&lat, pz * scale, 2);
                let mut cached = (i64::MIN, [0usize; 8]);
                for (i, s) in out.iter_mut().enumerate() {
                    let ax = axis_frame(&lat, x_at(i), 0);
                    if ax.cell != cached.0 {
                        cached = (ax.cell, perlin3_hashes(perm, &ax, &ay, &az));
                    }
                    *s += amplitude
                        * fractal_term(spec.fractal, perlin3_blend(&cached.1, &ax, &ay, &az));
                }
            }
        }
    }
    for s in out.iter_mut() {
        *s = fractal_finish(spec.fractal, *s);
    }
}
