//! Analytic derivatives in the lanes (CONVENTIONS §12): a kind's value with its gradient
//! along the lattice axes, lane by lane in the GPU's f32, over a run of a row's texels;
//! mirrors shaders/noise/derivative.wgsl function by function (the twin's is `dual.rs`). Each
//! kind's `lanes.rs` declares its dual kernels beside its value kernels.

use super::block_hashes::{block_axes, block_hashes};
use super::kernel::{InstructionSet, NoiseInputs, per_isa};
use super::lane_hash::LaneLattice as Lattice;
use super::lanes::store_block;
use super::lanes::{LANES, Points, RowFrame, block_points, load_block, shift_points};
use super::math::cos_2pi;
use super::wide::frame::{AxisPoint, weights};
use super::wide::scalar::Scalar;
use super::wide::{Wide, lerp, unrolled};
use crate::kinds::{Interp, KindState};
use std::marker::PhantomData;

/// A block's values (run 0) and lattice gradients (runs 1-4), lane by lane.
pub type DualBlock = [[f32; LANES]; 5];

/// A kind in `DIMS` dimensions with its gradient over a block of lanes.
pub trait KernelD {
    /// Lattice axes the kind reads.
    const DIMS: usize;
    /// The lattice, a `LatticeKind` code (each kernel type is generic over it).
    const LATTICE: u32;
    /// An integer-hash lattice (or the permutation table).
    const HASHED: bool = Self::LATTICE != crate::kinds::LatticeKind::Table as u32;
    /// The prime lattice's hash (where HASHED; else xxHash32's).
    const PRIME: bool = Self::LATTICE == crate::kinds::LatticeKind::Prime as u32;
    /// Every lane's value and lattice gradient, computed with the instruction set of token `s`
    /// (as [`super::kernel::Kernel::block`]).
    fn block<W: Wide>(
        s: W,
        lat: &Lattice,
        kind: &KindState,
        interp: Interp,
        p: &Points,
        out: &mut DualBlock,
    );
}

/// Writes one noise's values (`out[0]`) and lattice gradients (`out[1 + a]` along axis a) over
/// `out[0].len()` texels of a row from texel `first`, each point moved by `shift` cells where
/// given: a plan's noise step with gradients.
pub type NoiseRowD =
    fn(&NoiseInputs, &RowFrame, usize, Option<&[Vec<f32>; 4]>, &mut [&mut [f32]; 5]);

/// The dual row loop, inlined into one function per instruction set below.
#[inline(always)]
fn noise_row_d<K: KernelD, W: Wide>(
    s: W,
    inputs: &NoiseInputs,
    row: &RowFrame,
    first: usize,
    shift: Option<&[Vec<f32>; 4]>,
    out: &mut [&mut [f32]; 5],
) {
    let lat = Lattice {
        hashed: K::HASHED,
        prime: K::PRIME,
        share_corners: false,
        ..inputs.lat
    };
    let mut p = Points::default();
    let mut moved = [[0.0f32; LANES]; 4];
    let n = out[0].len();
    for b in 0..n.div_ceil(LANES) {
        let at = (first + b * LANES, b == 0 || shift.is_some());
        block_points(row, inputs.interp, &lat.period, K::DIMS, at, &mut p);
        if let Some(shift) = shift {
            for a in 0..K::DIMS {
                load_block(&shift[a][b * LANES..], &mut moved[a]);
            }
            shift_points(&mut p, &moved, inputs.interp, &lat.period, K::DIMS);
        }
        // Every lane into fixed arrays, then the texels copied out: loops of constant length
        // writing whole registers vectorize (one of the row's length kept them scalar).
        let mut block = [[0.0f32; LANES]; 5];
        K::block(s, &lat, inputs.kind, inputs.interp, &p, &mut block);
        let texels = b * LANES..(b * LANES + LANES).min(n);
        for (run, lanes) in out.iter_mut().zip(&block) {
            store_block(&mut run[texels.clone()], lanes);
        }
    }
}

per_isa!(noise_row_d<KernelD> -> NoiseRowD, pick_d, NoiseRowsD: noise_row_d_baseline,
    noise_row_d_avx2, noise_row_d_avx512, (inputs: &NoiseInputs, row: &RowFrame, first: usize,
        shift: Option<&[Vec<f32>; 4]>, out: &mut [&mut [f32]; 5]));

/// The dual row function of kernel `$k` (generic over the lattice) for `lattice` and `isa`.
macro_rules! row_d_of {
    ($k:ident, $lattice:expr, $isa:expr) => {
        $crate::kinds::lattice::lane_dual::pick_d::<$k<0>, $k<1>, $k<2>>($lattice, $isa)
    };
}
pub(crate) use row_d_of;

/// The derivative of `interp_weight` in t (CONVENTIONS §3), as derivative.wgsl computes it,
/// for every lane (the match outside the lane loops, so each vectorizes).
#[inline(always)]
pub fn interp_weight_derivatives(t: &[f32; LANES], interp: Interp) -> [f32; LANES] {
    let mut d = [0.0; LANES];
    match interp {
        Interp::Nearest => {}
        Interp::Linear => d = [1.0; LANES],
        Interp::Cosine => {
            // sin(pi t) = cos(2 pi (t/2 - 1/4)); both steps exact for t in [0, 1].
            for l in 0..LANES {
                d[l] = 0.5 * std::f32::consts::PI * cos_2pi(Scalar, 0.5 * t[l] - 0.25);
            }
        }
        Interp::Cubic => {
            for l in 0..LANES {
                d[l] = 6.0 * t[l] * (1.0 - t[l]);
            }
        }
        Interp::Quintic | Interp::CatmullRom => {
            for l in 0..LANES {
                let t = t[l];
                d[l] = 30.0 * t * t * (t - 1.0) * (t - 1.0);
            }
        }
    }
    d
}

/// `interp_corners` with gradients over a block: each lerp along axis a (weights `w`) also
/// lerps the corner gradients and adds `w'_a (upper - lower)` to component a (`dw`, the
/// weights' derivatives). `v[n]` and `g[n][c]` hold corner n's value and gradient component c;
/// components past `D` are zero and stay so, so they are not computed.
#[inline(always)]
pub fn interp_corners_d<W: Wide, const D: usize>(
    s: W,
    v: &mut [W::F; 16],
    g: &mut [[W::F; 4]; 16],
    w: [W::F; 4],
    dw: [W::F; 4],
) {
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            let n = (1 << D) >> (a + 1);
            unrolled!(m in [0, 1, 2, 3, 4, 5, 6, 7] {
                if m < n {
                    let (lo, hi) = (v[2 * m], v[2 * m + 1]);
                    let rise = s.sub(hi, lo);
                    v[m] = s.add(lo, s.mul(w[a], rise));
                    unrolled!(c in [0, 1, 2, 3] {
                        if c < D {
                            g[m][c] = lerp(s, w[a], g[2 * m][c], g[2 * m + 1][c]);
                        }
                    });
                    g[m][a] = s.add(g[m][a], s.mul(dw[a], rise));
                }
            });
        }
    });
}

/// What a corner kind's corner contributes, from its hash: a gradient g (the corner's value is
/// `g . (f - b)`: Perlin, classic gradient noise) or a value with no gradient (value noise).
/// A trait rather than a closure, so that it inlines into each instruction set's kernel.
pub trait CornerKind {
    /// Whether corners carry gradients (else values).
    const GRADIENT: bool;
    /// The block's corner hashes (`block_hashes`; value noise takes the table's values there).
    #[inline(always)]
    fn hashes<W: Wide, const D: usize>(s: W, lat: &Lattice, p: &Points) -> [W::U; 16] {
        block_hashes::<W, D, false>(s, lat, p)
    }
    /// The gradient (or, in component 0, the value) of the corner whose hash is `h`, zero
    /// past component `D`.
    fn corner<W: Wide, const D: usize>(s: W, lat: &Lattice, h: W::U) -> [W::F; 4];
    /// The factor on the noise in `dims` dimensions (Perlin's 1D and 2D scales).
    #[inline(always)]
    fn scale(_dims: usize) -> f32 {
        1.0
    }
}

/// Corner kind `K` in `D` dimensions with its gradient, on lattice `L` (a `LatticeKind` code).
pub struct CornerDual<K, const D: usize, const L: u32>(PhantomData<K>);

impl<K: CornerKind, const D: usize, const L: u32> KernelD for CornerDual<K, D, L> {
    const DIMS: usize = D;
    const LATTICE: u32 = L;
    #[inline(always)]
    fn block<W: Wide>(
        s: W,
        lat: &Lattice,
        _: &KindState,
        interp: Interp,
        p: &Points,
        out: &mut DualBlock,
    ) {
        corner_kinds_d::<W, K, D>(s, lat, p, interp, K::scale(D), out);
    }
}

/// A corner kind over a block (gradient_kinds_d and value_d): corner n's gradient g and
/// `g . (f - b_n)` summed from zero, or its value; reduced by [`interp_corners_d`], times
/// `scale`.
#[inline(always)]
pub fn corner_kinds_d<W: Wide, K: CornerKind, const D: usize>(
    s: W,
    lat: &Lattice,
    p: &Points,
    interp: Interp,
    scale: f32,
    out: &mut DualBlock,
) {
    let axes = block_axes::<W, D>(s, p);
    let h = K::hashes::<W, D>(s, lat, p);
    let zero = s.splat(0.0);
    let mut v = [zero; 16];
    let mut g = [[zero; 4]; 16];
    unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        if n < 1 << D {
            let c = K::corner::<W, D>(s, lat, h[n]);
            if K::GRADIENT {
                let mut dot = zero;
                unrolled!(a in [0, 1, 2, 3] {
                    if a < D {
                        dot = s.add(dot, s.mul(c[a], corner_offset(s, &axes[a], n >> a)));
                    }
                });
                v[n] = dot;
                g[n] = c;
            } else {
                v[n] = c[0];
            }
        }
    });
    let mut dw = [zero; 4];
    for a in 0..D {
        dw[a] = s.load(&interp_weight_derivatives(&p.axis[a].frac, interp));
    }
    interp_corners_d::<W, D>(s, &mut v, &mut g, weights(&axes), dw);
    let scale = s.splat(scale);
    s.store(&mut out[0], s.mul(scale, v[0]));
    for c in 0..4 {
        s.store(&mut out[1 + c], s.mul(scale, g[0][c]));
    }
}

/// Each lane's offset from its cell's lower corner (`bit` 0) or upper corner (1) along one
/// axis: `f - bit`.
#[inline(always)]
pub fn corner_offset<W: Wide>(s: W, p: &AxisPoint<W>, bit: usize) -> W::F {
    if bit & 1 == 1 {
        s.sub(p.frac, s.splat(1.0))
    } else {
        p.frac
    }
}
