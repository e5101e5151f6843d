//! Ken Perlin's improved noise (2002), 1D-4D (CONVENTIONS §3): 3D is his reference; 1D and 2D
//! keep its hash, fade and corners with gradients of their own.

mod gradients;
pub(crate) mod lanes;
#[cfg(target_arch = "x86_64")]
mod rows;
pub(crate) mod twin;
#[cfg(target_arch = "x86_64")]
pub(crate) mod wide;

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
    params: &[FREQUENCY, SEED, interp("quintic", CORNER_INTERPS)],
    twin: twin::perlin,
    twin_row: twin::perlin_row,
    twin_dual: Some(twin::perlin_d),
    lanes: row,
    lanes_dual: Some(lanes::row_d),
    wgsl: include_str!("perlin.wgsl"),
    wgsl_call: |dims, _, lat, pt| format!("perlin{dims}({lat}, {pt})"),
    wgsl_dual_call: Some(|dims, _, lat, pt| {
        format!("gradient_kinds_d({lat}, {pt}, {dims}u, true)")
    }),
};

/// The kind's row for a plan's noise step: its wide row where the instruction set and lattice
/// have one (`lattice::wide`), else its lanes' kernel; the two compute the same numbers.
fn row(
    dims: u32,
    interp: Interp,
    lattice: super::LatticeKind,
    isa: super::InstructionSet,
) -> super::NoiseRow {
    #[cfg(target_arch = "x86_64")]
    if let Some(row) = rows::wide_row(dims, interp, lattice, isa) {
        return row;
    }
    lanes::row(dims, interp, lattice, isa)
}
