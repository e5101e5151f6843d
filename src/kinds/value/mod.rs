//! Value noise: interpolated lattice values, 1D-4D, with Catmull-Rom besides the corner
//! interpolations (CONVENTIONS §3).

pub(crate) mod lanes;
pub(crate) mod twin;

use super::lattice::twin::octave_row;
use super::param::{FREQUENCY, SEED, interp};
use super::{Interp, KindInfo, continuous, smooth_curvature};

pub(super) static VALUE: KindInfo = KindInfo {
    summary: "value noise (§3), 1D-4D",
    dims: [1, 4],
    interp: Some(Interp::Quintic),
    catmull_rom: true,
    tiles: true,
    skew: None,
    derivatives: true,
    magnitude: 1.5,
    // The L1 norm of its gradient in cells: sampled maxima 3.5 to 4.8 in 1D-4D, every
    // interpolation.
    lipschitz: |_, _| 7.0,
    // Sampled maxima 10.9, 25.4 and 29.3 in 1D-3D (the tightness tests).
    curvature: |dims, interp| smooth_curvature(dims, interp, |d| 12.0 * d + 6.0),
    spread: |_| 1.0,
    discontinuity: continuous,
    steepest: None,
    params: &[FREQUENCY, SEED, interp("quintic", Interp::NAMES)],
    twin: twin::value_any,
    twin_row: |lat, dims, start, step, out| {
        octave_row(lat, dims, start, step, out, twin::value_any)
    },
    twin_dual: Some(|lat, pt, dims| {
        if lat.interp == Interp::CatmullRom {
            twin::value_catmull_rom_d(lat, pt, dims)
        } else {
            twin::value_d(lat, pt, dims)
        }
    }),
    lanes: lanes::row,
    #[cfg(target_arch = "x86_64")]
    wide: Some(lanes::wide_row),
    #[cfg(not(target_arch = "x86_64"))]
    wide: None,
    wide_pair: None,
    lanes_dual: Some(lanes::row_d),
    wgsl: include_str!("value.wgsl"),
    wgsl_call: |dims, interp, lat, pt| match interp {
        Interp::CatmullRom => format!("value_catmull_rom({lat}, {pt}, {dims}u)"),
        _ => format!("value({lat}, {pt}, {dims}u)"),
    },
    wgsl_dual_call: Some(|dims, interp, lat, pt| match interp {
        Interp::CatmullRom => format!("value_catmull_rom_d({lat}, {pt}, {dims}u)"),
        _ => format!("value_d({lat}, {pt}, {dims}u)"),
    }),
};
