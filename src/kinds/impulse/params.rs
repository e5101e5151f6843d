//! The impulse kinds' own parameters, in the three forms every backend reads: as given
//! ([`ImpulseFields`]: density, and Gabor's kernel; their rows in [`FIELDS`]), what they derive
//! in f64 for the twin ([`ImpulseParams`]: the Poisson table, the normalization and Gabor's
//! kernel, CONVENTIONS §10-§11), and that rounded to f32 for the GPU and the SIMD lanes
//! ([`ImpulseState`], `struct ImpulseState` in impulse.wgsl). The kinds' composites hold one
//! of each under the name `impulse` (`own_params!` in `kinds/own.rs`).

use std::f64::consts::PI;

use bytemuck::{Pod, Zeroable};

use crate::kinds::fields::{KindField, KindValue, kind_field};
use crate::kinds::own::WgslAccessor;
use crate::kinds::{Kind, param};
use crate::layout::host_struct;

/// Impulses per cell at most; the Poisson table has this many thresholds.
pub const MAX_IMPULSES: usize = 64;

/// Sparse convolution's and Gabor's own parameters, as given. Sparse convolution takes only
/// `density`; the kinds' rows say which each takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpulseFields {
    /// Mean impulses per lattice cell, in (0, 16].
    pub density: f64,
    /// Gabor: the kernel's frequency F0 in cycles per lattice cell.
    pub gabor_frequency: f64,
    /// Gabor: the kernel's orientation in degrees, or `None` for isotropic noise (a random
    /// orientation per impulse).
    pub gabor_orientation: Option<f64>,
    /// Gabor: the Gaussian envelope's bandwidth a (per lattice cell); the kernel is truncated
    /// where the envelope falls below 5%, at radius `sqrt(ln 20 / pi) / a` cells.
    pub gabor_bandwidth: f64,
}

impl ImpulseFields {
    /// The defaults for `kind`: the density is its row's (3 for sparse convolution, 8 for
    /// Gabor; 3 for a kind that takes none).
    pub fn defaults(kind: Kind) -> Self {
        Self {
            density: param::number_default(kind.info().params, "density").unwrap_or(3.0),
            gabor_frequency: 1.5,
            gabor_orientation: Some(45.0),
            gabor_bandwidth: 1.0,
        }
    }
}

/// The rows of the impulse kinds' own parameters (see `cellular::params::FIELDS`).
pub(crate) static FIELDS: &[KindField] = &[
    kind_field!("density", impulse.density, number),
    kind_field!("gabor_frequency", impulse.gabor_frequency, number),
    KindField {
        name: "gabor_orientation",
        field: "gabor_orientation",
        get: |f| KindValue::Orientation(f.impulse.gabor_orientation),
        set: |f, v| match v {
            KindValue::Orientation(d) if d.is_none_or(f64::is_finite) => {
                f.impulse.gabor_orientation = d;
                Ok(())
            }
            other => Err(format!("must be degrees or \"isotropic\", got {other:?}")),
        },
    },
    kind_field!("gabor_bandwidth", impulse.gabor_bandwidth, number),
];

/// What the impulse kinds derive from their fields, in f64 (CONVENTIONS §10-§11).
#[derive(Clone, Debug, PartialEq)]
pub struct ImpulseParams {
    /// `u < poisson[k]` first at k gives the count k (u a random u32).
    pub poisson: [u32; MAX_IMPULSES],
    /// `1 / (3 sigma)`, so the output's standard deviation is 1/3.
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

impl ImpulseParams {
    /// What `kind` in `dims` dimensions derives from its (valid) fields.
    pub fn new(kind: Kind, dims: u32, fields: &ImpulseFields) -> Self {
        // Campbell's theorem: variance = density * E[w^2] * energy, E[w^2] = 1/3 for w in [-1, 1].
        let energy = match kind {
            Kind::Gabor => gabor_kernel_energy(fields.gabor_frequency, fields.gabor_bandwidth),
            _ => sparse_kernel_energy(dims.clamp(2, 3)),
        };
        let sigma = (fields.density / 3.0 * energy).sqrt();
        let radius = (20f64.ln() / PI).sqrt() / fields.gabor_bandwidth;
        let angle = fields.gabor_orientation.unwrap_or(0.0).to_radians();
        Self {
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
    /// The impulse kinds' parameters as the GPU and the SIMD lanes read them (`struct
    /// ImpulseState` in impulse.wgsl): [`ImpulseParams`] rounded to f32.
    #[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
    pub struct ImpulseState as "ImpulseState" {
        /// `1 / (3 sigma)`.
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
        /// 1 for isotropic Gabor noise.
        pub gabor_isotropic: u32,
        /// Poisson thresholds, four per vec4.
        pub poisson: [[u32; 4]; MAX_IMPULSES / 4],
    }
}

impl ImpulseState {
    /// The GPU's view of `params`.
    pub fn new(params: &ImpulseParams) -> Self {
        let mut poisson = [[0u32; 4]; MAX_IMPULSES / 4];
        for (k, t) in params.poisson.iter().enumerate() {
            poisson[k / 4][k % 4] = *t;
        }
        Self {
            impulse_scale: params.impulse_scale as f32,
            gabor_frequency: params.gabor_frequency as f32,
            gabor_bandwidth: params.gabor_bandwidth as f32,
            gabor_radius: params.gabor_radius as f32,
            gabor_direction: params.gabor_direction.map(|v| v as f32),
            gabor_reach: params.gabor_reach as i32,
            gabor_isotropic: u32::from(params.gabor_isotropic),
            poisson,
        }
    }
}

/// Poisson threshold k, read alone in WGSL (`kind_poisson`; one entry, not the whole table).
pub(crate) static WGSL_ACCESSORS: &[WgslAccessor] = &[WgslAccessor {
    signature: "kind_poisson(lat: Lattice, k: u32)",
    returns: "u32",
    member: "impulse.poisson[k / 4u][k % 4u]",
}];
