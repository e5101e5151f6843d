//! The functions of the blend, select and fractal nodes (CONVENTIONS §13; the modifiers' and
//! the combiners' are theirs, in `modifiers` and `combiners`), written once
//! for the twin (f64) and the SIMD lanes (f32, the GPU's precision); the generated WGSL calls
//! functions of the same names in shaders/graph/graph.wgsl, in the same operation order.

use crate::kinds::lattice::real::{Real, lerp};

/// libnoise's Blend: `a + (b - a) (control + 1) / 2`.
#[inline(always)]
pub fn blend<R: Real>(a: R, b: R, control: R) -> R {
    lerp((control + R::one()) * R::of(0.5), a, b)
}

/// libnoise's Select with one threshold: a below `threshold - falloff`, b at and above
/// `threshold + falloff`, and between them `lerp(a, b, s(u))`, `s(u) = u^2 (3 - 2u)`
/// (WGSL: `select_between`).
#[inline(always)]
pub fn select<R: Real>(a: R, b: R, control: R, threshold: R, falloff: R) -> R {
    if falloff > R::zero() {
        let lo = threshold - falloff;
        if control < lo {
            return a;
        }
        if control < threshold + falloff {
            let u = (control - lo) / (R::of(2.0) * falloff);
            return lerp(u * u * (R::of(3.0) - R::of(2.0) * u), a, b);
        }
        return b;
    }
    if control < threshold { a } else { b }
}

/// One octave of Musgrave's ridged multifractal: `state = (sum of w s, sum of w, g)` with
/// `s = (offset - |n|)^2 g`, then `g = clamp(s gain, 0, 1)`; the state starts at (0, 0, 1).
#[inline(always)]
pub fn ridged_multi_octave<R: Real>(state: [R; 3], n: R, w: R, offset: R, gain: R) -> [R; 3] {
    let ridge = offset - n.abs();
    let s = ridge * ridge * state[2];
    [
        state[0] + w * s,
        state[1] + w,
        (s * gain).max(R::zero()).min(R::one()),
    ]
}

/// The ridged multifractal's value: `2 sum(w s) / sum(w) - 1`.
#[inline(always)]
pub fn ridged_multi_finish<R: Real>(state: [R; 3]) -> R {
    R::of(2.0) * state[0] / state[1] - R::one()
}

/// Musgrave's ridged multifractal over the octaves' values `n_k` with weights `w_k =
/// lacunarity^(-k h)`.
pub fn ridged_multi(values: &[f64], weights: &[f64], offset: f64, gain: f64) -> f64 {
    let state = (values.iter().zip(weights)).fold([0.0, 0.0, 1.0], |s, (&n, &w)| {
        ridged_multi_octave(s, n, w, offset, gain)
    });
    ridged_multi_finish(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_and_blend_meet_their_ends() {
        assert_eq!(blend(3.0, 5.0, -1.0), 3.0);
        assert_eq!(blend(3.0, 5.0, 1.0), 5.0);
        assert_eq!(select(3.0, 5.0, 0.2, 0.0, 0.1), 5.0);
        assert_eq!(select(3.0, 5.0, -0.2, 0.0, 0.1), 3.0);
        // Mid-way, s(1/2) = 1/2.
        assert_eq!(select(3.0, 5.0, 0.0, 0.0, 0.1), 4.0);
    }

    #[test]
    fn ridged_multifractal_of_flat_octaves_reaches_its_bounds() {
        // |n| = 0 everywhere: every ridge is offset^2 = 1, every feedback clamps to 1: output 1.
        let w = [1.0, 0.5, 0.25];
        assert_eq!(ridged_multi(&[0.0; 3], &w, 1.0, 2.0), 1.0);
        // |n| = 1: no ridges at all: -1.
        assert_eq!(ridged_multi(&[1.0, -1.0, 1.0], &w, 1.0, 2.0), -1.0);
    }
}
