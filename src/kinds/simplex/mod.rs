//! Simplex noise (Gustavson 2005, "Simplex noise demystified"), 2D-4D (CONVENTIONS §8), on the
//! skewed lattice.

mod corners;
pub(crate) mod lanes;
pub(crate) mod twin;

use super::lattice::twin::octave_row;
use super::param::{FREQUENCY, SEED};
use super::{KindInfo, continuous};
use crate::tables::{F2, F4};

pub(super) static SIMPLEX: KindInfo = KindInfo {
    summary: "simplex noise (§8), 2D-4D",
    dims: [2, 4],
    interp: None,
    catmull_rom: false,
    tiles: false,
    skew: Some(|dims| match dims {
        2 => F2,
        3 => 1.0 / 3.0,
        _ => F4,
    }),
    derivatives: true,
    magnitude: 1.5,
    // The L1 norm of its gradient along the unskewed axes: sampled maxima 10.4, 14.1 and 25.1
    // in 2D-4D (steeper than the other kinds: its kernels are narrow).
    lipschitz: |_, dims| [16.0, 22.0, 38.0][dims.clamp(2, 4) as usize - 2],
    // 2D: sampled maximum 111 (the tightness tests); 3D's slope jumps at the kernels' edge
    // (radius^2 0.6 reaches past the simplex), 4D was not sampled.
    curvature: |dims, _| (dims == 2).then_some(150.0),
    spread: |_| 1.0,
    discontinuity: continuous,
    steepest: None,
    params: &[FREQUENCY, SEED],
    twin: twin::simplex,
    twin_row: |lat, dims, start, step, out| octave_row(lat, dims, start, step, out, twin::simplex),
    twin_dual: Some(|lat, pt, dims| {
        twin::simplex_d(&match dims {
            2 => twin::simplex2_corners(lat, pt),
            3 => twin::simplex3_corners(lat, pt),
            _ => twin::simplex4_corners(lat, pt),
        })
    }),
    lanes: lanes::row,
    #[cfg(target_arch = "x86_64")]
    wide: Some(lanes::wide_row),
    #[cfg(not(target_arch = "x86_64"))]
    wide: None,
    #[cfg(target_arch = "x86_64")]
    wide_pair: Some(lanes::wide_pair_row),
    #[cfg(not(target_arch = "x86_64"))]
    wide_pair: None,
    lanes_dual: Some(lanes::row_d),
    wgsl: include_str!("simplex.wgsl"),
    wgsl_call: |dims, _, lat, pt| format!("simplex{dims}({lat}, {pt})"),
    wgsl_dual_call: Some(|dims, _, lat, pt| {
        format!("simplex_d(simplex{dims}_corners({lat}, {pt}))")
    }),
};
