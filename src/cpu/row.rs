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
    prep.spec.kind == Kind::Perlin && prep.spec.dims <= 3
}

/// Fills `out` (one row, `out.len()` = width) with the noise of row j of slice k.
pub fn render_row(prep: &Prepared, j: u32, k: u32, out: &mut [f64]) {
    let spec = &prep.spec;
    let (f, o) = (spec.frequency, spec.offset);
    // The same expressions as texel_point, so the same roundings.
    let py = f * (o[1] + f64::from(j));
    let pz = f * (o[2] + f64::from(k));
    let mut scale = 1.0;
    let mut amplitude = 1.0;
    let mut norm = 0.0;
    out.fill(0.0);
    for (tables, period) in prep.tables.iter().zip(&prep.periods) {
        let lat = Lattice::new(tables, *period, spec.interp);
        let perm = lat.perm;
        let x_at = |i: usize| f * (o[0] + i as f64) * scale;
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
        norm += amplitude;
        scale *= spec.lacunarity;
        amplitude *= spec.persistence;
    }
    for s in out.iter_mut() {
        *s = fractal_finish(spec.fractal, *s, norm);
    }
}
