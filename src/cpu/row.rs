//! Row rendering for the CPU backend. Per texel it performs exactly the operations of
//! `noise_at_texel`, in the same order, so the values are bit-identical (tests assert it); it
//! only arranges them for speed: octaves outermost over a row, each octave by its kind's row
//! function (`KindInfo::twin_row`: the x coordinate advanced by one exact step per texel, and
//! for Perlin 1D-3D the y and z frames once per row and corner hashes reused while texels share
//! a lattice cell).

use super::fractal::{fractal_finish, fractal_term};
use super::points::instance_lattice;
use crate::job::{FlatView, Job};

/// Fills `out` (`out.len()` texels) with the noise of image texels (x0 + i, j, k) of a flat job.
pub fn render_row(job: &Job, flat: &FlatView, [x0, j, k]: [u32; 3], out: &mut [f64]) {
    let spec = &flat.spec;
    let row = spec.kind.info().twin_row;
    let mut noise = vec![0.0; out.len()];
    out.fill(0.0);
    for o in 0..flat.octaves() {
        let lat = instance_lattice(job, o);
        let amplitude = flat.weights[o];
        let frame = job.frame(o);
        // The exact coordinates of the row's first texel, then one exact step per texel.
        let start = frame.texel_coordinates([x0, j, k]);
        row(&lat, spec.dims as usize, start, frame.step[0], &mut noise);
        for (s, &n) in out.iter_mut().zip(&noise) {
            *s += amplitude * fractal_term(spec.fractal, n);
        }
    }
    for s in out.iter_mut() {
        *s = fractal_finish(spec.fractal, *s);
    }
}
