//! Classic gradient noise (1985 style) with seed-drawn unit gradients, 1D-3D (CONVENTIONS §3).

pub(crate) mod lanes;
pub(crate) mod twin;

use super::lattice::twin::octave_row;
use super::param::{CORNER_INTERPS, FREQUENCY, SEED, interp};
use super::{Interp, KindInfo, continuous, smooth_curvature};

pub(super) static GRADIENT: KindInfo = KindInfo {
    summary: "classic gradient noise (§3), 1D-3D",
    dims: [1, 3],
    interp: Some(Interp::Cubic),
    catmull_rom: false,
    tiles: true,
    skew: None,
    derivatives: true,
    magnitude: 1.5,
    // The L1 norm of its gradient in cells: sampled maxima 1.3, 2.5 and 3.0 in 1D-3D.
    lipschitz: |_, dims| 1.5 * f64::from(dims) + 1.0,
    // Sampled maxima 7.0, 16.9 and 22.2 in 1D-3D (the tightness tests).
    curvature: |dims, interp| smooth_curvature(dims, interp, |d| 10.0 * d),
    spread: |_| 1.0,
    discontinuity: continuous,
    steepest: None,
    params: &[FREQUENCY, SEED, interp("cubic", CORNER_INTERPS)],
    twin: twin::gradient,
    twin_row: |lat, dims, start, step, out| octave_row(lat, dims, start, step, out, twin::gradient),
    twin_dual: Some(twin::gradient_d),
    lanes: lanes::row,
    wide: None,
    wide_pair: None,
    lanes_dual: Some(lanes::row_d),
    wgsl: include_str!("gradient.wgsl"),
    wgsl_call: |dims, _, lat, pt| format!("gradient({lat}, {pt}, {dims}u)"),
    wgsl_dual_call: Some(|dims, _, lat, pt| {
        format!("gradient_kinds_d({lat}, {pt}, {dims}u, false)")
    }),
};
