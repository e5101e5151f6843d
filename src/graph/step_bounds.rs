//! A step's bounds (CONVENTIONS §13, after §7): how large its value can be and how far the
//! GPU's f32 value may lie from the twin's, the unit every node's bound is written in (`bound`
//! propagates them through a plan; a modifier states its own).

/// f32's relative rounding, allowed once per step on its magnitude.
pub(crate) const ROUNDING: f64 = 1.0 / 8_388_608.0; // 2^-23
/// The GPU's fractions keep 24 of the exact point's bits (§1).
pub(crate) const FRACTION: f64 = 1.0 / 16_777_216.0; // 2^-24

/// A step's bounds: |value| <= m, |GPU - twin| <= e (for a displacement, per component).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bounds {
    pub(crate) m: f64,
    pub(crate) e: f64,
    /// Where the value lies when known more closely than [-m, m] (a smoothstep's [0, 1]).
    pub(crate) range: Option<(f64, f64)>,
}

impl Bounds {
    /// The interval the value lies in.
    pub(crate) fn interval(&self) -> (f64, f64) {
        self.range.unwrap_or((-self.m, self.m))
    }

    /// A value in `[lo, hi]` with error `e`.
    pub(crate) fn within(lo: f64, hi: f64, e: f64) -> Bounds {
        Bounds {
            m: lo.abs().max(hi.abs()),
            e,
            range: Some((lo, hi)),
        }
    }

    /// A value of magnitude at most `m` whose error is `input`'s times `k` (a function whose
    /// slope is at most `k`).
    pub(crate) fn scaled(input: Bounds, k: f64, m: f64) -> Bounds {
        Bounds {
            range: None,
            m,
            e: k * input.e,
        }
    }
}
