//! Ken Perlin's improved noise (2002), 1D-4D (CONVENTIONS §3): 3D is his reference; 1D and 2D
//! keep its hash, fade and corners with gradients of their own.

mod gradients;
pub(crate) mod lanes;
pub(crate) mod twin;

use super::param::{CORNER_INTERPS, FREQUENCY, SEED, interp};
use super::{Interp, KindInfo, continuous, smooth_curvature};

pub(super) static PERLIN: KindInfo = KindInfo {
    summary: "Ken Perlin's improved noise (§3), 1D-4D",
    dims: [1, 4],
    interp: Some(Interp::Quintic),
    catmull_rom: false,
    tiles: true,
    skew: None,
    derivatives: true,
    magnitude: 1.5,
    // The L1 norm of its gradient in cells: sampled maxima 2.7, 3.8, 4.8 and 6.0 in 1D-4D.
    lipschitz: |_, dims| 2.0 * f64::from(dims) + 2.0,
    // Sampled maxima 15.0, 25.6 and 32.9 in 1D-3D (the tightness tests).
    curvature: |dims, interp| smooth_curvature(dims, interp, |d| 10.0 * d + 10.0),
    spread: |_| 1.0,
    discontinuity: continuous,
    steepest: None,
    params: &[FREQUENCY, SEED, interp("quintic", CORNER_INTERPS)],
    twin: twin::perlin,
    twin_row: twin::perlin_row,
    twin_dual: Some(twin::perlin_d),
    lanes: lanes::row,
    #[cfg(target_arch = "x86_64")]
    wide: Some(lanes::wide_row),
    #[cfg(not(target_arch = "x86_64"))]
    wide: None,
    wide_pair: None,
    lanes_dual: Some(lanes::row_d),
    wgsl: include_str!("perlin.wgsl"),
    wgsl_call: |dims, _, lat, pt| format!("perlin{dims}({lat}, {pt})"),
    wgsl_dual_call: Some(|dims, _, lat, pt| {
        format!("gradient_kinds_d({lat}, {pt}, {dims}u, true)")
    }),
};
