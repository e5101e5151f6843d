//! The fractal sums over octaves (CONVENTIONS §4) and the texel-to-point map (CONVENTIONS §1);
//! mirrors `shaders/noise/fractal.wgsl` (one octave by kind is the table's, `kinds::noise_octave`).

use super::points::{instance_lattice, texel_lattice_point};
use crate::job::{FlatView, Job};
use crate::kinds::lattice::twin::{LatticePoint, lattice_point};
use crate::kinds::{Dual, Fractal, MAX_OCTAVES, noise_octave, noise_octave_dual};
use crate::spec::NoiseSpec;
use crate::spec::frames::sample_point;

pub use crate::kinds::fractal::{fractal_finish, fractal_term};

/// The weighted fractal sum of a flat job's octaves, octave k at `point(k)`.
#[inline(always)]
fn fractal_sum(job: &Job, flat: &FlatView, point: impl Fn(usize) -> LatticePoint) -> f64 {
    let spec = &flat.spec;
    let dims = spec.dims as usize;
    let mut sum = 0.0;
    for k in 0..flat.octaves() {
        let n = noise_octave(&instance_lattice(job, k), spec.kind, dims, &point(k));
        sum += flat.weights[k] * fractal_term(spec.fractal, n);
    }
    fractal_finish(spec.fractal, sum)
}

/// A flat job's noise at a caller-given point `p` (noise space, no frequency applied): octave
/// k samples `p x scale_k`, split exactly (CONVENTIONS §1), with the tables of seed s + k.
/// Points that [`NoiseSpec::check_points`] refuses, and graph jobs (whose points are in texel
/// units: [`sample_texels`](crate::cpu::sample_texels)), give NaN.
pub fn fractal_noise(job: &Job, p: [f64; 4]) -> f64 {
    let Some(flat) = job.flat() else {
        return f64::NAN;
    };
    let spec = &flat.spec;
    let skew = spec.kind.skew(spec.dims);
    let mut points = [LatticePoint::default(); MAX_OCTAVES as usize];
    for (k, point) in points.iter_mut().enumerate().take(flat.octaves()) {
        let scale = flat.scales[k];
        match sample_point(p, scale, skew, spec.dims as usize, job.period(k)) {
            Some(l) => *point = lattice_point(&l),
            None => return f64::NAN,
        }
    }
    fractal_sum(job, flat, |k| points[k])
}

/// The domain point of image texel (i, j, k), `frequency * (offset + (i, j, k, 0))`, rounded to
/// f64: for display and approximate checks. The noise itself samples the exact point of the
/// octave frames (CONVENTIONS §1).
#[inline(always)]
pub fn texel_point(spec: &NoiseSpec, i: u32, j: u32, k: u32) -> [f64; 4] {
    let f = spec.frequency;
    let o = spec.offset;
    [
        f * (o[0] + f64::from(i)),
        f * (o[1] + f64::from(j)),
        f * (o[2] + f64::from(k)),
        f * o[3],
    ]
}

/// The job's noise at image texel `t`: a flat job's octaves at their frames' exact lattice
/// points, any other plan step by step.
#[inline(always)]
pub fn noise_at_texel(job: &Job, t: [u32; 3]) -> f64 {
    match job.flat() {
        Some(flat) => fractal_sum(job, flat, |k| texel_lattice_point(job.frame(k), t)),
        None => super::plan::value_at(job, super::plan::Position::Texel(t), &mut Vec::new()),
    }
}

/// A flat job's noise at image texel `t` with its partial derivatives along the texel axes:
/// `[value, d/di, d/dj, d/dk]` (CONVENTIONS §12). Octave k's lattice gradient is chained
/// through the fractal term and times `frequency * scale_k` (lattice cells per texel). `None`
/// for kinds without derivatives ([`NoiseSpec::check_derivatives`]) and for graph jobs.
pub fn noise_gradient_at_texel(job: &Job, t: [u32; 3]) -> Option<[f64; 4]> {
    let flat = job.flat()?;
    let spec = &flat.spec;
    let dims = spec.dims as usize;
    let (mut sum, mut grad) = (0.0, [0.0; 4]);
    for k in 0..flat.octaves() {
        let lat = instance_lattice(job, k);
        let pt = texel_lattice_point(job.frame(k), t);
        let octave_d = noise_octave_dual(&lat, spec.kind, dims, &pt)?;
        let (n, g) = fractal_term_d(spec.fractal, octave_d);
        let per_texel = spec.frequency * flat.scales[k];
        sum += flat.weights[k] * n;
        // Only the kind's dims axes: a 2D kind's corner gradients may have a third component,
        // which moves nothing.
        for a in 0..dims {
            grad[a] += flat.weights[k] * per_texel * g[a];
        }
    }
    let (value, stretch) = if spec.fractal == Fractal::Ridged {
        (2.0 * sum - 1.0, 2.0)
    } else {
        (sum, 1.0)
    };
    Some([
        value,
        stretch * grad[0],
        stretch * grad[1],
        stretch * grad[2],
    ])
}

/// `fractal_term` with its gradient: |N|' = sign(N) N' (sign(0) = +1).
#[inline(always)]
pub fn fractal_term_d(fractal: Fractal, (n, g): Dual) -> Dual {
    let s = if n < 0.0 { -1.0 } else { 1.0 };
    match fractal {
        Fractal::None | Fractal::Fbm => (n, g),
        Fractal::Turbulence => (n.abs(), g.map(|c| s * c)),
        Fractal::Ridged => {
            let r = 1.0 - n.abs();
            (r * r, g.map(|c| -2.0 * r * s * c))
        }
        Fractal::Billow => (2.0 * n.abs() - 1.0, g.map(|c| 2.0 * s * c)),
    }
}
