//! 2D simplex noise as a wide row (`lattice::wide`): `simplex2` of lanes.rs in registers, the
//! corner order by a compare, the middle corner's cells by selects, each corner's gradient by
//! permutes of tables built from the lanes' `simplex_grad3` at `h % 12` (a multiply-high, not
//! a division). A test checks it against the lanes' kernel.

use super::lanes::{Simplex2Block, simplex_grad3};
use crate::kinds::lattice::kernel::{InstructionSet, NoiseRow, row_of};
use crate::kinds::lattice::wide::Wide;
use crate::kinds::lattice::wide::frame::AxisPoint;
use crate::kinds::lattice::wide::hash::cell_hash2;
use crate::kinds::lattice::wide::row::{WideKernel, pick};
use crate::kinds::{Interp, KindState, LatticeKind};
use crate::tables::G2;

const SIMPLEX_G2: f32 = G2 as f32;

/// Component `c` of `simplex_grad3` at every residue 0..12 (the rest unused).
const fn grad_table(c: usize) -> [f32; 16] {
    let mut t = [0.0; 16];
    let mut g = 0;
    while g < 12 {
        t[g] = simplex_grad3(g as u32)[c];
        g += 1;
    }
    t
}

const GRAD: [[f32; 16]; 2] = [grad_table(0), grad_table(1)];

/// `h % 12` per lane: `h - 12 floor(h / 12)`, the quotient as `mulhi(h, 0xAAAAAAAB) >> 3`.
#[inline(always)]
fn mod12<W: Wide>(s: W, h: W::U) -> W::U {
    let q = s.shr_u::<3>(s.mul_hi_u(h, s.splat_u(0xAAAA_AAAB)));
    s.sub_u(h, s.mul_u(q, s.splat_u(12)))
}

/// One corner's contribution, `simplex_corner`: `t^4 (g . d)`, `t = 0.5 - |d|^2`, 0 where
/// `t < 0`.
#[inline(always)]
fn corner<W: Wide>(s: W, h: W::U, dx: W::F, dy: W::F) -> W::F {
    let g = mod12(s, h);
    let (table_x, table_y) = (s.load(&GRAD[0]), s.load(&GRAD[1]));
    let dot = s.add(
        s.mul(s.permute16(g, table_x), dx),
        s.mul(s.permute16(g, table_y), dy),
    );
    let t = s.sub(s.sub(s.splat(0.5), s.mul(dx, dx)), s.mul(dy, dy));
    let t2 = s.mul(t, t);
    let v = s.mul(s.mul(t2, t2), dot);
    s.select(s.lt(t, s.splat(0.0)), s.splat(0.0), v)
}

/// 2D simplex noise.
pub struct Simplex2;

impl WideKernel for Simplex2 {
    const DIMS: usize = 2;
    const WEIGHTS: bool = false;
    #[inline(always)]
    fn block<W: Wide, const PRIME: bool>(
        s: W,
        seed: u32,
        _: &KindState,
        p: &[AxisPoint<W>; 4],
    ) -> W::F {
        let (u, v) = (p[0].frac, p[1].frac);
        let t = s.mul(s.add(u, v), s.splat(SIMPLEX_G2));
        let (x0, y0) = (s.sub(u, t), s.sub(v, t));
        // The middle corner steps along x where u > v, else along y.
        let along_x = s.lt(v, u);
        let (one, zero) = (s.splat(1.0), s.splat(0.0));
        let (i1, j1) = (s.select(along_x, one, zero), s.select(along_x, zero, one));
        let (g2, g2_2) = (s.splat(SIMPLEX_G2), s.splat(2.0 * SIMPLEX_G2));
        let (cx, cy) = (p[0].cell, p[1].cell);
        let (cx1, cy1) = (s.add_u(cx, s.splat_u(1)), s.add_u(cy, s.splat_u(1)));
        let h = [
            cell_hash2::<W, PRIME>(s, seed, cx, cy),
            cell_hash2::<W, PRIME>(
                s,
                seed,
                s.select_u(along_x, cx1, cx),
                s.select_u(along_x, cy, cy1),
            ),
            cell_hash2::<W, PRIME>(s, seed, cx1, cy1),
        ];
        let mut sum = s.add(zero, corner(s, h[0], x0, y0));
        let (x1, y1) = (s.add(s.sub(x0, i1), g2), s.add(s.sub(y0, j1), g2));
        sum = s.add(sum, corner(s, h[1], x1, y1));
        let (x2, y2) = (s.add(s.sub(x0, one), g2_2), s.add(s.sub(y0, one), g2_2));
        sum = s.add(sum, corner(s, h[2], x2, y2));
        s.mul(s.splat(70.0), sum)
    }
    fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
        row_of!(Simplex2Block, lattice, isa)
    }
}

/// Simplex noise's wide row in 2D, where the instruction set and lattice have one.
pub fn wide_row(
    dims: u32,
    _: Interp,
    lattice: LatticeKind,
    isa: InstructionSet,
) -> Option<NoiseRow> {
    if dims == 2 {
        pick::<Simplex2>(lattice, isa)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::wide::row::check::wide_rows_equal_lanes;

    #[test]
    fn simplex_wide_rows_equal_the_lanes_rows() {
        let kind: KindState = bytemuck::Zeroable::zeroed();
        wide_rows_equal_lanes::<Simplex2>(&kind);
    }

    /// The multiply-high residue is `%` on edge and random words.
    #[test]
    fn mod12_is_the_remainder() {
        use crate::kinds::lattice::wide::avx2::Avx2;
        if !InstructionSet::Avx2.available() {
            return;
        }
        // SAFETY: AVX2 is available (checked above); the token only makes its methods callable.
        let s = unsafe { Avx2::new() };
        let mut words = [
            0u32,
            1,
            11,
            12,
            13,
            u32::MAX,
            u32::MAX - 11,
            0x8000_0000,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ];
        for n in 0..2000u32 {
            words[8 + (n as usize % 8)] = n.wrapping_mul(2_654_435_761);
            // SAFETY: AVX2 is available (checked above).
            let got = unsafe { mod12_array(s, &words) };
            let want = words.map(|w| w % 12);
            assert_eq!(got, want);
        }
    }

    #[target_feature(enable = "avx2,fma")]
    fn mod12_array(s: crate::kinds::lattice::wide::avx2::Avx2, words: &[u32; 16]) -> [u32; 16] {
        let r = mod12(s, s.load_u(words));
        let mut out = [0u32; 16];
        // SAFETY: `out` holds the 16 words written (two halves of 8).
        unsafe {
            std::arch::x86_64::_mm256_storeu_si256(out.as_mut_ptr().cast(), r[0]);
            std::arch::x86_64::_mm256_storeu_si256(out[8..].as_mut_ptr().cast(), r[1]);
        }
        out
    }
}
