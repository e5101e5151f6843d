//! The noise kinds, one folder per family: its table row (`mod.rs`: what the kind is, its
//! dims, interpolation, tiling, derivatives, bounds and parameters, as FastNoise2 keeps its
//! metadata beside each generator), its f64 twin (`twin.rs`), its SIMD lanes (`lanes.rs`) and
//! its WGSL (`<family>.wgsl`), mirroring each other function by function (CONVENTIONS §3,
//! §8-§12). The build list below names each kind once; spec validation, the graph reader, the
//! CLI's flags, spec files, the docs, the error bounds and every backend's dispatch (the WGSL
//! switches included, generated from the table) read the rows.
//!
//! A new kind is its folder (row, twin, lanes, WGSL) and one line in [`kinds!`] below; a
//! family with parameters of its own adds its `params.rs` and one line of `own_params!`.

// Index loops mirror the WGSL's loops line by line (lanes and axes index several arrays at
// once); iterator rewrites would break the mirror.
#![allow(clippy::needless_range_loop)]

pub(crate) mod cellular;
mod enums;
mod fields;
pub(crate) mod fractal;
pub(crate) mod gradient;
pub(crate) mod impulse;
pub(crate) mod lattice;
mod own;
pub mod param;
pub(crate) mod perlin;
pub(crate) mod simplex;
pub(crate) mod value;

pub use enums::{CellReturn, Distance, Fractal, Interp, LatticeKind, ParseNameError};
pub use fields::{KindField, KindValue};
pub use impulse::params::{
    MAX_IMPULSES, gabor_kernel_energy, poisson_thresholds, sparse_kernel_energy,
};
pub use lattice::dual::Dual;
pub use lattice::kernel::{InstructionSet, NoisePairRow, NoiseRow};
pub use lattice::lane_dual::NoiseRowD;
pub use param::{MAX_OCTAVES, Param};

use crate::fixed::Fixed;
use lattice::twin::{Lattice, LatticePoint};

/// One octave of a kind at a lattice point, in f64 (the twin).
pub type TwinFn = fn(&Lattice, &LatticePoint, usize) -> f64;
/// One octave over a row: `out[i]` at the lattice point `start + i step` (exact steps).
pub type TwinRowFn = fn(&Lattice, usize, [Fixed; 4], [Fixed; 4], &mut [f64]);
/// The same with its gradient along the lattice axes (CONVENTIONS §12).
pub type TwinDualFn = fn(&Lattice, &LatticePoint, usize) -> Dual;
/// A WGSL call of the kind's function for `(dims, interp)`, given the lattice and point
/// expressions.
pub type WgslCallFn = fn(u32, Interp, &str, &str) -> String;
/// The lanes' row function for `(dims, interp, hashed, instruction set)`.
pub type LanesFn = fn(u32, Interp, LatticeKind, InstructionSet) -> NoiseRow;
/// A kind's wide row (`lattice::wide`) where it has one for the dims, interpolation,
/// lattice and instruction set.
pub type WideFn = fn(u32, Interp, LatticeKind, InstructionSet) -> Option<NoiseRow>;
/// A kind's wide row of two noises at the same points under two seeds, where it has one.
pub type WidePairFn = fn(u32, Interp, LatticeKind, InstructionSet) -> Option<NoisePairRow>;
/// The same with the lattice gradient (CONVENTIONS §12).
pub type LanesDualFn = fn(u32, Interp, LatticeKind, InstructionSet) -> NoiseRowD;

/// A kind's table row: everything the rest of the crate knows about it.
pub struct KindInfo {
    /// What it is, in one line (the docs' node table, `--help`).
    pub summary: &'static str,
    /// The fewest and the most dimensions.
    pub dims: [u32; 2],
    /// The default interpolation of a kind that interpolates lattice corners (and so takes
    /// `interp`); `None` for the others.
    pub interp: Option<Interp>,
    /// Whether Catmull-Rom (four values per axis) applies.
    pub catmull_rom: bool,
    /// Whether exact tiling applies (CONVENTIONS §5).
    pub tiles: bool,
    /// Simplex's skew `F` for `dims` (CONVENTIONS §1, §8): the kind works on
    /// `l = q + F sum(q)`; `None` for every unskewed kind.
    pub skew: Option<fn(u32) -> f64>,
    /// Whether analytic derivatives exist (CONVENTIONS §12; `nearest` steps have none).
    pub derivatives: bool,
    /// A bound on |value| for error and range bounds: 1.5 for the smooth kinds, 2 for
    /// cellular, 4 (12 standard deviations) for the impulse kinds.
    pub magnitude: f64,
    /// A Lipschitz constant of one octave in lattice cells (CONVENTIONS §7).
    pub lipschitz: fn(&KindFields, u32) -> f64,
    /// A bound K on how fast its gradient turns, where the gradient is continuous: the L1 norm
    /// of the change of the gradient (lattice cells) per cell moved along any direction, in
    /// the largest axis (`sum_a |g_a(q) - g_a(p)| <= K max_a |q_a - p_a|`); `None` where the
    /// gradient jumps (linear and nearest steps, cell borders, truncated kernels) or was not
    /// sampled (4D). The running bound (CONVENTIONS §13) weighs a warp's error by the noise's
    /// own gradient with it.
    pub curvature: fn(u32, Interp) -> Option<f64>,
    /// How many times a plain octave's terms and steepness its fields make it (dense impulses,
    /// Gabor's oscillation; 1 for the other kinds): it scales the f32 arithmetic bound as it
    /// scales the impulse kinds' Lipschitz constant (CONVENTIONS §7).
    pub spread: fn(&KindFields) -> f64,
    /// What in the kind is discontinuous where f32 and f64 can decide differently, if anything.
    pub discontinuity: fn(&KindFields) -> Option<&'static str>,
    /// The own parameter that makes an octave steepest (the field a precision error names),
    /// if any: Gabor's frequency, the impulses' density.
    pub steepest: Option<&'static str>,
    /// Its parameters as a graph's kind node takes them: `frequency`, `seed`, `interp` where it
    /// interpolates, and its own ([`KindFields`]).
    pub params: &'static [Param],
    /// The twin.
    pub twin: TwinFn,
    /// The twin over a row of texels (the CPU backend's rows).
    pub twin_row: TwinRowFn,
    /// The twin with derivatives, where [`KindInfo::derivatives`].
    pub twin_dual: Option<TwinDualFn>,
    /// The SIMD lanes.
    pub lanes: LanesFn,
    /// Its wide rows on x86-64 (every value of a block in registers), which compute what its
    /// lanes compute and run in their place where they have a row.
    pub wide: Option<WideFn>,
    /// Its wide rows of two noises at the same points whose seeds alone differ (a warp's
    /// axes), where sharing a block's work between them saves more than it costs: simplex's
    /// corners and falloffs do not depend on the seed, only its gradients do.
    pub wide_pair: Option<WidePairFn>,
    /// The SIMD lanes with derivatives, where [`KindInfo::derivatives`].
    pub lanes_dual: Option<LanesDualFn>,
    /// The kind's WGSL functions (part of the noise library).
    pub wgsl: &'static str,
    /// The WGSL call of its value.
    pub wgsl_call: WgslCallFn,
    /// The WGSL call of its value with its gradient (a `Dual`), where [`KindInfo::derivatives`].
    pub wgsl_dual_call: Option<WgslCallFn>,
}

/// Declares [`Kind`] (discriminants = WGSL codes, in build-list order) and [`KINDS`] from the
/// build list: one line per kind, its variant, name and row.
macro_rules! kinds {
    ($($variant:ident = $code:literal => $name:literal, $row:path;)+) => {
        /// Noise kinds (CONVENTIONS §3). The discriminant is the code the shaders switch on.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(rename_all = "kebab-case")
        )]
        #[repr(u32)]
        pub enum Kind {
            $(
                #[doc = concat!("`", $name, "`: see [`Kind::info`].")]
                $variant = $code,
            )+
        }

        enums::named_enum!(Kind { $($variant => $name),+ });

        /// Every kind's row, in code order.
        pub static KINDS: &[&KindInfo] = &[$(&$row),+];
    };
}

kinds! {
    Perlin = 0 => "perlin", perlin::PERLIN;
    Gradient = 1 => "gradient", gradient::GRADIENT;
    Value = 2 => "value", value::VALUE;
    Simplex = 3 => "simplex", simplex::SIMPLEX;
    Cellular = 4 => "cellular", cellular::CELLULAR;
    SparseConvolution = 5 => "sparse-convolution", impulse::SPARSE_CONVOLUTION;
    Gabor = 6 => "gabor", impulse::GABOR;
}

// The families with parameters of their own: each line is its folder and its `params.rs`'s
// three types (as given, derived in f64, the GPU's state).
own::own_params! {
    cellular: CellularFields, CellularParams, CellularState;
    impulse: ImpulseFields, ImpulseParams, ImpulseState;
}

impl Kind {
    /// Its table row.
    pub fn info(self) -> &'static KindInfo {
        KINDS[self as usize]
    }

    /// The interpolation a kind uses unless told otherwise: Perlin's quintic fade for `perlin`,
    /// the 1985 cubic for `gradient`, quintic for `value` (and, unused, for the kinds that do
    /// not interpolate).
    pub fn default_interp(self) -> Interp {
        self.info().interp.unwrap_or(Interp::Quintic)
    }

    /// The fewest dimensions this kind supports.
    pub fn min_dims(self) -> u32 {
        self.info().dims[0]
    }

    /// The most dimensions this kind supports.
    pub fn max_dims(self) -> u32 {
        self.info().dims[1]
    }

    /// Whether the kind interpolates lattice corners (and so takes `interp`).
    pub fn interpolates(self) -> bool {
        self.info().interp.is_some()
    }

    /// Whether `tile` applies (simplex's skewed lattice and Gabor's kernels do not tile here).
    pub fn tiles(self) -> bool {
        self.info().tiles
    }

    /// Whether analytic derivatives exist (CONVENTIONS §12).
    pub fn has_derivatives(self) -> bool {
        self.info().derivatives
    }

    /// The skew `F` of this kind's lattice in `dims` dimensions, if it is skewed.
    pub fn skew(self, dims: u32) -> Option<f64> {
        self.info().skew.map(|f| f(dims))
    }

    /// How much the skew can stretch a coordinate: `1 + dims F` (1 without skew).
    pub fn skew_stretch(self, dims: u32) -> f64 {
        self.skew(dims).map_or(1.0, |f| 1.0 + f64::from(dims) * f)
    }
}

/// One octave of `kind` at a lattice point, in f64 (the twin's dispatch, through the table).
#[inline(always)]
pub fn noise_octave(lat: &Lattice, kind: Kind, dims: usize, pt: &LatticePoint) -> f64 {
    (kind.info().twin)(lat, pt, dims)
}

/// One octave's value and lattice gradient, or `None` for kinds without derivatives.
pub fn noise_octave_dual(
    lat: &Lattice,
    kind: Kind,
    dims: usize,
    pt: &LatticePoint,
) -> Option<Dual> {
    kind.info().twin_dual.map(|f| f(lat, pt, dims))
}

/// The Lipschitz constant of one octave of cellular and the base of the impulse kinds'
/// (CONVENTIONS §7).
pub const OCTAVE_LIPSCHITZ: f64 = 8.0;

fn continuous(_: &KindFields) -> Option<&'static str> {
    None
}

/// No curvature bound: the running bound uses the kind's Lipschitz constant.
fn no_curvature(_: u32, _: Interp) -> Option<f64> {
    None
}

/// A curvature bound that holds for the smooth interpolations (cosine, cubic, quintic and
/// Catmull-Rom have continuous slopes), `per_dims(dims)` up to 3D.
fn smooth_curvature(dims: u32, interp: Interp, per_dims: fn(f64) -> f64) -> Option<f64> {
    let smooth = !matches!(interp, Interp::Linear | Interp::Nearest);
    (smooth && dims <= 3).then(|| per_dims(f64::from(dims)))
}

impl KindInfo {
    /// The row a plan's noise step runs: the wide row where the kind has one, else the
    /// lanes'.
    pub fn row(
        &self,
        dims: u32,
        interp: Interp,
        lattice: LatticeKind,
        isa: InstructionSet,
    ) -> NoiseRow {
        let wide = self.wide.and_then(|wide| wide(dims, interp, lattice, isa));
        wide.unwrap_or_else(|| (self.lanes)(dims, interp, lattice, isa))
    }

    /// The row that runs two of a plan's noise steps of this kind in one pass, where the kind
    /// has one for the dims, interpolation, lattice and instruction set.
    pub fn pair_row(
        &self,
        dims: u32,
        interp: Interp,
        lattice: LatticeKind,
        isa: InstructionSet,
    ) -> Option<NoisePairRow> {
        self.wide_pair
            .and_then(|pair| pair(dims, interp, lattice, isa))
    }
}
