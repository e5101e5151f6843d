//! How far the GPU's f32 result may lie from the f64 reference, and why (CONVENTIONS §7); and
//! the refusal to render on the GPU where that bound would be meaningless.

use crate::error::{Error, Result};
use crate::kinds::{Interp, Kind, KindFields};
use crate::spec::{Fractal, NoiseSpec};

/// CONVENTIONS §7: f32 roundings allowed per lattice corner an octave reads, each of the
/// kind's magnitude (measured: 1e-7 to 1e-6 per octave on lavapipe and llvmpipe, 6 to 40 times
/// under the resulting bound).
pub const ROUNDINGS_PER_CORNER: f64 = 8.0;

/// f32 arithmetic inside one octave of `kind` in `dims` dimensions, when the sample point
/// reaches the GPU exactly (CONVENTIONS §7): [`ROUNDINGS_PER_CORNER`] roundings (2^-24) of its
/// magnitude per corner it reads (2^dims, simplex dims + 1; one for `nearest` steps), times the kind's `spread`
/// (dense impulses, Gabor's oscillation), which scales their Lipschitz constant too.
pub fn arithmetic_bound(kind: Kind, dims: u32, interp: Interp, fields: &KindFields) -> f64 {
    let info = kind.info();
    let corners = if interp == Interp::Nearest && kind.interpolates() {
        1.0
    } else if info.skew.is_some() {
        // Simplex reads its simplex's dims + 1 corners.
        f64::from(dims + 1)
    } else {
        f64::from(1u32 << dims)
    };
    let spread = (info.spread)(fields);
    ROUNDINGS_PER_CORNER * corners * info.magnitude * spread * 2f64.powi(-24)
}

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
    // What makes an octave steep: the kind's steepest parameter, else the kind itself.
    let field = spec.kind.info().steepest.unwrap_or("kind");
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
/// origin: f32 arithmetic within an octave ([`arithmetic_bound`]) plus the GPU's 24-bit
/// fractions (`Lipschitz x 2^-24`), both x4 for ridged and x2 for billow.
pub fn gpu_error_bound(spec: &NoiseSpec) -> Bound {
    let shaping = shaping(spec.fractal);
    let arithmetic =
        shaping * arithmetic_bound(spec.kind, spec.dims, spec.interp, &spec.kind_fields);
    let truncation = shaping * octave_lipschitz(spec) * 2f64.powi(-24);
    let mut reason = format!(
        "{arithmetic:.1e} for f32 arithmetic within an octave (CONVENTIONS §7) + \
         {truncation:.1e} for the GPU's 24-bit fractions; points are split exactly into cells \
         and fractions (§1), so the bound does not grow with |p|"
    );
    if let Some(jump) = discontinuity(spec) {
        reason.push_str(&format!(
            "; {jump} are discontinuous, so a texel within 2^-24 cells of one may jump"
        ));
    }
    Bound {
        value: arithmetic + truncation,
        reason,
    }
}

/// How much a fractal sum's term stretches an octave's error (the octave weights sum to 1):
/// ridged's `(1 - |n|)^2` doubled by its finish 4, billow's `2 |n| - 1` 2.
fn shaping(fractal: Fractal) -> f64 {
    match fractal {
        Fractal::Ridged => 4.0,
        Fractal::Billow => 2.0,
        _ => 1.0,
    }
}

/// How fast one octave can change: [`OCTAVE_LIPSCHITZ`], more for dense impulses and for
/// Gabor's oscillation (CONVENTIONS §7).
pub fn octave_lipschitz(spec: &NoiseSpec) -> f64 {
    (spec.kind.info().lipschitz)(&spec.kind_fields, spec.dims)
}

/// How fast one octave's gradient can turn (each kind's `curvature`, CONVENTIONS §13),
/// where it is continuous and was sampled; the running bound's allowance (CONVENTIONS §13).
pub fn octave_curvature(spec: &NoiseSpec) -> Option<f64> {
    (spec.kind.info().curvature)(spec.dims, spec.interp)
}

/// What in `spec` is discontinuous where f32 and f64 arithmetic can decide differently, if
/// anything. (Steps of `nearest` and simplex's corner order are decided on the fractions' top
/// 24 bits, identically on both backends.)
pub fn discontinuity(spec: &NoiseSpec) -> Option<&'static str> {
    (spec.kind.info().discontinuity)(&spec.kind_fields)
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
