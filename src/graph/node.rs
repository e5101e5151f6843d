//! A graph's nodes, typed: what [`read`](super::read) makes of the untyped form once every
//! parameter is in range and every input names a node (CONVENTIONS §13).

pub use super::combiners::Combiner;
pub use super::modifiers::Modifier;
use crate::kinds::{Fractal, Interp, Kind, KindFields};

/// One named node.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Its name, unique in the graph.
    pub name: String,
    /// What it computes; inputs are indices into the graph's nodes.
    pub op: Op,
}

/// What a node computes (inputs are node indices).
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// A noise kind (its dims and lattice come from the graph).
    Source(Source),
    /// One value everywhere.
    Constant(f64),
    /// The point's coordinate on `axis` times `frequency`.
    Coordinate {
        /// 0 = x .. 3 = w.
        axis: usize,
        /// Factor of the coordinate.
        frequency: f64,
    },
    /// fBm, turbulence, ridged or billow over `source` (CONVENTIONS §4).
    Fractal {
        /// The subgraph summed.
        source: usize,
        /// Which sum.
        fractal: Fractal,
        /// Octaves, 1..=16.
        octaves: u32,
        /// Scale factor between octaves.
        lacunarity: f64,
        /// Amplitude factor between octaves.
        persistence: f64,
    },
    /// Musgrave's ridged multifractal over `source`.
    RidgedMulti {
        /// The subgraph summed.
        source: usize,
        /// Octaves, 1..=16.
        octaves: u32,
        /// Scale factor between octaves.
        lacunarity: f64,
        /// Octave k weighs `lacunarity^(-k h)`.
        h: f64,
        /// Ridges are `(offset - |n|)^2`.
        offset: f64,
        /// Weight feedback between octaves.
        gain: f64,
    },
    /// The source at `p + by`.
    Translate {
        /// The subgraph moved.
        source: usize,
        /// Per axis.
        by: [f64; 4],
    },
    /// The source at `by * p`.
    Scale {
        /// The subgraph scaled.
        source: usize,
        /// Per axis, nonzero.
        by: [f64; 4],
    },
    /// The source at `R p`.
    Rotate {
        /// The subgraph turned.
        source: usize,
        /// Counterclockwise.
        degrees: f64,
        /// The axis (3D and 4D), normalized when used.
        axis: [f64; 3],
    },
    /// The source at the point displaced by other nodes.
    Warp(Warp),
    /// `source`'s value through a function.
    Modify {
        /// The subgraph mapped.
        source: usize,
        /// The function.
        modifier: Modifier,
    },
    /// Several values combined.
    Combine {
        /// How.
        combiner: Combiner,
        /// The operands, in order.
        inputs: Vec<usize>,
    },
    /// libnoise's Blend: `a + (b - a) (control + 1) / 2`.
    Blend {
        /// At control = -1.
        a: usize,
        /// At control = 1.
        b: usize,
        /// The blend.
        control: usize,
    },
    /// libnoise's Select with one threshold.
    Select {
        /// Below the threshold.
        a: usize,
        /// Above it.
        b: usize,
        /// Compared with the threshold.
        control: usize,
        /// Where a turns to b.
        threshold: f64,
        /// Half-width of the S-curve between them.
        falloff: f64,
    },
}

/// A noise kind at a frequency: its kind node's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Source {
    /// The kind.
    pub kind: Kind,
    /// Lattice cells per unit of the point.
    pub frequency: f64,
    /// Added to the graph's seed (and to each octave's and warp iteration's k).
    pub seed: u64,
    /// Interpolation between corners (the kind's default where it interpolates none).
    pub interp: Interp,
    /// The kind's own parameters.
    pub fields: KindFields,
}

/// A domain warp (Quilez's form, with FastNoiseLite's independent or progressive iterations).
#[derive(Clone, Debug, PartialEq)]
pub struct Warp {
    /// The subgraph read at the displaced point.
    pub source: usize,
    /// One displacement per axis.
    pub by: Vec<usize>,
    /// Displacement per unit of `by`, in units of the point.
    pub amplitude: f64,
    /// Displacements summed.
    pub iterations: u32,
    /// Iteration i reads the point moved by iterations 0..i (else the original point).
    pub progressive: bool,
    /// Iteration i reads `by` at `lacunarity^i` times its point.
    pub lacunarity: f64,
    /// Iteration i's amplitude is `amplitude gain^i`.
    pub gain: f64,
}

impl Op {
    /// The nodes this one reads, in order.
    pub fn inputs(&self) -> Vec<usize> {
        match self {
            Op::Source(_) | Op::Constant(_) | Op::Coordinate { .. } => Vec::new(),
            Op::Fractal { source, .. }
            | Op::RidgedMulti { source, .. }
            | Op::Translate { source, .. }
            | Op::Scale { source, .. }
            | Op::Rotate { source, .. }
            | Op::Modify { source, .. } => vec![*source],
            Op::Warp(w) => std::iter::once(w.source)
                .chain(w.by.iter().copied())
                .collect(),
            Op::Combine { inputs, .. } => inputs.clone(),
            Op::Blend { a, b, control } | Op::Select { a, b, control, .. } => {
                vec![*a, *b, *control]
            }
        }
    }
}
