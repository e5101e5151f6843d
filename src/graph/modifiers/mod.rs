//! Modifier nodes: a function of one value (CONVENTIONS §13). Each type is one row: its file
//! here holds everything about it (its row of the node table, how it is read, its value and
//! slope on `Real` for the twin and the SIMD lanes, its error bounds, its lane loop and its
//! WGSL call), its WGSL functions, if it has any, are `shaders/graph/modifiers/<file>.wgsl`, and
//! it is one line of [`modifiers!`] below. Nothing else names a modifier type.

mod abs;
mod clamp;
mod curve;
mod negate;
mod power;
mod remap;
mod smoothstep;
mod terrace;

use super::fields::NodeReader;
use super::node_type::NodeType;
use super::step_bounds::Bounds;
use crate::error::Result;
use crate::kinds::lattice::real::Real;

/// One modifier's function, in both precisions: `R` is f64 on the twin, f32 in the lanes (and
/// the WGSL function of the same name runs the same operations in the same order).
pub trait ModifierFn<R: Real> {
    /// The node's value given its source's.
    fn value(&self, v: R) -> R;

    /// Its slope at `v` (CONVENTIONS §13, "Derivatives"): where it has a corner, the one-sided
    /// slope of the branch [`value`](Self::value) takes.
    fn slope(&self, v: R) -> R;
}

/// Where a modifier's WGSL call finds its numbers: entries of the graph state's `params`.
pub(crate) trait ParamSink {
    /// Appends a `vec4` entry and names it (`graph_state.params[k]`).
    fn push(&mut self, entry: [f64; 4]) -> String;

    /// The index the next entry gets.
    fn next_index(&self) -> usize;
}

/// One modifier type as read (f64): everything beyond its function.
pub(crate) trait ModifierType: ModifierFn<f64> + Sized {
    /// The same modifier in f32, as the lanes run it.
    type Lanes: ModifierFn<f32>;

    /// Its row of the node table.
    const ROW: NodeType;

    /// Its WGSL functions (`shaders/graph/modifiers/<file>.wgsl`), if it calls its own.
    const WGSL: Option<&'static str> = None;

    /// The node from its checked fields, with the checks that span several of them.
    fn read(node: &NodeReader) -> Result<Self>;

    /// Its numbers rounded to f32.
    fn to_f32(&self) -> Self::Lanes;

    /// `lanes`' value over a run of lanes: one loop per type, its arithmetic known, so that it
    /// vectorizes.
    #[inline(always)]
    fn run(lanes: &Self::Lanes, input: &[f32], out: &mut [f32]) {
        for (o, &v) in out.iter_mut().zip(input) {
            *o = lanes.value(v);
        }
    }

    /// Its value's interval and error given its input's (the graph's stated bound).
    fn bounds(&self, input: Bounds) -> Bounds;

    /// Its error at one texel whose input is `v` within `e` (the twin's running bound).
    fn error(&self, v: f64, e: f64) -> f64;

    /// Its WGSL expression on `v`; `d` is "" for values, "_d" with gradients (the same
    /// function names with `_d`, the same parameters, a `vec4` value).
    fn wgsl(&self, params: &mut dyn ParamSink, v: &str, d: &str) -> String;
}

/// The modifier types, each `Variant(module)`: the enum [`Modifier`], its dispatch, the node
/// table's rows and the WGSL files, in this order.
macro_rules! modifiers {
    ($($variant:ident($module:ident)),* $(,)?) => {
        $(pub use $module::$variant;)*

        /// A modifier node; its numbers are f64 as read, f32 where the lanes run it
        /// ([`Modifier::to_f32`]).
        #[derive(Clone, Debug, PartialEq)]
        pub enum Modifier<R = f64> {
            $(
                #[allow(missing_docs)]
                $variant($variant<R>),
            )*
        }

        impl<R: Real> Modifier<R> {
            /// The node's value given its source's.
            #[inline(always)]
            pub fn value(&self, v: R) -> R {
                match self {
                    $(Modifier::$variant(m) => m.value(v),)*
                }
            }

            /// Its slope at `v`.
            #[inline(always)]
            pub fn slope(&self, v: R) -> R {
                match self {
                    $(Modifier::$variant(m) => m.slope(v),)*
                }
            }

        }

        impl Modifier<f32> {
            /// Its value over a run of lanes.
            #[inline(always)]
            pub fn run(&self, input: &[f32], out: &mut [f32]) {
                match self {
                    $(Modifier::$variant(m) => <$variant>::run(m, input, out),)*
                }
            }
        }

        impl Modifier {
            /// The node of the modifier type `node` reads, if it is one.
            pub(crate) fn read(node: &NodeReader) -> Option<Result<Self>> {
                $(
                    if node.ty.name == <$variant as ModifierType>::ROW.name {
                        return Some(<$variant>::read(node).map(Modifier::$variant));
                    }
                )*
                None
            }

            /// The same modifier with its numbers rounded to f32.
            pub fn to_f32(&self) -> Modifier<f32> {
                match self {
                    $(Modifier::$variant(m) => Modifier::$variant(m.to_f32()),)*
                }
            }

            /// Its value's interval and error given its input's.
            pub(crate) fn bounds(&self, input: Bounds) -> Bounds {
                match self {
                    $(Modifier::$variant(m) => m.bounds(input),)*
                }
            }

            /// Its error at a texel whose input is `v` within `e`.
            pub(crate) fn error(&self, v: f64, e: f64) -> f64 {
                match self {
                    $(Modifier::$variant(m) => m.error(v, e),)*
                }
            }

            /// Its WGSL expression on `v` (`d`: "" or "_d").
            pub(crate) fn wgsl(&self, params: &mut dyn ParamSink, v: &str, d: &str) -> String {
                match self {
                    $(Modifier::$variant(m) => m.wgsl(params, v, d),)*
                }
            }
        }

        /// The modifier types' rows of the node table, in order.
        pub(crate) const ROWS: &[NodeType] = &[$(<$variant as ModifierType>::ROW),*];

        /// The modifier types' own WGSL functions.
        pub(crate) const WGSL: &[&str] =
            &super::node_type::wgsl_texts([$(<$variant as ModifierType>::WGSL),*]);
    };
}

modifiers! {
    Abs(abs),
    Negate(negate),
    Clamp(clamp),
    Remap(remap),
    Curve(curve),
    Terrace(terrace),
    Power(power),
    Smoothstep(smoothstep),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values around and on every level, beyond the ends, signed zeros, infinities and NaN, in a
    /// run whose length is not a multiple of LANES.
    fn probes(points: &[f32]) -> Vec<f32> {
        let mut v = vec![
            -0.0,
            0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -7.0,
            7.0,
        ];
        for &p in points {
            v.extend([p, p.next_down(), p.next_up(), p + 0.03, p - 0.03]);
        }
        v.extend((0..61).map(|i| -1.5 + 0.05 * i as f32));
        v
    }

    /// Each modifier's lane loop computes what its value function computes, lane by lane, bit
    /// for bit (NaN for NaN): terrace's search-free loop included.
    #[test]
    fn modifier_runs_equal_their_values_bit_for_bit() {
        let levels = vec![-1.0f32, -0.2, 0.1, 0.3, 0.5, 1.0];
        let modifiers = [
            Modifier::Abs(Abs::default()),
            Modifier::Negate(Negate::default()),
            Modifier::Clamp(Clamp {
                min: -0.25,
                max: 0.5,
            }),
            Modifier::Remap(Remap {
                from: [-1.0, 1.0],
                to: [0.0, 3.0],
            }),
            Modifier::Power(Power { exponent: 1.7 }),
            Modifier::Smoothstep(Smoothstep {
                edge0: -0.3,
                edge1: 0.6,
            }),
            Modifier::Curve(Curve {
                points: vec![[-1.0, 0.0], [0.0, 0.8], [1.0, -0.5]],
                cubic: true,
            }),
            Modifier::Terrace(Terrace {
                points: levels.clone(),
                invert: false,
            }),
            Modifier::Terrace(Terrace {
                points: levels.clone(),
                invert: true,
            }),
            Modifier::Terrace(Terrace {
                points: vec![0.25],
                invert: false,
            }),
        ];
        let input = probes(&levels);
        for modifier in &modifiers {
            let mut out = vec![0.0f32; input.len()];
            modifier.run(&input, &mut out);
            for (&v, &got) in input.iter().zip(&out) {
                let want = modifier.value(v);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{modifier:?} at {v}: lanes {got}, ops {want}"
                );
            }
        }
    }
}
