//! One step of an expanded plan (CONVENTIONS §13): what it reads and computes. The numbers are
//! f64 as the plan expands them, f32 where the SIMD lanes run it ([`Step::to_f32`]).

use super::node::{Combiner, Modifier};
use crate::kinds::Fractal;

/// One step; its result is register `index` (a value in lane 0, or a displacement vector).
/// Its numbers are f64 as expanded, f32 where the lanes run it ([`Step::to_f32`]).
#[derive(Clone, Debug)]
pub(crate) enum Step<R = f64> {
    /// Noise instance `instance` at its frame's point, plus `delta_map` times the displacement.
    Noise {
        instance: usize,
        delta: Option<usize>,
    },
    /// Coordinate instance `instance`'s axis, plus its frequency times the displacement's.
    Coordinate {
        instance: usize,
        axis: usize,
        delta: Option<usize>,
    },
    Constant(R),
    Fractal {
        fractal: Fractal,
        terms: Vec<(usize, R)>,
    },
    RidgedMulti {
        values: Vec<usize>,
        weights: Vec<R>,
        offset: R,
        gain: R,
    },
    Modify {
        input: usize,
        modifier: Modifier<R>,
    },
    Combine {
        combiner: Combiner<R>,
        inputs: Vec<usize>,
    },
    Blend {
        a: usize,
        b: usize,
        control: usize,
    },
    Select {
        a: usize,
        b: usize,
        control: usize,
        threshold: R,
        falloff: R,
    },
    /// A displacement mapped by a matrix (a scale or rotation below a warp).
    Linear {
        input: usize,
        m: [[R; 4]; 4],
    },
    /// `base + amplitude (by_0, by_1, ...)` (base 0 when none).
    Displace {
        base: Option<usize>,
        by: Vec<usize>,
        amplitude: R,
    },
}

impl<R> Step<R> {
    /// The registers this step reads: values (lane 0), then displacement vectors.
    pub(crate) fn inputs(&self) -> (Vec<usize>, Vec<usize>) {
        match self {
            Step::Noise { delta, .. } | Step::Coordinate { delta, .. } => {
                (Vec::new(), delta.iter().copied().collect())
            }
            Step::Constant(_) => (Vec::new(), Vec::new()),
            Step::Fractal { terms, .. } => (terms.iter().map(|t| t.0).collect(), Vec::new()),
            Step::RidgedMulti { values, .. } => (values.clone(), Vec::new()),
            Step::Modify { input, .. } => (vec![*input], Vec::new()),
            Step::Combine { inputs, .. } => (inputs.clone(), Vec::new()),
            Step::Blend { a, b, control } | Step::Select { a, b, control, .. } => {
                (vec![*a, *b, *control], Vec::new())
            }
            Step::Linear { input, .. } => (Vec::new(), vec![*input]),
            Step::Displace { base, by, .. } => (by.clone(), base.iter().copied().collect()),
        }
    }

    /// Whether the result is a displacement vector (else a value).
    pub(crate) fn is_vector(&self) -> bool {
        matches!(self, Step::Linear { .. } | Step::Displace { .. })
    }
}

impl Step {
    /// The same step with its numbers rounded to f32, as the GPU's state holds them.
    pub(crate) fn to_f32(&self) -> Step<f32> {
        let f = |x: f64| x as f32;
        match self {
            Step::Noise { instance, delta } => Step::Noise {
                instance: *instance,
                delta: *delta,
            },
            Step::Coordinate {
                instance,
                axis,
                delta,
            } => Step::Coordinate {
                instance: *instance,
                axis: *axis,
                delta: *delta,
            },
            Step::Constant(v) => Step::Constant(f(*v)),
            Step::Fractal { fractal, terms } => Step::Fractal {
                fractal: *fractal,
                terms: terms.iter().map(|&(i, w)| (i, f(w))).collect(),
            },
            Step::RidgedMulti {
                values,
                weights,
                offset,
                gain,
            } => Step::RidgedMulti {
                values: values.clone(),
                weights: weights.iter().copied().map(f).collect(),
                offset: f(*offset),
                gain: f(*gain),
            },
            Step::Modify { input, modifier } => Step::Modify {
                input: *input,
                modifier: modifier.to_f32(),
            },
            Step::Combine { combiner, inputs } => Step::Combine {
                combiner: combiner.to_f32(),
                inputs: inputs.clone(),
            },
            Step::Blend { a, b, control } => Step::Blend {
                a: *a,
                b: *b,
                control: *control,
            },
            Step::Select {
                a,
                b,
                control,
                threshold,
                falloff,
            } => Step::Select {
                a: *a,
                b: *b,
                control: *control,
                threshold: f(*threshold),
                falloff: f(*falloff),
            },
            Step::Linear { input, m } => Step::Linear {
                input: *input,
                m: m.map(|row| row.map(f)),
            },
            Step::Displace {
                base,
                by,
                amplitude,
            } => Step::Displace {
                base: *base,
                by: by.clone(),
                amplitude: f(*amplitude),
            },
        }
    }
}
