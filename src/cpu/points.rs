//! Where the twin's texels land: exact coordinates through an octave's frame (CONVENTIONS §1),
//! split into the lattice point every kind receives, and an octave's lattice view.

use crate::job::Job;
use crate::kinds::lattice::twin::{Lattice, LatticePoint, lattice_point};
use crate::spec::frames::OctaveFrame;

/// The lattice point of image texel `t` in an octave's frame (WGSL: `texel_lattice_point`,
/// which adds the same products in 32-bit words).
#[inline(always)]
pub fn texel_lattice_point(frame: &OctaveFrame, t: [u32; 3]) -> LatticePoint {
    lattice_point(&frame.texel_coordinates(t))
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
