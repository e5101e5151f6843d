//! Perlin noise in 2D and 3D as wide rows (`lattice::wide`): `Perlin2` and `Perlin3` of
//! lanes.rs, operation for operation, every value in registers, each corner's gradient picked
//! by a permute of a 16-entry table built from the lanes' own gradient functions (`wide.rs`).
//! A test checks them against the lanes' kernels bit for bit.

use super::lanes::{Perlin2Block, Perlin3Block};
use super::wide::{GRAD2, GRAD3, PERLIN2_SCALE};
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, row_of};
use crate::kinds::lattice::wide::frame::AxisPoint;
use crate::kinds::lattice::wide::hash::{WideLattice, corner_hashes};
use crate::kinds::lattice::wide::row::{WideKernel, pick};
use crate::kinds::lattice::wide::{Wide, lerp};
use crate::kinds::{Interp, KindState, LatticeKind};

/// Each lane's offset from its lower and its upper corner along one axis.
#[inline(always)]
fn offsets<W: Wide>(s: W, p: &AxisPoint<W>) -> [W::F; 2] {
    [p.frac, s.sub(p.frac, s.splat(1.0))]
}

/// 2D Perlin noise: the corners' `g . d` (mul, mul, add), blended, scaled.
pub struct Perlin2;

impl WideKernel for Perlin2 {
    const DIMS: usize = 2;
    #[inline(always)]
    fn block<W: Wide, const PRIME: bool>(
        s: W,
        seed: u32,
        _: &KindState,
        p: &[AxisPoint<W>; 4],
    ) -> W::F {
        let lat = WideLattice {
            hash_seed: seed,
            prime: PRIME,
        };
        let h = corner_hashes::<W, 2>(s, lat, [p[0].cell, p[1].cell]);
        let (x, y) = (offsets(s, &p[0]), offsets(s, &p[1]));
        let table = [s.load(&GRAD2[0]), s.load(&GRAD2[1])];
        let mut dot = [s.splat(0.0); 4];
        for n in 0..4 {
            let gx = s.permute16(h[n], table[0]);
            let gy = s.permute16(h[n], table[1]);
            dot[n] = s.add(s.mul(gx, x[n & 1]), s.mul(gy, y[n >> 1]));
        }
        let wx = p[0].weight;
        let v = lerp(
            s,
            p[1].weight,
            lerp(s, wx, dot[0], dot[1]),
            lerp(s, wx, dot[2], dot[3]),
        );
        s.mul(s.splat(PERLIN2_SCALE), v)
    }
    fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
        row_of!(Perlin2Block, lattice, isa)
    }
}

/// 3D Perlin noise: each corner's `grad3` as `gx dx + gy dy + gz dz` with components 0 or +-1
/// (exact products, so one rounding, as Ken Perlin's `u + v`), then the lerps.
pub struct Perlin3;

impl WideKernel for Perlin3 {
    const DIMS: usize = 3;
    #[inline(always)]
    fn block<W: Wide, const PRIME: bool>(
        s: W,
        seed: u32,
        _: &KindState,
        p: &[AxisPoint<W>; 4],
    ) -> W::F {
        let lat = WideLattice {
            hash_seed: seed,
            prime: PRIME,
        };
        let h = corner_hashes::<W, 3>(s, lat, [p[0].cell, p[1].cell, p[2].cell]);
        let d = [offsets(s, &p[0]), offsets(s, &p[1]), offsets(s, &p[2])];
        let table = [s.load(&GRAD3[0]), s.load(&GRAD3[1]), s.load(&GRAD3[2])];
        let mut dot = [s.splat(0.0); 8];
        for n in 0..8 {
            let g = [
                s.permute16(h[n], table[0]),
                s.permute16(h[n], table[1]),
                s.permute16(h[n], table[2]),
            ];
            let (dx, dy, dz) = (d[0][n & 1], d[1][(n >> 1) & 1], d[2][n >> 2]);
            dot[n] = s.mul_add(g[0], dx, s.mul_add(g[1], dy, s.mul(g[2], dz)));
        }
        let w = [p[0].weight, p[1].weight, p[2].weight];
        let y0 = lerp(
            s,
            w[1],
            lerp(s, w[0], dot[0], dot[1]),
            lerp(s, w[0], dot[2], dot[3]),
        );
        let y1 = lerp(
            s,
            w[1],
            lerp(s, w[0], dot[4], dot[5]),
            lerp(s, w[0], dot[6], dot[7]),
        );
        lerp(s, w[2], y0, y1)
    }
    fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
        row_of!(Perlin3Block, lattice, isa)
    }
}

/// Perlin noise's wide row in 2D and 3D, where the instruction set and lattice have one.
pub fn wide_row(
    dims: u32,
    _: Interp,
    lattice: LatticeKind,
    isa: InstructionSet,
) -> Option<NoiseRow> {
    match dims {
        2 => pick::<Perlin2>(lattice, isa),
        3 => pick::<Perlin3>(lattice, isa),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::wide::row::check::wide_rows_equal_lanes;

    #[test]
    fn perlin_wide_rows_equal_the_lanes_rows() {
        let kind: KindState = bytemuck::Zeroable::zeroed();
        wide_rows_equal_lanes::<Perlin2>(&kind);
        wide_rows_equal_lanes::<Perlin3>(&kind);
    }
}
