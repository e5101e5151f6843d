//! Combiner nodes: several values folded left to right into one (CONVENTIONS §13). Each type is
//! one row, as the modifiers are: its file here holds its node-table row, how it is read, its
//! fold step on `Real` with and without gradients, its error bounds, its WGSL call; its WGSL
//! functions, if it has any, are `shaders/graph/combiners/<file>.wgsl`, and it is one line of
//! [`combiners!`] below.

mod add;
mod max;
mod min;
mod multiply;
mod smooth_max;
mod smooth_min;
mod subtract;

use super::dual::TexelDual;
use super::fields::NodeReader;
use super::modifiers::ParamSink;
use super::node_type::NodeType;
use super::step_bounds::Bounds;
use crate::error::Result;
use crate::kinds::lattice::real::Real;

/// One combiner's fold step, in both precisions (`R` f64 on the twin, f32 in the lanes; the
/// WGSL of the same name runs the same operations in the same order).
pub trait CombinerFn<R: Real>: Copy {
    /// The running value `a` combined with the next input `b`.
    fn fold(self, a: R, b: R) -> R;

    /// The same with gradients: the value is [`fold`](Self::fold)'s.
    fn fold_d(self, a: TexelDual<R>, b: TexelDual<R>) -> TexelDual<R>;
}

/// Where a combiner's WGSL goes: parameters, and folds longer than two written as statements.
pub(crate) trait CodeSink: ParamSink {
    /// `f` folded over `v` left to right: one call for two inputs, else a variable assigned in
    /// turn (the same operations in the same order); the expression of the result.
    fn fold_calls(&mut self, f: &str, v: &[String]) -> String;
}

/// One input's value and error at a texel (the twin's running bound).
pub(crate) type Bounded = (f64, f64);

/// A combiner's inputs at one texel, read where they lie (no list is gathered per texel).
pub(crate) trait Inputs: Iterator<Item = Bounded> + Clone {}

impl<I: Iterator<Item = Bounded> + Clone> Inputs for I {}

/// One combiner type as read (f64): everything beyond its fold.
pub(crate) trait CombinerType: CombinerFn<f64> + Sized {
    /// The same combiner in f32, as the lanes run it.
    type Lanes: CombinerFn<f32>;

    /// Its row of the node table.
    const ROW: NodeType;

    /// Its WGSL functions (`shaders/graph/combiners/<file>.wgsl`), if it calls its own.
    const WGSL: Option<&'static str> = None;

    /// The node and its inputs, in order, from its checked fields.
    fn read(node: &NodeReader) -> Result<(Self, Vec<usize>)>;

    /// Its numbers rounded to f32.
    fn to_f32(self) -> Self::Lanes;

    /// `out = fold(out, input)` over a run of lanes: one loop per type, its arithmetic known,
    /// so that it vectorizes.
    #[inline(always)]
    fn run(lanes: Self::Lanes, input: &[f32], out: &mut [f32]) {
        for (o, &v) in out.iter_mut().zip(input) {
            *o = lanes.fold(*o, v);
        }
    }

    /// Its value's bounds given its inputs' (the graph's stated bound).
    fn bounds(self, inputs: &[Bounds]) -> Bounds;

    /// Its error at one texel given its inputs' values and errors (the twin's running bound).
    fn error(self, inputs: impl Inputs) -> f64;

    /// Its WGSL expression over `v`; `d` is "" for values, "_d" with gradients.
    fn wgsl(self, code: &mut dyn CodeSink, v: &[String], d: &str) -> String;
}

/// The sum of the inputs' absolute values and errors: how large the roundings can be.
fn size(inputs: impl Inputs) -> f64 {
    inputs.map(|(v, e)| v.abs() + e).sum()
}

/// Bounds of a fold that keeps one input's value (min, max and their smooth forms): the
/// largest input's size and error.
fn largest(inputs: &[Bounds]) -> Bounds {
    inputs.iter().fold(Bounds::default(), |s, v| Bounds {
        range: None,
        m: s.m.max(v.m),
        e: s.e.max(v.e),
    })
}

/// The running error of min (`lower`) or max and their smooth forms over `width`: the chosen
/// input's error where the two lie more than `width` apart for every value within their
/// errors, else the larger error; plus the roundings. `fold` is the combiner's f64 step.
fn chosen_error(
    inputs: impl Inputs,
    width: f64,
    lower: bool,
    fold: impl Fn(f64, f64) -> f64,
) -> f64 {
    let chosen = |a: Bounded, b: Bounded| {
        let apart = (a.0 - b.0).abs() - a.1 - b.1;
        if apart <= width {
            return a.1.max(b.1);
        }
        let a_chosen = (a.0 < b.0) == lower;
        if a_chosen { a.1 } else { b.1 }
    };
    let mut rest = inputs.clone();
    let first = rest.next().unwrap_or_default();
    let folded = rest.fold(first, |s, x| (fold(s.0, x.0), chosen(s, x)));
    folded.1 + 6.0 * super::step_bounds::ROUNDING * (size(inputs) + width)
}

/// The combiner types, each `Variant(module)`: the enum [`Combiner`], its dispatch, the node
/// table's rows and the WGSL files, in this order.
macro_rules! combiners {
    ($($variant:ident($module:ident)),* $(,)?) => {
        $(pub use $module::$variant;)*

        /// A combiner node; its numbers are f64 as read, f32 where the lanes run it
        /// ([`Combiner::to_f32`]).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Combiner<R = f64> {
            $(
                #[allow(missing_docs)]
                $variant($variant<R>),
            )*
        }

        impl<R: Real> Combiner<R> {
            /// One fold step: the running value `a` with the next input `b`.
            #[inline(always)]
            pub fn fold(self, a: R, b: R) -> R {
                match self {
                    $(Combiner::$variant(c) => c.fold(a, b),)*
                }
            }

            /// One fold step with gradients.
            #[inline(always)]
            pub fn fold_d(self, a: TexelDual<R>, b: TexelDual<R>) -> TexelDual<R> {
                match self {
                    $(Combiner::$variant(c) => c.fold_d(a, b),)*
                }
            }

            /// The inputs' values folded left to right.
            pub fn combine(self, values: &[R]) -> R {
                (values[1..].iter()).fold(values[0], |s, &v| self.fold(s, v))
            }
        }

        impl Combiner<f32> {
            /// `out = fold(out, input)` over a run of lanes.
            #[inline(always)]
            pub fn run(self, input: &[f32], out: &mut [f32]) {
                match self {
                    $(Combiner::$variant(c) => <$variant>::run(c, input, out),)*
                }
            }
        }

        impl Combiner {
            /// The node of the combiner type `node` reads, with its inputs, if it is one.
            pub(crate) fn read(node: &NodeReader) -> Option<Result<(Self, Vec<usize>)>> {
                $(
                    if node.ty.name == <$variant as CombinerType>::ROW.name {
                        let read = <$variant>::read(node);
                        return Some(read.map(|(c, inputs)| (Combiner::$variant(c), inputs)));
                    }
                )*
                None
            }

            /// The same combiner with its numbers rounded to f32.
            pub fn to_f32(self) -> Combiner<f32> {
                match self {
                    $(Combiner::$variant(c) => Combiner::$variant(c.to_f32()),)*
                }
            }

            /// Its value's bounds given its inputs'.
            pub(crate) fn bounds(self, inputs: &[Bounds]) -> Bounds {
                match self {
                    $(Combiner::$variant(c) => c.bounds(inputs),)*
                }
            }

            /// Its error at a texel given its inputs' values and errors.
            pub(crate) fn error(self, inputs: impl Inputs) -> f64 {
                match self {
                    $(Combiner::$variant(c) => c.error(inputs),)*
                }
            }

            /// Its WGSL expression over `v` (`d`: "" or "_d").
            pub(crate) fn wgsl(self, code: &mut dyn CodeSink, v: &[String], d: &str) -> String {
                match self {
                    $(Combiner::$variant(c) => c.wgsl(code, v, d),)*
                }
            }
        }

        /// The combiner types' rows of the node table, in order.
        pub(crate) const ROWS: &[NodeType] = &[$(<$variant as CombinerType>::ROW),*];

        /// The combiner types' own WGSL functions.
        pub(crate) const WGSL: &[&str] =
            &super::node_type::wgsl_texts([$(<$variant as CombinerType>::WGSL),*]);
    };
}

combiners! {
    Add(add),
    Subtract(subtract),
    Multiply(multiply),
    Min(min),
    Max(max),
    SmoothMin(smooth_min),
    SmoothMax(smooth_max),
}
