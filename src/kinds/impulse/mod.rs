//! The impulse kinds: sparse convolution noise (Lewis 1989), 2D and 3D (CONVENTIONS §10), and
//! Gabor noise (Lagae et al. 2009), 2D (§11): Poisson impulses per cell under a cosine or Gabor
//! kernel. They share the impulses' generator and search.

pub(crate) mod lanes;
pub(crate) mod params;
pub(crate) mod twin;

use super::lattice::twin::octave_row;
use super::param::{FREQUENCY, Param, ParamType, SEED, positive};
use super::{KindFields, KindInfo, OCTAVE_LIPSCHITZ, continuous, no_curvature};

/// Most mean impulses per cell: counts are capped at [`MAX_IMPULSES`](super::MAX_IMPULSES),
/// which a mean of 16 exceeds with probability below 1e-17.
pub const MAX_DENSITY: f64 = 16.0;
/// Largest Gabor frequency F0, cycles per cell.
pub const MAX_GABOR_FREQUENCY: f64 = 64.0;
/// Smallest Gabor bandwidth, `sqrt(ln 20 / pi) / 2`: the truncated kernel reaches 2 cells.
pub const MIN_GABOR_BANDWIDTH: f64 = 0.488_254_851_238_592_25;
/// Largest Gabor bandwidth.
pub const MAX_GABOR_BANDWIDTH: f64 = 100.0;

pub(super) static SPARSE_CONVOLUTION: KindInfo = KindInfo {
    summary: "sparse convolution noise (§10), 2D-3D",
    dims: [2, 3],
    interp: None,
    catmull_rom: false,
    tiles: true,
    skew: None,
    derivatives: false,
    magnitude: 4.0,
    lipschitz: sparse_lipschitz,
    // Not sampled: the running bound uses the Lipschitz constant.
    curvature: no_curvature,
    spread: sparse_spread,
    discontinuity: continuous,
    steepest: Some("density"),
    params: &[
        FREQUENCY,
        SEED,
        positive("density", 3.0, MAX_DENSITY, "mean impulses per cell"),
    ],
    twin: twin::sparse_convolution,
    twin_row: |lat, dims, start, step, out| {
        octave_row(lat, dims, start, step, out, twin::sparse_convolution)
    },
    twin_dual: None,
    lanes: lanes::sparse_convolution_row,
    wide: None,
    wide_pair: None,
    lanes_dual: None,
    wgsl: include_str!("impulse.wgsl"),
    wgsl_call: |dims, _, lat, pt| format!("sparse_convolution({lat}, {pt}, {dims}u)"),
    wgsl_dual_call: None,
};

pub(super) static GABOR: KindInfo = KindInfo {
    summary: "Gabor noise (§11), 2D",
    dims: [2, 2],
    interp: None,
    catmull_rom: false,
    tiles: false,
    skew: None,
    derivatives: false,
    magnitude: 4.0,
    lipschitz: gabor_lipschitz,
    // Its truncated kernels jump.
    curvature: no_curvature,
    spread: gabor_spread,
    discontinuity: |_| Some("Gabor kernels at their 5% truncation"),
    steepest: Some("gabor_frequency"),
    params: &[
        FREQUENCY,
        SEED,
        positive("density", 8.0, MAX_DENSITY, "mean impulses per cell"),
        positive(
            "gabor_frequency",
            1.5,
            MAX_GABOR_FREQUENCY,
            "the kernel's frequency F0, cycles per cell",
        ),
        Param {
            name: "gabor_orientation",
            ty: ParamType::Orientation { default: 45.0 },
            doc: "the kernel's direction (45 degrees unless told), or \"isotropic\" for a random one per impulse",
        },
        Param {
            name: "gabor_bandwidth",
            ty: ParamType::Number {
                default: 1.0,
                min: MIN_GABOR_BANDWIDTH,
                max: MAX_GABOR_BANDWIDTH,
                min_open: false,
            },
            doc: "the Gaussian envelope's bandwidth a, per cell (the kernel reaches sqrt(ln 20 / pi) / a cells, at most 2)",
        },
    ],
    twin: gabor,
    twin_row: |lat, dims, start, step, out| octave_row(lat, dims, start, step, out, gabor),
    twin_dual: None,
    lanes: lanes::gabor_row,
    wide: None,
    wide_pair: None,
    lanes_dual: None,
    // Both impulse kinds' functions are in one file, included once (with sparse convolution).
    wgsl: "",
    wgsl_call: |_, _, lat, pt| format!("gabor({lat}, {pt})"),
    wgsl_dual_call: None,
};

/// Gabor noise (2D only).
#[inline(always)]
fn gabor(
    lat: &super::lattice::twin::Lattice,
    pt: &super::lattice::twin::LatticePoint,
    _: usize,
) -> f64 {
    twin::gabor(lat, pt)
}

/// Denser impulses add terms and make steeper noise: `sqrt(max(1, density / 3))`
/// (CONVENTIONS §7).
fn sparse_spread(fields: &KindFields) -> f64 {
    (fields.impulse.density / 3.0).max(1.0).sqrt()
}

/// Gabor's carrier adds its frequency: `sqrt(max(1, density / 3)) max(1, F0)`.
fn gabor_spread(fields: &KindFields) -> f64 {
    sparse_spread(fields) * fields.impulse.gabor_frequency.max(1.0)
}

/// `8 x spread`.
fn sparse_lipschitz(fields: &KindFields, _: u32) -> f64 {
    OCTAVE_LIPSCHITZ * sparse_spread(fields)
}

fn gabor_lipschitz(fields: &KindFields, _: u32) -> f64 {
    OCTAVE_LIPSCHITZ * gabor_spread(fields)
}
