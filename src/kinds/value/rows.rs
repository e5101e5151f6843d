//! Value noise in 2D and 3D as wide rows (`lattice::wide`): the corners' hashes, lattice
//! values and lerps of `Value`'s corners in lanes.rs, operation for operation, every value in
//! registers. A test checks them against the lanes' kernels bit for bit.

use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, row_of};
use crate::kinds::lattice::wide::frame::AxisPoint;
use crate::kinds::lattice::wide::hash::{WideLattice, corner_hashes, hash_value};
use crate::kinds::lattice::wide::row::{WideKernel, pick};
use crate::kinds::lattice::wide::{Wide, lerp};
use crate::kinds::value::lanes::{Value2Block, Value3Block};
use crate::kinds::{Interp, KindState, LatticeKind};

/// The lattice values of the corners of each lane's cell, blended as `interp_corners`: x,
/// then y, then z.
#[inline(always)]
fn value<W: Wide, const D: usize, const PRIME: bool>(
    s: W,
    seed: u32,
    p: &[AxisPoint<W>; 4],
) -> W::F {
    let lat = WideLattice {
        hash_seed: seed,
        prime: PRIME,
    };
    let mut cells = [p[0].cell; D];
    for a in 1..D {
        cells[a] = p[a].cell;
    }
    let h = corner_hashes::<W, D>(s, lat, cells);
    let mut v = [s.splat(0.0); 8];
    for n in 0..(1 << D) {
        v[n] = hash_value(s, h[n]);
    }
    let mut n = 1 << D;
    for a in 0..D {
        n /= 2;
        for m in 0..n {
            v[m] = lerp(s, p[a].weight, v[2 * m], v[2 * m + 1]);
        }
    }
    v[0]
}

/// 2D value noise.
pub struct Value2;

impl WideKernel for Value2 {
    const DIMS: usize = 2;
    #[inline(always)]
    fn block<W: Wide, const PRIME: bool>(
        s: W,
        seed: u32,
        _: &KindState,
        p: &[AxisPoint<W>; 4],
    ) -> W::F {
        value::<W, 2, PRIME>(s, seed, p)
    }
    fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
        row_of!(Value2Block, lattice, isa)
    }
}

/// 3D value noise.
pub struct Value3;

impl WideKernel for Value3 {
    const DIMS: usize = 3;
    #[inline(always)]
    fn block<W: Wide, const PRIME: bool>(
        s: W,
        seed: u32,
        _: &KindState,
        p: &[AxisPoint<W>; 4],
    ) -> W::F {
        value::<W, 3, PRIME>(s, seed, p)
    }
    fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
        row_of!(Value3Block, lattice, isa)
    }
}

/// Value noise's wide row in 2D and 3D (not Catmull-Rom), where the instruction set and
/// lattice have one.
pub fn wide_row(
    dims: u32,
    interp: Interp,
    lattice: LatticeKind,
    isa: InstructionSet,
) -> Option<NoiseRow> {
    match (dims, interp) {
        (_, Interp::CatmullRom) => None,
        (2, _) => pick::<Value2>(lattice, isa),
        (3, _) => pick::<Value3>(lattice, isa),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::wide::row::check::wide_rows_equal_lanes;

    #[test]
    fn value_wide_rows_equal_the_lanes_rows() {
        let kind: KindState = bytemuck::Zeroable::zeroed();
        wide_rows_equal_lanes::<Value2>(&kind);
        wide_rows_equal_lanes::<Value3>(&kind);
    }
}
