//! Analytic derivatives in the lanes (CONVENTIONS §12): a kind's value with its gradient
//! along the lattice axes, lane by lane in the GPU's f32, over a run of a row's texels;
//! mirrors shaders/noise/derivative.wgsl function by function (the twin's is `dual.rs`). Each
//! kind's `lanes.rs` declares its dual kernels beside its value kernels.

use super::corners::{Frame, corner_cells};
use super::kernel::{InstructionSet, NoiseInputs, per_isa};
use super::lane_hash::{LaneLattice as Lattice, lattice_hash};
use super::lanes::{LANES, Points, RowFrame, block_points, shift_points};
use super::math::cos_2pi;
use crate::kinds::{Interp, KindState};

/// A value and its gradient along the lattice axes, in f32.
pub type LaneDual = (f32, [f32; 4]);

/// A kind in `DIMS` dimensions with its gradient, one lane of a block at a time.
pub trait KernelD {
    /// Lattice axes the kind reads.
    const DIMS: usize;
    /// The hash lattice (or the permutation table).
    const HASHED: bool;
    /// Lane `l`'s value and lattice gradient.
    fn lane(lat: &Lattice, kind: &KindState, interp: Interp, p: &Points, l: usize) -> LaneDual;
}

/// Writes one noise's values (`out[0]`) and lattice gradients (`out[1 + a]` along axis a) over
/// `out[0].len()` texels of a row from texel `first`, each point moved by `shift` cells where
/// given: a plan's noise step with gradients.
pub type NoiseRowD =
    fn(&NoiseInputs, &RowFrame, usize, Option<&[Vec<f32>; 4]>, &mut [&mut [f32]; 5]);

/// The dual row loop, inlined into one function per instruction set below.
#[inline(always)]
fn noise_row_d<K: KernelD, const WIDE: bool>(
    inputs: &NoiseInputs,
    row: &RowFrame,
    first: usize,
    shift: Option<&[Vec<f32>; 4]>,
    out: &mut [&mut [f32]; 5],
) {
    let lat = Lattice {
        hashed: K::HASHED,
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
                for (m, &s) in moved[a].iter_mut().zip(&shift[a][b * LANES..]) {
                    *m = s;
                }
            }
            shift_points(&mut p, &moved, inputs.interp, &lat.period, K::DIMS);
        }
        // Every lane into fixed arrays, then the texels copied out: a loop of constant length
        // writing whole registers vectorizes (one of the row's length kept it scalar, 4x
        // slower).
        let mut block = [[0.0f32; LANES]; 5];
        for l in 0..LANES {
            let (v, g) = K::lane(&lat, inputs.kind, inputs.interp, &p, l);
            block[0][l] = v;
            for a in 0..4 {
                block[1 + a][l] = g[a];
            }
        }
        for (run, lanes) in out.iter_mut().zip(&block) {
            for (t, &v) in run[b * LANES..].iter_mut().zip(lanes) {
                *t = v;
            }
        }
    }
}

per_isa!(noise_row_d<KernelD>: noise_row_d_baseline, noise_row_d_avx2, noise_row_d_avx512,
    (inputs: &NoiseInputs, row: &RowFrame, first: usize, shift: Option<&[Vec<f32>; 4]>,
        out: &mut [&mut [f32]; 5]));

/// A dual kernel's row function for an instruction set and lattice: `K0`'s for the table
/// lattice, `K1`'s for the hash lattice.
pub fn pick_d<K0: KernelD, K1: KernelD>(hashed: bool, isa: InstructionSet) -> NoiseRowD {
    assert!(isa.available(), "{isa:?} is not available on this CPU");
    fn for_isa<K: KernelD>(isa: InstructionSet) -> NoiseRowD {
        match isa {
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx512 => noise_row_d_avx512::<K>,
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx2 => noise_row_d_avx2::<K>,
            _ => noise_row_d_baseline::<K>,
        }
    }
    if hashed {
        for_isa::<K1>(isa)
    } else {
        for_isa::<K0>(isa)
    }
}

/// Declares a dual kernel type per kind and dims, generic over the lattice (`H`: hashed).
macro_rules! dual_kernels {
    ($($name:ident, $dims:expr, |$lat:ident, $kind:ident, $interp:ident, $p:ident, $l:ident| $body:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: one lane's value and lattice gradient.")]
        pub struct $name<const H: bool>;
        impl<const H: bool> $crate::kinds::lattice::lane_dual::KernelD for $name<H> {
            const DIMS: usize = $dims;
            const HASHED: bool = H;
            #[inline(always)]
            fn lane(
                $lat: &$crate::kinds::lattice::lane_hash::LaneLattice,
                $kind: &$crate::kinds::KindState,
                $interp: $crate::kinds::Interp,
                $p: &$crate::kinds::lattice::lanes::Points,
                $l: usize,
            ) -> $crate::kinds::lattice::lane_dual::LaneDual {
                $body
            }
        }
    )*};
}
pub(crate) use dual_kernels;

/// The dual row function of kernel `$k` (generic over the lattice) for `hashed` and `isa`.
macro_rules! row_d_of {
    ($k:ident, $hashed:expr, $isa:expr) => {
        $crate::kinds::lattice::lane_dual::pick_d::<$k<false>, $k<true>>($hashed, $isa)
    };
}
pub(crate) use row_d_of;

/// The derivative of `interp_weight` in t (CONVENTIONS §3), as derivative.wgsl computes it.
#[inline(always)]
pub fn interp_weight_derivative(t: f32, interp: Interp) -> f32 {
    match interp {
        Interp::Nearest => 0.0,
        Interp::Linear => 1.0,
        // sin(pi t) = cos(2 pi (t/2 - 1/4)); both steps exact for t in [0, 1].
        Interp::Cosine => 0.5 * std::f32::consts::PI * cos_2pi(0.5 * t - 0.25),
        Interp::Cubic => 6.0 * t * (1.0 - t),
        Interp::Quintic | Interp::CatmullRom => 30.0 * t * t * (t - 1.0) * (t - 1.0),
    }
}

/// `interp_corners` with gradients: each lerp along axis a (the frame's weight) also lerps the
/// corner gradients and adds `w'_a (upper - lower)` to component a.
#[inline(always)]
pub fn interp_corners_d<const D: usize>(
    v: &mut [f32; 16],
    g: &mut [[f32; 4]; 16],
    frame: &Frame<D>,
    interp: Interp,
) -> LaneDual {
    let mut n = 1usize << D;
    for a in 0..D {
        let w = frame.w[a];
        let dw = interp_weight_derivative(frame.f[a], interp);
        n /= 2;
        for m in 0..n {
            let (lo, hi) = (v[2 * m], v[2 * m + 1]);
            let (glo, ghi) = (g[2 * m], g[2 * m + 1]);
            v[m] = lo + w * (hi - lo);
            let mut gm = [0.0; 4];
            for c in 0..4 {
                gm[c] = glo[c] + w * (ghi[c] - glo[c]);
            }
            gm[a] += dw * (hi - lo);
            g[m] = gm;
        }
    }
    (v[0], g[0])
}

/// Perlin or classic gradient noise with its gradient (gradient_kinds_d): corner n contributes
/// `g . (f - b_n)` with `g = gradient(hash)`, reduced by [`interp_corners_d`], times `scale`.
#[inline(always)]
pub fn gradient_kinds_d<const D: usize>(
    lat: &Lattice,
    frame: &Frame<D>,
    interp: Interp,
    gradient: impl Fn(u32) -> [f32; 4],
    scale: f32,
) -> LaneDual {
    let mut v = [0.0; 16];
    let mut g = [[0.0; 4]; 16];
    for n in 0..1usize << D {
        let grad = gradient(lattice_hash(lat, corner_cells(&frame.lo, &frame.hi, n), D));
        let mut dot = 0.0;
        for a in 0..D {
            dot += grad[a] * (frame.f[a] - ((n >> a) & 1) as f32);
        }
        v[n] = dot;
        g[n] = grad;
    }
    let (value, grad) = interp_corners_d(&mut v, &mut g, frame, interp);
    (scale * value, grad.map(|c| scale * c))
}
