//! Simplex noise, 2D-4D, in f32: one kernel per dimension written once over [`Wide`] (16
//! lanes on AVX-512, AVX2 or any CPU), value and gradient, mirroring simplex.wgsl function by
//! function; the corner order decided on the f32 fractions (the twin's 24-bit keys, exactly).
//! The simplex's corners are `corners.rs`'; the points come from a row's cells stepped in
//! registers (`lattice::wide`, hash lattices) or from the lanes' points (every lattice).

use super::corners::{
    CornerHash, SimplexCorners, TableHash, VectorHash, simplex2_corners, simplex3_corners,
    simplex4_corners,
};
use crate::kinds::lattice::kernel::{InstructionSet, Kernel, NoiseRow, row_of};
use crate::kinds::lattice::lane_dual::{DualBlock, KernelD, NoiseRowD, row_d_of};
use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
use crate::kinds::lattice::lanes::{LANES, Points};
use crate::kinds::lattice::wide::hash::WideLattice;
use crate::kinds::lattice::wide::{Wide, unrolled};
use crate::kinds::{Interp, KindState, LatticeKind};

/// `g . d` over the first D axes, summed in axis order.
#[inline(always)]
fn dot<W: Wide, const D: usize>(s: W, g: &[W::F; D], d: &[W::F; D]) -> W::F {
    let mut sum = s.mul(g[0], d[0]);
    unrolled!(a in [0, 1, 2, 3] {
        if a >= 1 && a < D {
            sum = s.add(sum, s.mul(g[a], d[a]));
        }
    });
    sum
}

/// The corners' contributions `t^4 (g . d)`, `t = r2 - |d|^2` (zero where `t < 0`), summed
/// in order from zero, times the scale (simplex_sum).
#[inline(always)]
pub fn simplex_sum<W: Wide, const D: usize, const N: usize>(
    s: W,
    c: &SimplexCorners<W, D, N>,
) -> W::F {
    let zero = s.splat(0.0);
    let mut sum = zero;
    unrolled!(m in [0, 1, 2, 3, 4] {
        if m < N {
            let d = &c.d[m];
            let mut t = s.splat(c.r2);
            unrolled!(a in [0, 1, 2, 3] {
                if a < D {
                    t = s.sub(t, s.mul(d[a], d[a]));
                }
            });
            let t2 = s.mul(t, t);
            let v = s.mul(s.mul(t2, t2), dot(s, &c.g[m], d));
            sum = s.add(sum, s.select(s.lt(t, zero), zero, v));
        }
    });
    s.mul(s.splat(c.scale), sum)
}

/// The sum with its gradient along the unskewed axes (simplex_d): each corner adds
/// `t^4 g - 8 t^3 (g . d) d`, `t = r2 - |d|^2` (nothing where `t < 0`); into `out` (value,
/// then the gradient per axis, zero past D).
#[inline(always)]
pub fn simplex_d<W: Wide, const D: usize, const N: usize>(
    s: W,
    c: &SimplexCorners<W, D, N>,
    out: &mut DualBlock,
) {
    let zero = s.splat(0.0);
    let (mut value, mut grad) = (zero, [zero; 4]);
    unrolled!(m in [0, 1, 2, 3, 4] {
        if m < N {
            let (d, g) = (&c.d[m], &c.g[m]);
            let mut squares = s.mul(d[0], d[0]);
            unrolled!(a in [0, 1, 2, 3] {
                if a >= 1 && a < D {
                    squares = s.add(squares, s.mul(d[a], d[a]));
                }
            });
            let t = s.sub(s.splat(c.r2), squares);
            let gd = dot(s, g, d);
            let t2 = s.mul(t, t);
            let outside = s.lt(t, zero);
            value = s.add(value, s.select(outside, zero, s.mul(s.mul(t2, t2), gd)));
            let edge = s.mul(s.mul(s.mul(s.splat(8.0), t2), t), gd);
            unrolled!(a in [0, 1, 2, 3] {
                if a < D {
                    let slope = s.sub(s.mul(s.mul(t2, t2), g[a]), s.mul(edge, d[a]));
                    grad[a] = s.add(grad[a], s.select(outside, zero, slope));
                }
            });
        }
    });
    let scale = s.splat(c.scale);
    s.store(&mut out[0], s.mul(scale, value));
    unrolled!(a in [0, 1, 2, 3] {
        s.store(&mut out[1 + a], s.mul(scale, grad[a]));
    });
}

/// The lanes' skewed fractions of a block.
#[inline(always)]
fn fractions<W: Wide, const D: usize>(s: W, p: &Points) -> [W::F; 4] {
    let mut f = [s.splat(0.0); 4];
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            f[a] = s.load(&p.axis[a].frac);
        }
    });
    f
}

/// The lanes' cells of a block.
#[inline(always)]
fn cells<W: Wide, const D: usize>(s: W, p: &Points) -> [W::U; 4] {
    let mut c = [s.splat_u(0); 4];
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            c[a] = s.load_u(&p.axis[a].cell);
        }
    });
    c
}

/// What a simplex kernel does with its corners: the noise, or the noise with its gradient.
trait Finish<W: Wide> {
    type Out;
    fn finish<const D: usize, const N: usize>(self, s: W, c: &SimplexCorners<W, D, N>)
    -> Self::Out;
}

/// Simplex noise in `D` dimensions from a block's fractions, its hashes from `hash`.
#[inline(always)]
fn simplex_corners_then<W: Wide, H: CornerHash<W>, F: Finish<W>, const D: usize>(
    s: W,
    hash: &H,
    f: [W::F; 4],
    then: F,
) -> F::Out {
    match D {
        2 => then.finish(s, &simplex2_corners(s, hash, f)),
        3 => then.finish(s, &simplex3_corners(s, hash, f)),
        _ => then.finish(s, &simplex4_corners(s, hash, f)),
    }
}

/// The noise alone.
struct Value;

impl<W: Wide> Finish<W> for Value {
    type Out = W::F;
    #[inline(always)]
    fn finish<const D: usize, const N: usize>(self, s: W, c: &SimplexCorners<W, D, N>) -> W::F {
        simplex_sum(s, c)
    }
}

/// The noise with its gradient, into a block.
struct WithGradient<'a>(&'a mut DualBlock);

impl<W: Wide> Finish<W> for WithGradient<'_> {
    type Out = ();
    #[inline(always)]
    fn finish<const D: usize, const N: usize>(self, s: W, c: &SimplexCorners<W, D, N>) {
        simplex_d(s, c, self.0);
    }
}

/// A block of the lanes' points through `then`, its hashes vector or table ones.
#[inline(always)]
fn simplex_block<W: Wide, F: Finish<W>, const D: usize>(
    s: W,
    lat: &Lattice,
    p: &Points,
    then: F,
) -> F::Out {
    let f = fractions::<W, D>(s, p);
    if lat.hashed {
        let lattice = WideLattice {
            hash_seed: lat.hash_seed,
            prime: lat.prime,
        };
        let hash = VectorHash::new::<D>(s, lattice, cells::<W, D>(s, p));
        simplex_corners_then::<W, _, F, D>(s, &hash, f, then)
    } else {
        simplex_corners_then::<W, _, F, D>(s, &TableHash { lat, p }, f, then)
    }
}

/// Simplex noise in `D` dimensions over a block of the lanes' points, on lattice `L` (a
/// `LatticeKind` code): its value ([`Kernel`]) or with its gradient ([`KernelD`]).
pub struct SimplexBlock<const D: usize, const L: u32>;

impl<const D: usize, const L: u32> Kernel for SimplexBlock<D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(s: W, lat: &Lattice, _: &KindState, p: &Points, out: &mut [f32; LANES]) {
        s.store(out, simplex_block::<W, _, D>(s, lat, p, Value));
    }
}

impl<const D: usize, const L: u32> KernelD for SimplexBlock<D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(
        s: W,
        lat: &Lattice,
        _: &KindState,
        _: Interp,
        p: &Points,
        out: &mut DualBlock,
    ) {
        simplex_block::<W, _, D>(s, lat, p, WithGradient(out));
    }
}

type Simplex2Block<const L: u32> = SimplexBlock<2, L>;
type Simplex3Block<const L: u32> = SimplexBlock<3, L>;
type Simplex4Block<const L: u32> = SimplexBlock<4, L>;

/// The dual row function of simplex noise in `dims` dimensions.
pub fn row_d(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRowD {
    match dims {
        2 => row_d_of!(Simplex2Block, lattice, isa),
        3 => row_d_of!(Simplex3Block, lattice, isa),
        _ => row_d_of!(Simplex4Block, lattice, isa),
    }
}

/// The row function of simplex noise in `dims` dimensions.
pub fn row(dims: u32, _: Interp, lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
    match dims {
        2 => row_of!(Simplex2Block, lattice, isa),
        3 => row_of!(Simplex3Block, lattice, isa),
        _ => row_of!(Simplex4Block, lattice, isa),
    }
}

/// Simplex noise as wide rows: its cells stepped in registers and hashed there.
#[cfg(target_arch = "x86_64")]
mod rows {
    use super::*;
    use crate::kinds::lattice::kernel::NoisePairRow;
    use crate::kinds::lattice::wide::frame::AxisPoint;
    use crate::kinds::simplex::corners::{
        SimplexShape, simplex2_shape, simplex3_shape, simplex4_shape,
    };

    /// Each corner's falloff `t^4`, `t = r2 - |d|^2` as [`simplex_sum`] computes it, zero where
    /// `t < 0`: the part of the sum noises at the same points share, whatever their seeds.
    #[inline(always)]
    fn falloffs<W: Wide, const D: usize, const N: usize>(
        s: W,
        c: &SimplexShape<W, D, N>,
    ) -> [W::F; N] {
        let zero = s.splat(0.0);
        let mut w = [zero; N];
        unrolled!(m in [0, 1, 2, 3, 4] {
            if m < N {
                let d = &c.d[m];
                let mut t = s.splat(c.r2);
                unrolled!(a in [0, 1, 2, 3] {
                    if a < D {
                        t = s.sub(t, s.mul(d[a], d[a]));
                    }
                });
                let t2 = s.mul(t, t);
                w[m] = s.select(s.lt(t, zero), zero, s.mul(t2, t2));
            }
        });
        w
    }

    /// [`simplex_sum`] from the corners' falloffs and gradients: `w (g . d)` summed in order from
    /// zero, times the scale. A corner outside the kernel adds `0 (g . d)`, a zero of either sign
    /// where [`simplex_sum`] adds +0: the same sum, bit for bit (it starts at +0, so it is never
    /// -0, and adding a zero of either sign leaves any other value as it is).
    #[inline(always)]
    fn weighted_sum<W: Wide, const D: usize, const N: usize>(
        s: W,
        c: &SimplexShape<W, D, N>,
        w: &[W::F; N],
        g: &[[W::F; D]; N],
    ) -> W::F {
        let mut sum = s.splat(0.0);
        unrolled!(m in [0, 1, 2, 3, 4] {
            if m < N {
                sum = s.add(sum, s.mul(w[m], dot(s, &g[m], &c.d[m])));
            }
        });
        s.mul(s.splat(c.scale), sum)
    }

    /// Simplex noise at a block of points under each of `seeds` (the seeds a hash lattice's):
    /// the shape and falloffs once, then each seed's corner hashes, gradients and sum.
    #[inline(always)]
    fn simplex_seeds<W: Wide, const D: usize, const N: usize, const S: usize>(
        s: W,
        c: &SimplexShape<W, D, N>,
        cells: [W::U; 4],
        prime: bool,
        seeds: [u32; S],
    ) -> [W::F; S] {
        let w = falloffs(s, c);
        let lattice = WideLattice {
            hash_seed: 0,
            prime,
        };
        let corners = VectorHash::new::<D>(s, lattice, cells);
        let mut values = [s.splat(0.0); S];
        for (value, &seed) in values.iter_mut().zip(&seeds) {
            let hash = corners.reseeded(seed);
            *value = weighted_sum(s, c, &w, &c.gradients(s, &hash));
        }
        values
    }
    use crate::kinds::lattice::wide::row::{WideKernel, pick, pick_pair};

    /// Simplex noise in `D` dimensions as a wide row.
    pub struct SimplexRow<const D: usize>;

    impl<const D: usize> WideKernel for SimplexRow<D> {
        const DIMS: usize = D;
        const WEIGHTS: bool = false;
        #[inline(always)]
        fn block<W: Wide, const PRIME: bool>(
            s: W,
            seed: u32,
            kind: &KindState,
            p: &[AxisPoint<W>; 4],
        ) -> W::F {
            let [value] = Self::block_seeds::<W, PRIME, 1>(s, [seed], kind, p);
            value
        }
        #[inline(always)]
        fn block_seeds<W: Wide, const PRIME: bool, const N: usize>(
            s: W,
            seeds: [u32; N],
            _: &KindState,
            p: &[AxisPoint<W>; 4],
        ) -> [W::F; N] {
            let cells = [p[0].cell, p[1].cell, p[2].cell, p[3].cell];
            let f = [p[0].frac, p[1].frac, p[2].frac, p[3].frac];
            match D {
                2 => simplex_seeds(s, &simplex2_shape(s, f), cells, PRIME, seeds),
                3 => simplex_seeds(s, &simplex3_shape(s, f), cells, PRIME, seeds),
                _ => simplex_seeds(s, &simplex4_shape(s, f), cells, PRIME, seeds),
            }
        }
        fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow {
            row(D as u32, Interp::Quintic, lattice, isa)
        }
    }

    /// Simplex noise's pair rows (two seeds at the same points), where the instruction set and
    /// lattice have a wide row.
    pub fn wide_pair_row(
        dims: u32,
        _: Interp,
        lattice: LatticeKind,
        isa: InstructionSet,
    ) -> Option<NoisePairRow> {
        match dims {
            2 => pick_pair::<SimplexRow<2>>(lattice, isa),
            3 => pick_pair::<SimplexRow<3>>(lattice, isa),
            _ => pick_pair::<SimplexRow<4>>(lattice, isa),
        }
    }

    /// Simplex noise's wide row, where the instruction set and lattice have one.
    pub fn wide_row(
        dims: u32,
        _: Interp,
        lattice: LatticeKind,
        isa: InstructionSet,
    ) -> Option<NoiseRow> {
        match dims {
            2 => pick::<SimplexRow<2>>(lattice, isa),
            3 => pick::<SimplexRow<3>>(lattice, isa),
            _ => pick::<SimplexRow<4>>(lattice, isa),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::kinds::lattice::wide::row::check::{
            pair_rows_equal_lanes, wide_rows_equal_lanes,
        };

        #[test]
        fn simplex_wide_rows_equal_the_lanes_rows() {
            let kind: KindState = bytemuck::Zeroable::zeroed();
            wide_rows_equal_lanes::<SimplexRow<2>>(&kind);
            wide_rows_equal_lanes::<SimplexRow<3>>(&kind);
            wide_rows_equal_lanes::<SimplexRow<4>>(&kind);
        }

        /// Two seeds in one pass give each seed's noise; kind states that differ (simplex
        /// reads none, but the pair must not assume it) run apart.
        #[test]
        fn simplex_pair_rows_equal_the_lanes_rows_of_each_seed() {
            let kind: KindState = bytemuck::Zeroable::zeroed();
            let mut other = kind;
            bytemuck::bytes_of_mut(&mut other)[0] = 1;
            pair_rows_equal_lanes::<SimplexRow<2>>(&kind, &other);
            pair_rows_equal_lanes::<SimplexRow<3>>(&kind, &other);
            pair_rows_equal_lanes::<SimplexRow<4>>(&kind, &other);
        }
    }
}
#[cfg(target_arch = "x86_64")]
pub use rows::{wide_pair_row, wide_row};

#[cfg(test)]
mod tests {
    use super::super::corners::{simplex_grad3, simplex_grad4};
    use crate::tables::{SIMPLEX_GRAD3, SIMPLEX_GRAD4};

    /// Every instruction set gives the portable kernel's bits, value and gradient
    /// (`kernel::check`).
    #[test]
    fn every_instruction_set_gives_the_portable_kernels_bits() {
        use super::*;
        use crate::kinds::lattice::kernel::check::{every_isa_gives_the_portable_bits, no_params};
        every_isa_gives_the_portable_bits(
            "simplex",
            &[Interp::Quintic],
            &super::super::SIMPLEX,
            &no_params(),
        );
    }

    /// The bit arithmetic gives the tables' entries (CONVENTIONS §8) for every residue.
    #[test]
    fn gradients_from_bits_are_the_tables() {
        for h in 0..64u32 {
            let g = SIMPLEX_GRAD3[(h % 12) as usize];
            let want = [g[0] as f32, g[1] as f32, g[2] as f32, 0.0];
            assert_eq!(simplex_grad3(h), want, "grad3 of hash {h}");
            let want = SIMPLEX_GRAD4[(h % 32) as usize].map(|v| v as f32);
            assert_eq!(simplex_grad4(h), want, "grad4 of hash {h}");
        }
    }
}
