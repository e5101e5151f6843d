//! Cellular noise (Worley 1996), 2D and 3D (CONVENTIONS §9): distances to jittered feature
//! points, one per cell, found exactly for any jitter.

mod cells;
pub(crate) mod lanes;
pub(crate) mod params;
pub(crate) mod twin;

use super::lattice::twin::octave_row;
use super::param::{FREQUENCY, SEED, choice, number};
use super::{CellReturn, Distance, KindFields, KindInfo, OCTAVE_LIPSCHITZ, no_curvature};

pub(super) static CELLULAR: KindInfo = KindInfo {
    summary: "cellular noise (§9), 2D-3D",
    dims: [2, 3],
    interp: None,
    catmull_rom: false,
    tiles: true,
    skew: None,
    derivatives: false,
    magnitude: 2.0,
    // Distances change by at most one cell per cell moved along each axis; returns combine two.
    lipschitz: |_, _| OCTAVE_LIPSCHITZ,
    // Its slope jumps at cell borders.
    curvature: no_curvature,
    spread: |_| 1.0,
    discontinuity: cell_borders,
    steepest: None,
    params: &[
        FREQUENCY,
        SEED,
        number(
            "jitter",
            1.0,
            0.0,
            1.0,
            "how far feature points stray from their cell's center",
        ),
        choice(
            "distance",
            "euclidean",
            Distance::NAMES,
            "the distance metric",
        ),
        choice("return", "f1", CellReturn::NAMES, "what the noise returns"),
    ],
    twin: twin::cellular,
    twin_row: |lat, dims, start, step, out| octave_row(lat, dims, start, step, out, twin::cellular),
    twin_dual: None,
    lanes: lanes::row,
    #[cfg(target_arch = "x86_64")]
    wide: Some(lanes::wide_row),
    #[cfg(not(target_arch = "x86_64"))]
    wide: None,
    wide_pair: None,
    lanes_dual: None,
    wgsl: include_str!("cellular.wgsl"),
    wgsl_call: |dims, _, lat, pt| format!("cellular({lat}, {pt}, {dims}u)"),
    wgsl_dual_call: None,
};

/// `cell-value` is flat per cell, so it jumps at cell borders, which f32 and f64 may place a
/// texel on either side of.
fn cell_borders(fields: &KindFields) -> Option<&'static str> {
    (fields.cellular.cell_return == CellReturn::CellValue).then_some("cell-value borders")
}
