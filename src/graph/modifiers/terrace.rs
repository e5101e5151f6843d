//! `terrace`: libnoise's Terrace, flat steps at the levels, curved between.

use super::{ModifierFn, ModifierType, ParamSink};
use crate::error::Result;
use crate::graph::fields::NodeReader;
use crate::graph::node_type::{Category, NodeType, of_source};
use crate::graph::step_bounds::Bounds;
use crate::kinds::lattice::lanes::{LANES, load_block, store_block};
use crate::kinds::lattice::real::{Real, lerp};
use crate::kinds::param::{Param, ParamType};

/// libnoise's Terrace.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrace<R = f64> {
    /// Levels, strictly increasing.
    pub points: Vec<R>,
    /// Steep edges at the top of each step.
    pub invert: bool,
}

impl<R: Real> Terrace<R> {
    /// The levels below and above `v` (`i0 == i1` below the first and at or above the last).
    #[inline(always)]
    fn around(&self, v: R) -> (usize, usize) {
        let n = self.points.len();
        let above = self.points.iter().position(|&p| v < p).unwrap_or(n);
        (above.saturating_sub(1), above.min(n - 1))
    }

    /// Flat at each level, `lerp(lo, hi, alpha^2)` between (alpha the place of v between the
    /// levels below and above it; inverted, the curve is turned over).
    #[inline(always)]
    fn terrace(&self, v: R) -> R {
        let (i0, i1) = self.around(v);
        if i0 == i1 {
            return self.points[i1];
        }
        between(self.points[i0], self.points[i1], self.invert, v)
    }

    /// `2 alpha` between two levels (alpha after the inversion: the derivative of
    /// `lo + alpha^2 (hi - lo)` in v), 0 below the first and above the last; at a level, the
    /// step that starts there (as `terrace`).
    #[inline(always)]
    fn terrace_slope(&self, v: R) -> R {
        let (i0, i1) = self.around(v);
        if i0 == i1 {
            return R::zero();
        }
        let alpha = (v - self.points[i0]) / (self.points[i1] - self.points[i0]);
        R::of(2.0) * if self.invert { R::one() - alpha } else { alpha }
    }
}

/// The terrace between its levels `lo` <= v < `hi`: `lerp(lo, hi, alpha^2)`, `alpha` the place
/// of v between them (inverted, the curve turned over).
#[inline(always)]
fn between<R: Real>(mut lo: R, mut hi: R, invert: bool, v: R) -> R {
    let mut alpha = (v - lo) / (hi - lo);
    if invert {
        alpha = R::one() - alpha;
        std::mem::swap(&mut lo, &mut hi);
    }
    lerp(alpha * alpha, lo, hi)
}

impl<R: Real> ModifierFn<R> for Terrace<R> {
    fn value(&self, v: R) -> R {
        self.terrace(v)
    }

    fn slope(&self, v: R) -> R {
        self.terrace_slope(v)
    }
}

/// Its lanes without a search per lane (`ModifierType::run`).
impl Terrace<f32> {
    /// Without a search per lane: a block's lanes go through the levels together, each keeping
    /// the highest level at or below its value and the lowest above it (selects that
    /// vectorize), then `between`; the same levels and arithmetic as the search, so the same
    /// bits. The levels increase strictly (in f32 too, as the reader checks), so `around`'s
    /// `i0 == i1` is a test against the first and last levels: below the first, or at or above
    /// the last (a NaN counts as at or above every level, as `around`'s `v < p` has it).
    #[inline(always)]
    fn run_levels(&self, input: &[f32], out: &mut [f32]) {
        let points = &self.points;
        let (first, last) = (points[0], points[points.len() - 1]);
        for (o, v) in out.chunks_mut(LANES).zip(input.chunks(LANES)) {
            // A short block (a row's end) is padded so every loop runs over whole registers;
            // whole blocks are fixed-size copies (a copy of `len` values was a memmove call
            // per block, 3% of the terrain example).
            let mut value = [0.0f32; LANES];
            load_block(v, &mut value);
            let mut lo = [first; LANES];
            let mut hi = [last; LANES];
            for &p in points {
                for l in 0..LANES {
                    lo[l] = if value[l] < p { lo[l] } else { p };
                }
            }
            for &p in points.iter().rev() {
                for l in 0..LANES {
                    hi[l] = if value[l] < p { p } else { hi[l] };
                }
            }
            let mut result = [0.0f32; LANES];
            for l in 0..LANES {
                let inner = between(lo[l], hi[l], self.invert, value[l]);
                let below_first = value[l] < first;
                // `&`, not `&&`: a branch per lane would keep the loop from vectorizing.
                let inside = !below_first & (value[l] < last);
                let edge = if below_first { first } else { last };
                result[l] = if inside { inner } else { edge };
            }
            store_block(o, &result);
        }
    }
}

impl ModifierType for Terrace {
    type Lanes = Terrace<f32>;
    const ROW: NodeType = of_source(
        "terrace",
        Category::Modifier,
        &[
            Param {
                name: "points",
                ty: ParamType::Points {
                    pairs: false,
                    min: 2,
                    default: &[-1.0, -0.5, 0.0, 0.5, 1.0],
                },
                doc: "terrace levels, increasing",
            },
            Param {
                name: "invert",
                ty: ParamType::Flag { default: false },
                doc: "steep edges at the top of each step instead of the bottom",
            },
        ],
        "libnoise's Terrace: flat steps at the levels, curved between",
    );
    const WGSL: Option<&'static str> = Some(include_str!(
        "../../../shaders/graph/modifiers/terrace.wgsl"
    ));

    fn read(node: &NodeReader) -> Result<Self> {
        Ok(Terrace {
            points: node.points("points")?.iter().map(|p| p[0]).collect(),
            invert: node.flag("invert")?,
        })
    }

    fn to_f32(&self) -> Terrace<f32> {
        Terrace {
            points: self.points.iter().map(|&x| x as f32).collect(),
            invert: self.invert,
        }
    }

    #[inline(always)]
    fn run(lanes: &Terrace<f32>, input: &[f32], out: &mut [f32]) {
        lanes.run_levels(input, out);
    }

    fn bounds(&self, input: Bounds) -> Bounds {
        let top = self.points.iter().map(|p| p.abs()).fold(0.0, f64::max);
        Bounds::scaled(input, 2.0, top)
    }

    fn error(&self, _: f64, e: f64) -> f64 {
        2.0 * e
    }

    fn wgsl(&self, params: &mut dyn ParamSink, v: &str, d: &str) -> String {
        let first = params.next_index();
        for &x in &self.points {
            params.push([x, 0.0, 0.0, 0.0]);
        }
        let (n, invert) = (self.points.len(), self.invert);
        format!("terrace{d}({v}, {first}u, {n}u, {invert})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terrace(levels: &[f64], invert: bool) -> Terrace {
        Terrace {
            points: levels.to_vec(),
            invert,
        }
    }

    #[test]
    fn terraces_are_flat_at_their_levels_and_rise_between() {
        let levels = [-1.0, 0.0, 0.5, 1.0];
        for l in levels {
            assert_eq!(terrace(&levels, false).value(l), l);
        }
        // Halfway between 0 and 0.5: alpha = 1/2, so 0 + 0.25 * 0.5 (inverted: 0.5 - 0.25 * 0.5).
        assert_eq!(terrace(&levels, false).value(0.25), 0.125);
        assert_eq!(terrace(&levels, true).value(0.25), 0.375);
        let mut last = f64::NEG_INFINITY;
        for i in -150..=150 {
            let v = terrace(&levels, false).value(f64::from(i) / 100.0);
            assert!(v >= last, "not monotone at {i}");
            last = v;
        }
    }
}
