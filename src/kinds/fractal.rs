//! The fractal sums' per-octave term and finish (CONVENTIONS §4), written once for the twin
//! (f64) and the lanes (f32); fractal.wgsl has the same two functions.

use super::Fractal;
use super::lattice::real::Real;

/// One octave's contribution before weighting.
#[inline(always)]
pub fn fractal_term<R: Real>(fractal: Fractal, n: R) -> R {
    let one = R::one();
    match fractal {
        Fractal::None | Fractal::Fbm => n,
        Fractal::Turbulence => n.abs(),
        Fractal::Ridged => (one - n.abs()) * (one - n.abs()),
        Fractal::Billow => R::of(2.0) * n.abs() - one,
    }
}

/// The weighted sum of the terms (the weights sum to 1), remapped to [-1, 1] for ridged.
#[inline(always)]
pub fn fractal_finish<R: Real>(fractal: Fractal, sum: R) -> R {
    if fractal == Fractal::Ridged {
        R::of(2.0) * sum - R::one()
    } else {
        sum
    }
}
