//! How far the GPU's f32 result may lie from the f64 reference, and why (CONVENTIONS §7); and
//! the refusal to render on the GPU where that bound would be meaningless.

use crate::error::{Error, Result};
use crate::spec::{Fractal, NoiseSpec};

/// CONVENTIONS §7: f32 arithmetic inside one octave stays within 2e-5 of the f64 reference
/// when the sample point reaches the GPU exactly (measured: about 1e-7 on lavapipe and llvmpipe).
pub const ARITHMETIC_BOUND: f64 = 2e-5;

/// A bound larger than this fraction of the output range is no bound: the GPU refuses such
/// specs ([`check_gpu_precision`]) and `verify` fails them.
pub const MEANINGFUL_FRACTION: f64 = 1e-3;

pub use crate::kinds::OCTAVE_LIPSCHITZ;

/// The bound and the reasoning behind it, as `verify` prints it.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    /// The largest |GPU - CPU| a correct kernel can produce.
    pub value: f64,
    /// Where the bound comes from.
    pub reason: String,
}

impl Bound {
    /// The largest bound that still says something about a spec's output:
    /// [`MEANINGFUL_FRACTION`] of its nominal range.
    pub fn meaningful_limit(spec: &NoiseSpec) -> f64 {
        let (lo, hi) = spec.fractal.nominal_range();
        MEANINGFUL_FRACTION * (hi - lo)
    }
}

/// Refuses specs whose GPU error bound exceeds [`Bound::meaningful_limit`] (an all-zero image
/// would otherwise pass as correct). Since points reach the GPU split exactly into cells and
/// fractions (CONVENTIONS §1), the bound no longer depends on |p| and every valid spec passes;
/// the check stays as a guard for kernels whose Lipschitz constant would make it meaningless.
pub fn check_gpu_precision(spec: &NoiseSpec) -> Result<()> {
    let bound = gpu_error_bound(spec);
    let limit = Bound::meaningful_limit(spec);
    if bound.value <= limit {
        return Ok(());
    }
    // What makes an octave steep: Gabor's frequency, the impulse density, else the kind itself.
    let steepest = ["gabor_frequency", "density"]
        .into_iter()
        .find(|p| spec.kind.info().params.iter().any(|q| q.name == *p));
    let field = steepest.unwrap_or("kind");
    Err(Error::Precision {
        field,
        reason: format!(
            "GPU precision: the error bound {:.3e} is more than {limit:e} (1e-3 of the output \
             range), so the GPU cannot render this spec meaningfully ({})",
            bound.value, bound.reason
        ),
    })
}

/// The largest |GPU - CPU| a correct kernel can produce for `spec`, at any distance from the
/// origin: `2e-5` for f32 arithmetic within an octave, plus the GPU's 24-bit fractions
/// (`Lipschitz x 2^-24`, x4 for ridged, x2 for billow).
pub fn gpu_error_bound(spec: &NoiseSpec) -> Bound {
    let truncation = fraction_term(spec);
    let mut reason = format!(
        "2e-5 for f32 arithmetic within an octave (CONVENTIONS §7) + {truncation:.1e} for the \
         GPU's 24-bit fractions; points are split exactly into cells and fractions (§1), so the \
         bound does not grow with |p|"
    );
    if let Some(jump) = discontinuity(spec) {
        reason.push_str(&format!(
            "; {jump} are discontinuous, so a texel within 2^-24 cells of one may jump"
        ));
    }
    Bound {
        value: ARITHMETIC_BOUND + truncation,
        reason,
    }
}

/// The error from the GPU's fractions (24 bits of the exact 64): `Lipschitz x 2^-24` per
/// octave; the octave weights sum to 1.
fn fraction_term(spec: &NoiseSpec) -> f64 {
    let shaping = match spec.fractal {
        Fractal::Ridged => 4.0,
        Fractal::Billow => 2.0,
        _ => 1.0,
    };
    octave_lipschitz(spec) * shaping * 2f64.powi(-24)
}

/// How fast one octave can change: [`OCTAVE_LIPSCHITZ`], more for dense impulses and for
/// Gabor's oscillation (CONVENTIONS §7).
pub fn octave_lipschitz(spec: &NoiseSpec) -> f64 {
    (spec.kind.info().lipschitz)(&spec.kind_fields())
}

/// What in `spec` is discontinuous where f32 and f64 arithmetic can decide differently, if
/// anything. (Steps of `nearest` and simplex's corner order are decided on the fractions' top
/// 24 bits, identically on both backends.)
pub fn discontinuity(spec: &NoiseSpec) -> Option<&'static str> {
    (spec.kind.info().discontinuity)(&spec.kind_fields())
}

/// Texel-by-texel comparison of a GPU image with the f64 reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The largest |GPU - CPU| (infinite when either side has a NaN or the lengths differ).
    pub max_abs_err: f64,
    /// Root mean square of the differences.
    pub rmse: f64,
    /// Linear index of the texel with the largest error.
    pub worst_index: usize,
    /// The GPU's value at the worst texel.
    pub worst_gpu: f32,
    /// The reference's value at the worst texel.
    pub worst_cpu: f64,
}

/// Compares a GPU image with the f64 reference, texel by texel.
pub fn compare(gpu: &[f32], cpu: &[f64]) -> Comparison {
    let mut cmp = Comparison {
        max_abs_err: 0.0,
        rmse: 0.0,
        worst_index: 0,
        worst_gpu: gpu.first().copied().unwrap_or(0.0),
        worst_cpu: cpu.first().copied().unwrap_or(0.0),
    };
    let mut sum_sq = 0.0;
    for (n, (&g, &c)) in gpu.iter().zip(cpu).enumerate() {
        let err = (f64::from(g) - c).abs();
        // NaN on either side must count as the worst error, never be skipped.
        let err = if err.is_nan() { f64::INFINITY } else { err };
        sum_sq += err * err;
        if err > cmp.max_abs_err {
            cmp = Comparison {
                max_abs_err: err,
                worst_index: n,
                worst_gpu: g,
                worst_cpu: c,
                ..cmp
            };
        }
    }
    cmp.rmse = (sum_sq / cpu.len().max(1) as f64).sqrt();
    if gpu.len() != cpu.len() {
        cmp.max_abs_err = f64::INFINITY;
    }
    cmp
}
