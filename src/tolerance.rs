//! How far the GPU's f32 result may lie from the f64 reference, and why (CONVENTIONS §7); and
//! the refusal to render on the GPU where that bound would be meaningless.

use crate::error::{Error, Result};
use crate::spec::{CellReturn, Fractal, Interp, Kind, NoiseSpec};

/// CONVENTIONS §7: f32 arithmetic inside one octave stays within 2e-5 of the f64 reference
/// when the sample point reaches the GPU exactly (measured: about 1e-7 on lavapipe and llvmpipe).
pub const ARITHMETIC_BOUND: f64 = 2e-5;

/// A bound larger than this fraction of the output range is no bound: the GPU refuses such
/// specs ([`check_gpu_precision`]) and `verify` fails them.
pub const MEANINGFUL_FRACTION: f64 = 1e-3;

/// A generous Lipschitz constant of one octave (|gradient| of any kind and smooth
/// interpolation here stays below it): how much a small error in the point moves the value.
pub const OCTAVE_LIPSCHITZ: f64 = 8.0;

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

/// Refuses specs whose GPU error bound exceeds [`Bound::meaningful_limit`]: far from the origin
/// the f32 points lose their fraction (an all-zero image would otherwise pass as correct).
/// The error names the field that moves the points there.
pub fn check_gpu_precision(spec: &NoiseSpec) -> Result<()> {
    let bound = gpu_error_bound(spec);
    let limit = Bound::meaningful_limit(spec);
    if bound.value <= limit {
        return Ok(());
    }
    let mut first_octave = spec.clone();
    first_octave.octaves = 1;
    let field = if spec.octaves > 1 && gpu_error_bound(&first_octave).value <= limit {
        "lacunarity"
    } else {
        spec.offset_or_frequency()
    };
    Err(Error::Precision {
        field,
        reason: format!(
            "GPU precision: f32 sample points here give an error bound of {:.3e}, more than \
             {limit:e} (1e-3 of the output range), so the GPU cannot render this spec \
             meaningfully ({}). Render it on the CPU (f64), or bring the points nearer the \
             origin (|p| < ~1000 cells unless frequency and lacunarity are powers of two and \
             offsets whole numbers below 2^24)",
            bound.value, bound.reason
        ),
    })
}

/// [`check_gpu_precision`] for caller-given points (`sample`): each point reaches the GPU
/// rounded to f32 unless it is an exact f32.
pub fn check_points_precision(spec: &NoiseSpec, points: &[[f64; 4]]) -> Result<()> {
    let exact = |v: f64| f64::from(v as f32) == v;
    let all_exact = points.iter().all(|p| p.iter().all(|&c| exact(c)));
    let lacunarity_exact = spec.octaves == 1 || is_power_of_two(spec.lacunarity);
    if all_exact && lacunarity_exact {
        return Ok(());
    }
    let reach = points
        .iter()
        .flat_map(|p| p.iter().map(|c| c.abs()))
        .fold(0.0, f64::max);
    let rounding = rounding_term(spec, reach);
    let limit = Bound::meaningful_limit(spec);
    if ARITHMETIC_BOUND + rounding <= limit {
        return Ok(());
    }
    Err(Error::Precision {
        field: "points",
        reason: format!(
            "GPU precision: points up to |p| = {reach:e} are not exact in f32; rounding them              gives an error bound of {:.3e}, more than {limit:e}; sample them on the CPU",
            ARITHMETIC_BOUND + rounding
        ),
    })
}

fn is_power_of_two(v: f64) -> bool {
    v > 0.0 && v.log2().fract() == 0.0
}

/// True when every sample point is an exact f32: power-of-two frequency and lacunarity, and
/// whole offsets with every texel coordinate below 2^24. Then the GPU sees the same points.
pub fn points_exact_in_f32(spec: &NoiseSpec) -> bool {
    let pow2 = is_power_of_two;
    let extent = [spec.size.width, spec.size.height, spec.size.depth, 1];
    let offsets_whole = spec
        .offset
        .iter()
        .zip(extent)
        .all(|(o, e)| o.fract() == 0.0 && o.abs() + f64::from(e) < (1u64 << 24) as f64);
    pow2(spec.frequency) && (spec.octaves == 1 || pow2(spec.lacunarity)) && offsets_whole
}

/// The largest |GPU - CPU| a correct kernel can produce for `spec`.
///
/// `2e-5` for the arithmetic, plus, when the points are not exact f32 values, the error from
/// rounding them: `8 * 2^-22 * |p|` per octave at that octave's |p|, weighted like the sum.
pub fn gpu_error_bound(spec: &NoiseSpec) -> Bound {
    if points_exact_in_f32(spec) {
        return Bound {
            value: ARITHMETIC_BOUND,
            reason: "2e-5: f32 arithmetic within an octave (CONVENTIONS §7); every sample point \
                     is exact in f32"
                .into(),
        };
    }
    let p = spec.max_abs_coord();
    let rounding = rounding_term(spec, p);
    let mut reason = format!(
        "2e-5 for f32 arithmetic + {rounding:.2e} for rounding sample points to f32 (|p| up to \
         {p:.4e}; the frequency, lacunarity or offset is not a power of two / whole number)"
    );
    if let Some(jump) = discontinuity(spec) {
        reason.push_str(&format!(
            "; {jump} are discontinuous, so a rounded point can flip a step"
        ));
    }
    Bound {
        value: ARITHMETIC_BOUND + rounding,
        reason,
    }
}

/// The error from rounding points of magnitude up to `p` (octave 0) to f32: `8 * 2^-22 * |p|`
/// per octave at that octave's |p|, weighted like the fractal sum.
fn rounding_term(spec: &NoiseSpec, p: f64) -> f64 {
    let lipschitz = octave_lipschitz(spec);
    let weights = crate::spec::octave_weights(spec.persistence, spec.octaves);
    let mut scale = 1.0;
    let mut weighted = 0.0;
    for w in weights {
        weighted += w * p * scale;
        scale *= spec.lacunarity;
    }
    let shaping = match spec.fractal {
        Fractal::Ridged => 4.0,
        Fractal::Billow => 2.0,
        _ => 1.0,
    };
    lipschitz * shaping * 2f64.powi(-22) * weighted
}

/// How fast one octave can change: [`OCTAVE_LIPSCHITZ`], more for dense impulses and for
/// Gabor's oscillation (CONVENTIONS §7).
pub fn octave_lipschitz(spec: &NoiseSpec) -> f64 {
    match spec.kind {
        Kind::SparseConvolution => OCTAVE_LIPSCHITZ * (spec.density / 3.0).max(1.0).sqrt(),
        Kind::Gabor => {
            OCTAVE_LIPSCHITZ * (spec.density / 3.0).max(1.0).sqrt() * spec.gabor_frequency.max(1.0)
        }
        _ => OCTAVE_LIPSCHITZ,
    }
}

/// What in `spec` is discontinuous, if anything (a rounded point may jump across it).
pub fn discontinuity(spec: &NoiseSpec) -> Option<&'static str> {
    match spec.kind {
        _ if spec.interp == Interp::Nearest && spec.kind.interpolates() => Some("nearest steps"),
        Kind::Cellular if spec.cell_return == CellReturn::CellValue => Some("cell-value borders"),
        Kind::Simplex if spec.dims >= 3 => Some("3D and 4D simplex faces (r2 = 0.6)"),
        Kind::Gabor => Some("Gabor kernels at their 5% truncation"),
        _ => None,
    }
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
