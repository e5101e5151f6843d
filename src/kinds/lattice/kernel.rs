//! The lanes' kernels: a kind in `DIMS` dimensions over a block of lanes ([`Kernel`]), and one
//! noise over a run of a row's texels compiled once per kernel and instruction set, its lane
//! loops vectorized by the compiler. Each kind's `lanes.rs` declares its kernels and picks one.

use super::lane_hash::LaneLattice as Lattice;
use super::lanes::store_block;
use super::lanes::{LANES, Points, RowFrame, Shift, block_points, shift_points};
use super::wide::Wide;
use crate::kinds::{Interp, KindState};

/// What one noise's kernel reads besides the points.
pub struct NoiseInputs<'a> {
    /// Its lattice (tables, periods, seeds).
    pub lat: Lattice<'a>,
    /// The kind's parameters as the GPU receives them (f32).
    pub kind: &'a KindState,
    /// Its interpolation.
    pub interp: Interp,
}

/// A kind in `DIMS` dimensions on one lattice, evaluated for a block of lanes.
pub trait Kernel {
    /// Lattice axes the kind reads.
    const DIMS: usize;
    /// The lattice, a `LatticeKind` code (each kernel type is generic over it).
    const LATTICE: u32;
    /// An integer-hash lattice (or the permutation table).
    const HASHED: bool = Self::LATTICE != crate::kinds::LatticeKind::Table as u32;
    /// The prime lattice's hash (where HASHED; else xxHash32's).
    const PRIME: bool = Self::LATTICE == crate::kinds::LatticeKind::Prime as u32;
    /// The noise of every lane of a block, computed with the instruction set of token `s`
    /// (kinds written against [`Wide`] use it; the others' lane loops vectorize alone).
    fn block<W: Wide>(s: W, lat: &Lattice, kind: &KindState, p: &Points, out: &mut [f32; LANES]);
}

/// Writes one noise's values over `out.len()` texels of a row from texel `first`, each point
/// moved by `shift` (per axis, texel by texel) where given: a plan's noise step.
pub type NoiseRow = fn(&NoiseInputs, &RowFrame, usize, Option<&Shift>, &mut [f32]);

/// Writes two noises of one kind at the same points into their runs, each with its own inputs
/// (a warp's two axes: the kind, frame and parameters alike, the seeds apart), as two
/// [`NoiseRow`]s would: two of a plan's noise steps in one pass.
pub type NoisePairRow = fn(&[NoiseInputs; 2], &RowFrame, usize, Option<&Shift>, [&mut [f32]; 2]);

/// The noise row loop, inlined into one function per instruction set below.
#[inline(always)]
fn noise_row<K: Kernel, W: Wide>(
    s: W,
    inputs: &NoiseInputs,
    row: &RowFrame,
    first: usize,
    shift: Option<&Shift>,
    out: &mut [f32],
) {
    let lat = Lattice {
        hashed: K::HASHED,
        prime: K::PRIME,
        share_corners: !(W::ONE_REGISTER && K::HASHED),
        ..inputs.lat
    };
    let mut p = Points::default();
    let mut n = [0.0f32; LANES];
    // Unmoved rows have a loop of their own: one loop for both (a test per block) cost table
    // Perlin's rows 10-18% and Gabor's 8% (AMD EPYC), though it halved these functions' code.
    let Some(shift) = shift else {
        for (b, texels) in out.chunks_mut(LANES).enumerate() {
            let at = (first + b * LANES, b == 0);
            block_points(row, inputs.interp, &lat.period, K::DIMS, at, &mut p);
            K::block(s, &lat, inputs.kind, &p, &mut n);
            store_block(texels, &n);
        }
        return;
    };
    let mut moved = [[0.0f32; LANES]; 4];
    for (b, texels) in out.chunks_mut(LANES).enumerate() {
        block_points(
            row,
            inputs.interp,
            &lat.period,
            K::DIMS,
            (first + b * LANES, true),
            &mut p,
        );
        shift.block(b, K::DIMS, &mut moved);
        shift_points(&mut p, &moved, inputs.interp, &lat.period, K::DIMS);
        K::block(s, &lat, inputs.kind, &p, &mut n);
        store_block(texels, &n);
    }
}

/// Declares a row function's per-instruction-set copies: the baseline, and on x86-64 an AVX2
/// and an AVX-512 one (each with its features enabled, so the lane loops vectorize for it, and
/// given that set's [`Wide`] token), and `$pick`, which picks a kernel's copy for a lattice and
/// an instruction set.
///
/// The copies are default methods of trait `$rows`, which every kernel has: rustc builds a
/// method's copies in the codegen unit of its `Self` type's module, so each kind's rows
/// compile apart (as free functions they all fell in this module's unit, which took most of
/// the library's build alone on one core).
macro_rules! per_isa {
    ($inline:ident<$tr:ident> -> $row:ty, $pick:ident, $rows:ident: $base:ident, $avx2:ident,
        $avx512:ident, ($($arg:ident: $ty:ty),*)) => {
        #[doc = concat!("`", stringify!($inline), "` of a kernel, per instruction set.")]
        pub trait $rows: $tr + Sized {
            /// The baseline copy (what the target guarantees).
            fn $base($($arg: $ty),*) {
                use $crate::kinds::lattice::wide::portable::Portable;
                $inline::<Self, Portable>(Portable, $($arg),*)
            }

            /// The AVX2 copy.
            ///
            /// # Safety
            /// The CPU must have AVX2, FMA, BMI1/2, LZCNT and POPCNT.
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
            unsafe fn $avx2($($arg: $ty),*) {
                use $crate::kinds::lattice::wide::avx2::Avx2;
                // SAFETY: the function's contract.
                let s = unsafe { Avx2::new() };
                $inline::<Self, Avx2>(s, $($arg),*)
            }

            /// The AVX-512 copy.
            ///
            /// # Safety
            /// The CPU must have AVX-512 F, BW, DQ and VL (and what the AVX2 copy needs).
            #[cfg(target_arch = "x86_64")]
            #[target_feature(
                enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
            )]
            unsafe fn $avx512($($arg: $ty),*) {
                use $crate::kinds::lattice::wide::avx512::Avx512;
                // SAFETY: the function's contract.
                let s = unsafe { Avx512::new() };
                $inline::<Self, Avx512>(s, $($arg),*)
            }
        }

        impl<K: $tr> $rows for K {}

        /// A kernel's row function for an instruction set and lattice: `K0`'s for the table
        /// lattice, `K1`'s for the hash lattice, `K2`'s for the prime lattice (the mode
        /// becomes a constant in each).
        pub fn $pick<K0: $tr, K1: $tr, K2: $tr>(
            lattice: $crate::kinds::LatticeKind,
            isa: InstructionSet,
        ) -> $row {
            assert!(isa.available(), "{isa:?} is not available on this CPU");
            #[cfg(target_arch = "x86_64")]
            fn avx2<K: $tr>($($arg: $ty),*) {
                // SAFETY: picked only where InstructionSet::Avx2 is available (above).
                unsafe { K::$avx2($($arg),*) }
            }
            #[cfg(target_arch = "x86_64")]
            fn avx512<K: $tr>($($arg: $ty),*) {
                // SAFETY: picked only where InstructionSet::Avx512 is available (above).
                unsafe { K::$avx512($($arg),*) }
            }
            fn for_isa<K: $tr>(isa: InstructionSet) -> $row {
                match isa {
                    #[cfg(target_arch = "x86_64")]
                    InstructionSet::Avx512 => avx512::<K>,
                    #[cfg(target_arch = "x86_64")]
                    InstructionSet::Avx2 => avx2::<K>,
                    _ => K::$base,
                }
            }
            match lattice {
                $crate::kinds::LatticeKind::Table => for_isa::<K0>(isa),
                $crate::kinds::LatticeKind::Hash => for_isa::<K1>(isa),
                $crate::kinds::LatticeKind::Prime => for_isa::<K2>(isa),
            }
        }
    };
}
pub(crate) use per_isa;

per_isa!(noise_row<Kernel> -> NoiseRow, pick, NoiseRows: noise_row_baseline, noise_row_avx2,
    noise_row_avx512, (inputs: &NoiseInputs, row: &RowFrame, first: usize,
        shift: Option<&Shift>, out: &mut [f32]));

/// The row function of kernel `$k` (generic over the lattice) for `lattice` and `isa`.
macro_rules! row_of {
    ($k:ident, $lattice:expr, $isa:expr) => {
        $crate::kinds::lattice::kernel::pick::<$k<0>, $k<1>, $k<2>>($lattice, $isa)
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

/// The check every `Wide` kernel's tests run.
#[cfg(test)]
pub(crate) mod check {
    use super::*;
    use crate::kinds::lattice::lane_hash::LaneLattice as Lattice;
    use crate::kinds::lattice::lanes::{MOD_96, RowFrame, Shift};
    use crate::kinds::{KindInfo, LatticeKind};
    use crate::tables::{OctaveTables, perm_windows};

    /// The interpolations of the corner kinds (Catmull-Rom is value noise's alone).
    pub const CORNER_INTERPS: [Interp; 5] = [
        Interp::Nearest,
        Interp::Linear,
        Interp::Cosine,
        Interp::Cubic,
        Interp::Quintic,
    ];

    /// The parameters of a kind without any.
    pub fn no_params() -> KindState {
        bytemuck::Zeroable::zeroed()
    }

    /// Every instruction set gives the baseline's bits (the portable `Wide`'s), a zero's sign
    /// included, values and (where the kind has them) derivatives: the three `Wide`s are
    /// written apart, so each checks the others. Rows of a
    /// kind in its dimensions (as the plan picks its row function) on every lattice, each of `interps`,
    /// tiled and not, with and without displacements, starting below zero and far out, with
    /// the kind's parameters `kind` (zeros for a kind without).
    pub fn every_isa_gives_the_portable_bits(
        name: &str,
        interps: &[Interp],
        info: &KindInfo,
        kind: &KindState,
    ) {
        // The kind's wide row where it has one for the case, else its lanes' (as the plan).
        let row_fn = |dims, interp, lattice, isa| {
            (info.wide.and_then(|wide| wide(dims, interp, lattice, isa)))
                .unwrap_or_else(|| (info.lanes)(dims, interp, lattice, isa))
        };
        let tables = OctaveTables::new(9, 2);
        let windows = perm_windows(&tables.perm);
        let values = tables.values.map(|v| v as f32);
        let fixed = |c: f64| ((c * 2f64.powi(64)) as i128 as u128) & MOD_96;
        let len = LANES * 9 + 7;
        let moves: [Vec<f32>; 4] = std::array::from_fn(|a| {
            (0..len)
                .map(|t| ((t * 5 + a) % 23) as f32 * 0.37 - 4.0)
                .collect()
        });
        for lattice in [LatticeKind::Table, LatticeKind::Hash, LatticeKind::Prime] {
            for (period, interp) in [0, 5]
                .into_iter()
                .flat_map(|p| interps.iter().map(move |&i| (p, i)))
            {
                let inputs = NoiseInputs {
                    lat: Lattice {
                        perm: &tables.perm,
                        windows: &windows,
                        gradients: &tables.gradients,
                        values: &values,
                        period: [period; 4],
                        salt: tables.impulse_salt,
                        hash_seed: tables.hash_seed,
                        hashed: lattice != LatticeKind::Table,
                        prime: lattice == LatticeKind::Prime,
                        share_corners: true,
                    },
                    kind,
                    interp,
                };
                for dims in info.dims[0]..=info.dims[1] {
                    for (start, step) in [(-3.3, 0.03), (1e9 + 0.37, 0.71), (0.0, 1.0 / 32.0)] {
                        let begin = [fixed(start), fixed(1.7 - start), fixed(2.25), fixed(-0.5)];
                        let row = RowFrame::new(begin, [fixed(step), fixed(step * 0.25), 0, 0], 4);
                        for shift in [None, Some(Shift::Cells(&moves))] {
                            let run = |isa| {
                                let mut out = vec![0.0f32; len];
                                row_fn(dims, interp, lattice, isa)(
                                    &inputs,
                                    &row,
                                    3,
                                    shift.as_ref(),
                                    &mut out,
                                );
                                out.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
                            };
                            let moved = shift.is_some().then_some(&moves);
                            let run_d = |isa| {
                                let dual = info.lanes_dual.map(|d| d(dims, interp, lattice, isa));
                                dual.map(|dual| dual_bits(dual, &inputs, &row, moved, len))
                            };
                            let want = (
                                run(InstructionSet::Baseline),
                                run_d(InstructionSet::Baseline),
                            );
                            for isa in InstructionSet::ALL.into_iter().filter(|i| i.available()) {
                                assert!(
                                    (run(isa), run_d(isa)) == want,
                                    "{name}, {isa:?} {lattice:?} {dims}D {interp:?} period {period} \
                                     from {start}, displaced {}",
                                    shift.is_some()
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// The bits of a dual row's value and four gradient runs, `len` texels from texel 3.
    fn dual_bits(
        dual: impl Fn(&NoiseInputs, &RowFrame, usize, Option<&[Vec<f32>; 4]>, &mut [&mut [f32]; 5]),
        inputs: &NoiseInputs,
        row: &RowFrame,
        moved: Option<&[Vec<f32>; 4]>,
        len: usize,
    ) -> Vec<u32> {
        let mut runs = [(); 5].map(|_| vec![0.0f32; len]);
        let [a, b, c, d, e] = &mut runs;
        dual(inputs, row, 3, moved, &mut [a, b, c, d, e]);
        runs.iter().flatten().map(|v| v.to_bits()).collect()
    }
}
