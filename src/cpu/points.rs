//! Where the twin's texels land: exact coordinates through an octave's frame (CONVENTIONS §1),
//! split into the lattice point every kind receives, and an octave's lattice view.

use crate::fixed::Fixed;
use crate::job::Job;
use crate::kinds::lattice::twin::{Lattice, LatticePoint, lattice_point};
use crate::spec::frames::OctaveFrame;

/// The exact lattice coordinate of image texel `t` in an octave's frame. Validation keeps
/// every texel of the image below 2^62 cells, so the sum cannot overflow there.
#[inline(always)]
pub fn texel_coordinates(frame: &OctaveFrame, t: [u32; 3]) -> [Fixed; 4] {
    let mut l = frame.origin;
    for (b, &n) in t.iter().enumerate() {
        for a in 0..4 {
            l[a].0 = l[a]
                .0
                .wrapping_add(frame.step[b][a].0.wrapping_mul(i128::from(n)));
        }
    }
    l
}

/// The lattice point of image texel `t` in an octave's frame (WGSL: `texel_lattice_point`,
/// which adds the same products in 32-bit words).
#[inline(always)]
pub fn texel_lattice_point(frame: &OctaveFrame, t: [u32; 3]) -> LatticePoint {
    lattice_point(&texel_coordinates(frame, t))
}

/// Noise instance `i`'s lattice: its tables, tiling period, interpolation and parameters.
pub fn instance_lattice(job: &Job, i: usize) -> Lattice<'_> {
    let inst = &job.plan().instances[i];
    let tables = job.tables(i);
    Lattice {
        perm: &tables.perm,
        gradients: &tables.gradients,
        values: &tables.values,
        period: job.period(i),
        interp: inst.interp,
        params: &inst.params,
        salt: tables.impulse_salt,
        mode: inst.lattice,
        hash_seed: tables.hash_seed,
    }
}
