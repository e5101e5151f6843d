//! What the newer kinds derive from a spec once, in f64, for both backends (CONVENTIONS §9-§11):
//! cellular noise's search and scaling, the impulses' Poisson table and normalization, and
//! Gabor's kernel. The GPU receives these numbers rounded to f32 (`gpu::state::KindState`).

use std::f64::consts::PI;

use super::{CellReturn, Distance, Kind, NoiseSpec};

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
    /// The parameters of a (valid) spec.
    pub fn of(spec: &NoiseSpec) -> Self {
        let (cell_search, cell_bound) = cellular_bound(spec.distance, spec.dims);
        let norm = cellular_distance_norm(spec.distance, spec.dims);
        let distance_scale = match spec.distance {
            Distance::EuclideanSquared => 1.0 / (norm * norm),
            _ => 1.0 / norm,
        };
        // Campbell's theorem: variance = density * E[w^2] * energy, E[w^2] = 1/3 for w in [-1, 1].
        let energy = match spec.kind {
            Kind::Gabor => gabor_kernel_energy(spec.gabor_frequency, spec.gabor_bandwidth),
            _ => sparse_kernel_energy(spec.dims.clamp(2, 3)),
        };
        let sigma = (spec.density / 3.0 * energy).sqrt();
        let radius = (20f64.ln() / PI).sqrt() / spec.gabor_bandwidth;
        let angle = spec.gabor_orientation.unwrap_or(0.0).to_radians();
        Self {
            jitter: spec.jitter,
            distance: spec.distance,
            cell_return: spec.cell_return,
            cell_search,
            cell_bound,
            distance_scale,
            return_scale: 2.0 / cellular_return_span(spec.cell_return, spec.distance),
            poisson: poisson_thresholds(spec.density),
            impulse_scale: 1.0 / (3.0 * sigma),
            gabor_frequency: spec.gabor_frequency,
            gabor_bandwidth: spec.gabor_bandwidth,
            gabor_direction: [angle.cos(), angle.sin()],
            gabor_isotropic: spec.gabor_orientation.is_none(),
            gabor_radius: radius,
            gabor_reach: radius.ceil() as i64,
        }
    }
}
