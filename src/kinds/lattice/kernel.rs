//! The lanes' kernels: a kind in `DIMS` dimensions over a block of lanes ([`Kernel`]), and one
//! octave over one row compiled once per kernel and instruction set, its lane loops vectorized
//! by the compiler. Each kind's `lanes.rs` declares its kernels and picks one ([`KindRow`]).

use super::lane_hash::LaneLattice as Lattice;
use super::lanes::{LANES, Points, RowFrame, block_points};
use crate::kinds::{Fractal, Interp, KindState};

/// What one octave's kernel reads besides the points.
pub struct OctaveInputs<'a> {
    /// This octave's lattice (tables, periods, seeds).
    pub lat: Lattice<'a>,
    /// The kind's parameters as the GPU receives them (f32).
    pub kind: &'a KindState,
    /// The octave's weight, as the GPU receives it.
    pub weight: f32,
    /// The spec's fractal sum and interpolation.
    pub fractal: Fractal,
    /// The spec's interpolation.
    pub interp: Interp,
}

/// A kind in `DIMS` dimensions on one lattice, evaluated for a block of lanes.
pub trait Kernel {
    /// Lattice axes the kind reads.
    const DIMS: usize;
    /// The hash lattice (or the permutation table).
    const HASHED: bool;
    /// The noise of every lane of a block.
    fn block(lat: &Lattice, kind: &KindState, p: &Points, out: &mut [f32; LANES]);
}

/// Adds one octave's noise over a row to `out`: `weight * fractal_term(n)` per texel.
pub type OctaveRow = fn(&OctaveInputs, &RowFrame, &mut [f32]);

/// The row loop, inlined into one function per instruction set below.
#[inline(always)]
fn octave_row<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    // The lattice's mode becomes a constant, so each kernel keeps one lattice's code.
    let lat = Lattice {
        hashed: K::HASHED,
        ..inputs.lat
    };
    let mut p = Points::default();
    let mut n = [0.0f32; LANES];
    for (b, texels) in out.chunks_mut(LANES).enumerate() {
        block_points(row, inputs.interp, &lat.period, K::DIMS, b * LANES, &mut p);
        K::block(&lat, inputs.kind, &p, &mut n);
        add_terms(inputs.fractal, inputs.weight, &n, texels);
    }
}

fn octave_row_baseline<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    octave_row::<K>(inputs, row, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
fn octave_row_avx2_impl<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    octave_row::<K>(inputs, row, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
fn octave_row_avx512_impl<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    octave_row::<K>(inputs, row, out);
}

#[cfg(target_arch = "x86_64")]
fn octave_row_avx2<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    // SAFETY: picked only where InstructionSet::Avx2 is available (see `pick`).
    unsafe { octave_row_avx2_impl::<K>(inputs, row, out) }
}

#[cfg(target_arch = "x86_64")]
fn octave_row_avx512<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    // SAFETY: picked only where InstructionSet::Avx512 is available (see `pick`).
    unsafe { octave_row_avx512_impl::<K>(inputs, row, out) }
}

/// The row function of `K` compiled for `isa` (which the caller checked is available).
fn for_isa<K: Kernel>(isa: InstructionSet) -> OctaveRow {
    match isa {
        #[cfg(target_arch = "x86_64")]
        InstructionSet::Avx512 => octave_row_avx512::<K>,
        #[cfg(target_arch = "x86_64")]
        InstructionSet::Avx2 => octave_row_avx2::<K>,
        _ => octave_row_baseline::<K>,
    }
}

/// `sum += weight * fractal_term(n)` for the texels of a block (fractal_term in fractal.wgsl).
#[inline(always)]
fn add_terms(fractal: Fractal, weight: f32, n: &[f32; LANES], sum: &mut [f32]) {
    let mut add = |term: fn(f32) -> f32| {
        for (s, &v) in sum.iter_mut().zip(n) {
            *s += weight * term(v);
        }
    };
    match fractal {
        Fractal::None | Fractal::Fbm => add(|n| n),
        Fractal::Turbulence => add(|n| n.abs()),
        Fractal::Ridged => add(|n| (1.0 - n.abs()) * (1.0 - n.abs())),
        Fractal::Billow => add(|n| 2.0 * n.abs() - 1.0),
    }
}

/// A kernel's row function for an instruction set and lattice: `pick::<K>` for the table
/// lattice and the hash lattice (the mode becomes a constant in each).
pub fn pick<K0: Kernel, K1: Kernel>(hashed: bool, isa: InstructionSet) -> OctaveRow {
    assert!(isa.available(), "{isa:?} is not available on this CPU");
    if hashed {
        for_isa::<K1>(isa)
    } else {
        for_isa::<K0>(isa)
    }
}

/// Declares a kernel type per kind and dims, generic over the lattice (`H`: hashed).
macro_rules! kernels {
    ($($name:ident, $dims:expr, |$lat:ident, $kind:ident, $p:ident, $out:ident| $body:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), "` over a block of lanes.")]
        pub struct $name<const H: bool>;
        impl<const H: bool> $crate::kinds::lattice::kernel::Kernel for $name<H> {
            const DIMS: usize = $dims;
            const HASHED: bool = H;
            #[inline(always)]
            fn block(
                $lat: &$crate::kinds::lattice::lane_hash::LaneLattice,
                $kind: &$crate::kinds::KindState,
                $p: &$crate::kinds::lattice::lanes::Points,
                $out: &mut [f32; $crate::kinds::lattice::lanes::LANES],
            ) {
                $body
            }
        }
    )*};
}
pub(crate) use kernels;

/// The row function of kernel `$k` (generic over the lattice) for `hashed` and `isa`.
macro_rules! row_of {
    ($k:ident, $hashed:expr, $isa:expr) => {
        $crate::kinds::lattice::kernel::pick::<$k<false>, $k<true>>($hashed, $isa)
    };
}
pub(crate) use row_of;

/// The instruction sets the lanes are compiled for; the best available one runs, and tests
/// run every one this CPU has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstructionSet {
    /// 16 f32 lanes per register (x86-64 AVX-512 F, BW, DQ, VL).
    Avx512,
    /// 8 f32 lanes per register (x86-64 AVX2 with FMA).
    Avx2,
    /// What the target guarantees (SSE2 on x86-64, NEON on aarch64).
    Baseline,
}

impl InstructionSet {
    /// Every instruction set, widest first.
    pub const ALL: [InstructionSet; 3] = [Self::Avx512, Self::Avx2, Self::Baseline];

    /// The widest instruction set this CPU runs.
    pub fn detect() -> Self {
        Self::ALL
            .into_iter()
            .find(|i| i.available())
            .unwrap_or(Self::Baseline)
    }

    /// Whether this CPU runs it (checked at run time).
    pub fn available(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            match self {
                Self::Avx512 => {
                    has!("avx512f")
                        && has!("avx512bw")
                        && has!("avx512dq")
                        && has!("avx512vl")
                        && Self::Avx2.available()
                }
                Self::Avx2 => {
                    has!("avx2")
                        && has!("fma")
                        && has!("bmi1")
                        && has!("bmi2")
                        && has!("lzcnt")
                        && has!("popcnt")
                }
                Self::Baseline => true,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Self::Baseline
        }
    }

    /// Its name: "avx512", "avx2" or "baseline".
    pub fn name(self) -> &'static str {
        match self {
            Self::Avx512 => "avx512",
            Self::Avx2 => "avx2",
            Self::Baseline => "baseline",
        }
    }
}
