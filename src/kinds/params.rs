//! What the kinds derive once, in f64, for every backend, from their own parameters
//! ([`KindFields`](super::KindFields), `fields.rs`: cellular's jitter, metric and return, the
//! impulses' density, Gabor's kernel)
//! ([`KindParams`], CONVENTIONS §9-§11): cellular noise's search and scaling, the impulses'
//! Poisson table and normalization, and Gabor's kernel. The GPU and the SIMD lanes receive these
//! numbers rounded to f32 ([`KindState`]).

use std::f64::consts::PI;

use bytemuck::{Pod, Zeroable};

use super::{CellReturn, Distance, Kind, KindFields};
use crate::layout::host_struct;

/// Impulses per cell at most; the Poisson table has this many thresholds.
pub const MAX_IMPULSES: usize = 64;

/// Everything the cellular, sparse-convolution and Gabor kinds read besides the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct KindParams {
    /// Cellular: feature-point jitter, 0..=1.
    pub jitter: f64,
    /// Cellular: the metric.
    pub distance: Distance,
    /// Cellular: what is returned.
    pub cell_return: CellReturn,
    /// Cellular: cells searched on each side of the point's cell (2, or 3 for 3D Manhattan).
    pub cell_search: i64,
    /// Cellular: cells whose nearest corner is at least this far (in the metric's internal
    /// units: squared for the Euclidean metrics) cannot hold F1 or F2 and are skipped.
    pub cell_bound: f64,
    /// Cellular: distances are divided by this metric's typical reach before scaling.
    pub distance_scale: f64,
    /// Cellular: `2 / s` for the returned quantity (output = q * return_scale - 1).
    pub return_scale: f64,
    /// Impulses: `u < poisson[k]` first at k gives the count k (u a random u32).
    pub poisson: [u32; MAX_IMPULSES],
    /// Impulses: `1 / (3 sigma)`, so the output's standard deviation is 1/3.
    pub impulse_scale: f64,
    /// Gabor: F0, cycles per cell.
    pub gabor_frequency: f64,
    /// Gabor: the envelope's bandwidth a.
    pub gabor_bandwidth: f64,
    /// Gabor: the fixed direction (cos, sin) of an anisotropic kernel.
    pub gabor_direction: [f64; 2],
    /// Gabor: a random direction per impulse.
    pub gabor_isotropic: bool,
    /// Gabor: the truncation radius `sqrt(ln 20 / pi) / a` in cells.
    pub gabor_radius: f64,
    /// Gabor: cells searched on each side, `ceil(radius)`.
    pub gabor_reach: i64,
}

/// Cellular distances are divided by this before scaling: about the 99.9th percentile of F1
/// for one uniformly jittered point per cell (docs/CONVENTIONS.md §9 gives the measurement).
pub fn cellular_distance_norm(distance: Distance, dims: u32) -> f64 {
    match (distance, dims) {
        (Distance::Euclidean | Distance::EuclideanSquared, _) => 1.0,
        (Distance::Manhattan, 2) => 1.25,
        (Distance::Manhattan, _) => 1.5,
        (Distance::Chebyshev, 2) => 0.875,
        (Distance::Chebyshev, _) => 0.8,
    }
}

/// `s` of `2 q / s - 1` for each returned quantity of normalized distances: about its 99.9th
/// percentile for one uniformly jittered point per cell (squared distances spread wider).
pub fn cellular_return_span(cell_return: CellReturn, distance: Distance) -> f64 {
    let squared = distance == Distance::EuclideanSquared;
    match (cell_return, squared) {
        (CellReturn::F2, false) => 1.2,
        (CellReturn::F2, true) => 1.4,
        (CellReturn::F2MinusF1, true) => 1.2,
        _ => 1.0,
    }
}

/// The sup over points of the second-nearest feature point's largest possible distance, with
/// one point anywhere in each cell: a cell whose nearest corner is farther cannot matter.
fn cellular_bound(distance: Distance, dims: u32) -> (i64, f64) {
    match (distance, dims) {
        (Distance::Euclidean | Distance::EuclideanSquared, 2) => (2, 1.59 * 1.59),
        (Distance::Euclidean | Distance::EuclideanSquared, _) => (2, 1.74 * 1.74),
        (Distance::Manhattan, 2) => (2, 2.0),
        (Distance::Manhattan, _) => (3, 3.0),
        (Distance::Chebyshev, _) => (2, 1.5),
    }
}

/// Poisson CDF thresholds for a mean of `density`: `T_k = floor(P(N <= k) 2^32)`, saturated.
pub fn poisson_thresholds(density: f64) -> [u32; MAX_IMPULSES] {
    let mut thresholds = [u32::MAX; MAX_IMPULSES];
    let mut p = (-density).exp();
    let mut cdf = 0.0;
    for (k, t) in thresholds.iter_mut().enumerate() {
        cdf += p;
        *t = (cdf * 4_294_967_296.0).floor().min(f64::from(u32::MAX)) as u32;
        p *= density / (k + 1) as f64;
    }
    thresholds
}

/// `integral of k(r)^2` over the plane (2D) or space (3D) for the sparse-convolution kernel
/// `k(r) = 0.5 + 0.5 cos(pi r)`, r < 1: `3 pi / 8 - 2 / pi` and `pi / 2 - 15 / (4 pi)`.
pub fn sparse_kernel_energy(dims: u32) -> f64 {
    if dims == 2 {
        3.0 * PI / 8.0 - 2.0 / PI
    } else {
        PI / 2.0 - 15.0 / (4.0 * PI)
    }
}

/// `integral of g(d)^2` over the plane for the (untruncated) Gabor kernel
/// `exp(-pi a^2 |d|^2) cos(2 pi F0 w.d)`: `(1 + exp(-2 pi F0^2 / a^2)) / (4 a^2)`.
pub fn gabor_kernel_energy(frequency: f64, bandwidth: f64) -> f64 {
    let a2 = bandwidth * bandwidth;
    (1.0 + (-2.0 * PI * frequency * frequency / a2).exp()) / (4.0 * a2)
}

impl KindParams {
    /// What `kind` in `dims` dimensions derives from its (valid) fields.
    pub fn new(kind: Kind, dims: u32, fields: &KindFields) -> Self {
        let (cell_search, cell_bound) = cellular_bound(fields.distance, dims);
        let norm = cellular_distance_norm(fields.distance, dims);
        let distance_scale = match fields.distance {
            Distance::EuclideanSquared => 1.0 / (norm * norm),
            _ => 1.0 / norm,
        };
        // Campbell's theorem: variance = density * E[w^2] * energy, E[w^2] = 1/3 for w in [-1, 1].
        let energy = match kind {
            Kind::Gabor => gabor_kernel_energy(fields.gabor_frequency, fields.gabor_bandwidth),
            _ => sparse_kernel_energy(dims.clamp(2, 3)),
        };
        let sigma = (fields.density / 3.0 * energy).sqrt();
        let radius = (20f64.ln() / PI).sqrt() / fields.gabor_bandwidth;
        let angle = fields.gabor_orientation.unwrap_or(0.0).to_radians();
        Self {
            jitter: fields.jitter,
            distance: fields.distance,
            cell_return: fields.cell_return,
            cell_search,
            cell_bound,
            distance_scale,
            return_scale: 2.0 / cellular_return_span(fields.cell_return, fields.distance),
            poisson: poisson_thresholds(fields.density),
            impulse_scale: 1.0 / (3.0 * sigma),
            gabor_frequency: fields.gabor_frequency,
            gabor_bandwidth: fields.gabor_bandwidth,
            gabor_direction: [angle.cos(), angle.sin()],
            gabor_isotropic: fields.gabor_orientation.is_none(),
            gabor_radius: radius,
            gabor_reach: radius.ceil() as i64,
        }
    }
}

host_struct! {
    /// The kind parameters as the GPU reads them (`struct KindState` in common.wgsl): the f64
    /// values of [`KindParams`] rounded to f32, codes as u32.
    #[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
    pub struct KindState as "KindState" {
        /// Cellular jitter.
        pub jitter: f32,
        /// Cellular distance scale.
        pub distance_scale: f32,
        /// Cellular return scale.
        pub return_scale: f32,
        /// Cellular search bound (internal metric units).
        pub cell_bound: f32,
        /// `Distance` code.
        pub distance: u32,
        /// `CellReturn` code.
        pub cell_return: u32,
        /// Cells searched on each side.
        pub cell_search: i32,
        /// 1 for isotropic Gabor noise.
        pub gabor_isotropic: u32,
        /// `1 / (3 sigma)` of the impulse kinds.
        pub impulse_scale: f32,
        /// Gabor F0.
        pub gabor_frequency: f32,
        /// Gabor a.
        pub gabor_bandwidth: f32,
        /// Gabor truncation radius in cells.
        pub gabor_radius: f32,
        /// Gabor direction (cos, sin).
        pub gabor_direction: [f32; 2],
        /// Gabor cells searched on each side.
        pub gabor_reach: i32,
        /// Padding to 16 bytes.
        pub _pad: u32,
        /// Poisson thresholds, four per vec4.
        pub poisson: [[u32; 4]; MAX_IMPULSES / 4],
    }
}

impl Default for KindState {
    fn default() -> Self {
        Zeroable::zeroed()
    }
}

impl KindState {
    /// The GPU's view of `params`.
    pub fn new(params: &KindParams) -> Self {
        let mut poisson = [[0u32; 4]; MAX_IMPULSES / 4];
        for (k, t) in params.poisson.iter().enumerate() {
            poisson[k / 4][k % 4] = *t;
        }
        Self {
            jitter: params.jitter as f32,
            distance_scale: params.distance_scale as f32,
            return_scale: params.return_scale as f32,
            cell_bound: params.cell_bound as f32,
            distance: params.distance as u32,
            cell_return: params.cell_return as u32,
            cell_search: params.cell_search as i32,
            gabor_isotropic: u32::from(params.gabor_isotropic),
            impulse_scale: params.impulse_scale as f32,
            gabor_frequency: params.gabor_frequency as f32,
            gabor_bandwidth: params.gabor_bandwidth as f32,
            gabor_radius: params.gabor_radius as f32,
            gabor_direction: params.gabor_direction.map(|v| v as f32),
            gabor_reach: params.gabor_reach as i32,
            _pad: 0,
            poisson,
        }
    }
}
