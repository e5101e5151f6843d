//! Row rendering for the CPU backend. Per texel it performs exactly the operations of
//! `noise_at_texel`, in the same order, so the values are bit-identical (tests assert it); it
//! only arranges them for speed: octaves outermost over a row, the y and z frames computed once
//! per row and octave, the x coordinate advanced by one exact step per texel, and corner hashes
//! reused while consecutive texels share a lattice cell (32 texels at the default frequency;
//! Perlin 1D-3D). Every other kind takes the stepped point as it is.

use super::fractal::{fractal_finish, fractal_term};
use super::points::{instance_lattice, texel_coordinates};
use crate::job::{FlatView, Job};
use crate::kinds::lattice::twin::{axis_frame, lattice_point};
use crate::kinds::perlin::twin::{perlin1_blend, perlin1_hashes, perlin2_blend, perlin2_hashes};
use crate::kinds::perlin::twin::{perlin3_blend, perlin3_hashes};
use crate::kinds::{Kind, noise_octave};

/// Fills `out` (`out.len()` texels) with the noise of image texels (x0 + i, j, k) of a flat job.
pub fn render_row(job: &Job, flat: &FlatView, [x0, j, k]: [u32; 3], out: &mut [f64]) {
    let spec = &flat.spec;
    out.fill(0.0);
    for o in 0..flat.octaves() {
        let lat = instance_lattice(job, o);
        let amplitude = flat.weights[o];
        let frame = job.frame(o);
        // The exact coordinates of the row's first texel, then one exact step per texel.
        let mut l = texel_coordinates(frame, [x0, j, k]);
        let first = lattice_point(&l);
        let step = frame.step[0];
        let mut next = || {
            let pt = lattice_point(&l);
            for (v, s) in l.iter_mut().zip(&step) {
                v.0 = v.0.wrapping_add(s.0);
            }
            pt
        };
        let term = |n: f64| amplitude * fractal_term(spec.fractal, n);
        match (spec.kind, spec.dims) {
            (Kind::Perlin, 1) => {
                let mut cached = (i64::MIN, [0usize; 2]);
                for s in out.iter_mut() {
                    let ax = axis_frame(&lat, &next(), 0);
                    if ax.cell != cached.0 {
                        cached = (ax.cell, perlin1_hashes(&lat, &ax));
                    }
                    *s += term(perlin1_blend(&cached.1, &ax));
                }
            }
            (Kind::Perlin, 2) => {
                let ay = axis_frame(&lat, &first, 1);
                let mut cached = (i64::MIN, [0usize; 4]);
                for s in out.iter_mut() {
                    let ax = axis_frame(&lat, &next(), 0);
                    if ax.cell != cached.0 {
                        cached = (ax.cell, perlin2_hashes(&lat, &ax, &ay));
                    }
                    *s += term(perlin2_blend(&cached.1, &ax, &ay));
                }
            }
            (Kind::Perlin, 3) => {
                let ay = axis_frame(&lat, &first, 1);
                let az = axis_frame(&lat, &first, 2);
                let mut cached = (i64::MIN, [0usize; 8]);
                for s in out.iter_mut() {
                    let ax = axis_frame(&lat, &next(), 0);
                    if ax.cell != cached.0 {
                        cached = (ax.cell, perlin3_hashes(&lat, &ax, &ay, &az));
                    }
                    *s += term(perlin3_blend(&cached.1, &ax, &ay, &az));
                }
            }
            (kind, dims) => {
                for s in out.iter_mut() {
                    *s += term(noise_octave(&lat, kind, dims as usize, &next()));
                }
            }
        }
    }
    for s in out.iter_mut() {
        *s = fractal_finish(spec.fractal, *s);
    }
}
