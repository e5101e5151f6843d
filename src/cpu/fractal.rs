//! One octave by kind, the fractal sums over octaves (CONVENTIONS §4), and the texel-to-point
//! map (CONVENTIONS §1); mirrors `shaders/noise/fractal.wgsl` and `texel_point` in
//! `shaders/kernels/render.wgsl`.

use super::cellular::cellular;
use super::common::Lattice;
use super::gradient::gradient;
use super::impulse::{gabor, sparse_convolution};
use super::perlin::{perlin1, perlin2, perlin3, perlin4};
use super::simplex::{simplex2, simplex3, simplex4};
use super::value::{value, value_catmull_rom};
use crate::spec::{Fractal, Interp, Kind, NoiseSpec, Prepared};

/// One octave of the spec's kind at `p` (already scaled to lattice units).
#[inline(always)]
pub fn noise_octave(lat: &Lattice, kind: Kind, dims: usize, p: [f64; 4]) -> f64 {
    match kind {
        Kind::Perlin => match dims {
            1 => perlin1(lat, p),
            2 => perlin2(lat, p),
            3 => perlin3(lat, p),
            _ => perlin4(lat, p),
        },
        Kind::Gradient => gradient(lat, p, dims),
        Kind::Value if lat.interp == Interp::CatmullRom => value_catmull_rom(lat, p, dims),
        Kind::Value => value(lat, p, dims),
        Kind::Simplex => match dims {
            2 => simplex2(lat, p),
            3 => simplex3(lat, p),
            _ => simplex4(lat, p),
        },
        Kind::Cellular => cellular(lat, p, dims),
        Kind::SparseConvolution => sparse_convolution(lat, p, dims),
        Kind::Gabor => gabor(lat, p),
    }
}

/// One octave's contribution before weighting (CONVENTIONS §4).
#[inline(always)]
pub fn fractal_term(fractal: Fractal, n: f64) -> f64 {
    match fractal {
        Fractal::None | Fractal::Fbm => n,
        Fractal::Turbulence => n.abs(),
        Fractal::Ridged => (1.0 - n.abs()) * (1.0 - n.abs()),
        Fractal::Billow => 2.0 * n.abs() - 1.0,
    }
}

/// The weighted sum of the terms (the weights sum to 1), remapped to [-1, 1] for ridged.
#[inline(always)]
pub fn fractal_finish(fractal: Fractal, sum: f64) -> f64 {
    if fractal == Fractal::Ridged {
        2.0 * sum - 1.0
    } else {
        sum
    }
}

/// The spec's noise at `p`: octave k samples `p * scale_k` with the tables of seed s + k and
/// adds `weight_k * term` (scales and weights come from [`Prepared`]).
pub fn fractal_noise(prep: &Prepared, p: [f64; 4]) -> f64 {
    let spec = prep.spec();
    let dims = spec.dims as usize;
    let mut sum = 0.0;
    for octave in prep.octaves() {
        let lat = Lattice::new(octave, spec.interp, prep.kind_params());
        let scale = octave.scale();
        let q = [p[0] * scale, p[1] * scale, p[2] * scale, p[3] * scale];
        let n = noise_octave(&lat, spec.kind, dims, q);
        sum += octave.weight() * fractal_term(spec.fractal, n);
    }
    fractal_finish(spec.fractal, sum)
}

/// The domain point of image texel (i, j, k): `frequency * (offset + (i, j, k, 0))`.
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

/// The spec's noise at image texel (i, j, k).
#[inline(always)]
pub fn noise_at_texel(prep: &Prepared, i: u32, j: u32, k: u32) -> f64 {
    fractal_noise(prep, texel_point(prep.spec(), i, j, k))
}
