//! Noise graphs (CONVENTIONS §13): named nodes (every kind, constants, coordinates, fractal
//! sums over subgraphs, domain transforms and warps, modifiers and combiners) forming a
//! directed acyclic graph with one output.
//!
//! A graph comes from JSON ([`Graph::from_json`]) or from the [`GraphBuilder`]; both go through
//! one reader driven by the node table
//! ([`low_level::graph::meta::node_types`](crate::low_level::graph::meta::node_types)), so an
//! error names the node and the field. [`Graph::prepare`] places it in an image (size and
//! offset) and expands it into straight-line steps with one exact frame per noise evaluation:
//! a [`Job`](crate::Job), which every backend runs.
//!
//! ```
//! use gpu_noise::graph::GraphBuilder;
//! use gpu_noise::Size;
//! let mut g = GraphBuilder::new(2);
//! g.node("base", "perlin").set("frequency", 0.02).set("seed", 7u64);
//! g.node("hills", "fbm").input("source", "base").set("octaves", 5u32);
//! g.node("warped", "warp")
//!     .input("source", "hills")
//!     .inputs("by", &["base", "base"])
//!     .set("amplitude", 8.0);
//! g.output("warped");
//! let graph = g.build()?;
//! let prepared = graph.prepare(Size::new(64, 64, 1), [0.0; 4])?;
//! let values = gpu_noise::cpu::render_f64(&prepared)?;
//! assert_eq!(values.len(), 64 * 64);
//! # Ok::<(), gpu_noise::Error>(())
//! ```

// Matrix and axis loops index several arrays at once, as the formulas in CONVENTIONS §13 do.
#![allow(clippy::needless_range_loop)]

mod affine;
pub(crate) mod bound;
mod builder;
mod check;
pub(crate) mod combiners;
pub(crate) mod dual;
mod fields;
pub(crate) mod kind_fields;
pub(crate) mod meta;
pub(crate) mod modifiers;
pub(crate) mod node;
mod node_type;
pub(crate) mod ops;
pub(crate) mod ops_d;
pub(crate) mod plan;
pub(crate) mod read;
mod read_ops;
mod step;
mod step_bounds;
mod value;

pub use builder::{GraphBuilder, NodeBuilder};
pub(crate) use node::Node;
pub use node::Source;
pub use value::Value;

use crate::error::Result;
use crate::spec::LatticeKind;
use read::graph_error;

/// Most nodes in a graph.
pub const MAX_NODES: usize = 256;
/// Longest chain of nodes from the output to a source.
pub const MAX_DEPTH: usize = 64;
/// Most evaluation steps once fractal octaves and warp iterations are expanded (each octave
/// evaluates its subgraph again).
pub const MAX_STEPS: usize = 4096;
/// A graph file is a small JSON object; anything larger is refused before it is parsed.
pub const MAX_GRAPH_BYTES: usize = 1 << 20;

/// A validated noise graph: nodes with resolved inputs, no cycles, within the limits.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    dims: u32,
    seed: u64,
    lattice: LatticeKind,
    nodes: Vec<Node>,
    output: usize,
}

impl Graph {
    /// Reads a graph from its JSON text (CONVENTIONS §13): `{"dims", "seed", "lattice",
    /// "output", "nodes": {name: {"type": ..., inputs and parameters}}}`.
    ///
    /// Needs the `serde` feature (on in the default build, which includes the CLI; with
    /// `default-features = false` add `features = ["serde"]`). Without it, build the graph with
    /// [`GraphBuilder`] or its untyped form with [`Graph::from_value`].
    #[cfg(feature = "serde")]
    pub fn from_json(text: &str) -> Result<Graph> {
        if text.len() > MAX_GRAPH_BYTES {
            return Err(graph_error(
                "",
                "",
                format!(
                    "larger than {} KiB; a graph is a small JSON object",
                    MAX_GRAPH_BYTES / 1024
                ),
            ));
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: Value = serde_json::from_str(text).map_err(|e| {
            graph_error(
                "",
                "",
                format!("not valid JSON: {}", crate::text::tamed(&e.to_string())),
            )
        })?;
        Graph::from_value(&value)
    }

    /// Reads a graph from its untyped form (what [`Graph::from_json`] parses).
    pub fn from_value(value: &Value) -> Result<Graph> {
        let Value::Object(fields) = value else {
            return Err(graph_error("", "", "must be a JSON object"));
        };
        let top = TopLevel::read(fields)?;
        let nodes = read::read_nodes(top.nodes, top.dims)?;
        let output = nodes
            .iter()
            .position(|n| n.name == top.output)
            .ok_or_else(|| {
                graph_error(
                    "",
                    "output",
                    format!("names no node: {}", crate::text::quoted(&top.output)),
                )
            })?;
        let graph = Graph {
            dims: top.dims,
            seed: top.seed,
            lattice: top.lattice,
            nodes,
            output,
        };
        check::check(&graph)?;
        Ok(graph)
    }

    /// Dimensions of the point every node sees, 1..=4.
    pub fn dims(&self) -> u32 {
        self.dims
    }

    /// Added to every source's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The lattice every source hashes its cells with.
    pub fn lattice(&self) -> LatticeKind {
        self.lattice
    }

    /// The nodes, in the order given.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The index of the output node.
    pub fn output(&self) -> usize {
        self.output
    }

    /// A graph of `nodes` (valid by construction) with the last as its output.
    pub(crate) fn from_parts(
        dims: u32,
        seed: u64,
        lattice: LatticeKind,
        nodes: Vec<Node>,
    ) -> Graph {
        Graph {
            dims,
            seed,
            lattice,
            output: nodes.len() - 1,
            nodes,
        }
    }

    /// The same graph with another seed (every source's seed moves with it).
    pub fn with_seed(mut self, seed: u64) -> Graph {
        self.seed = seed;
        self
    }

    /// The same graph on another lattice.
    pub fn with_lattice(mut self, lattice: LatticeKind) -> Graph {
        self.lattice = lattice;
        self
    }
}

/// The graph object's own fields.
struct TopLevel<'a> {
    dims: u32,
    seed: u64,
    lattice: LatticeKind,
    output: String,
    nodes: &'a [(String, Value)],
}

impl<'a> TopLevel<'a> {
    fn read(fields: &'a [(String, Value)]) -> Result<Self> {
        let mut top = TopLevel {
            dims: 2,
            seed: 0,
            lattice: LatticeKind::default(),
            output: String::new(),
            nodes: &[],
        };
        let (mut have_nodes, mut given_output) = (false, false);
        for (key, v) in fields {
            let bad = |what: &str| graph_error("", key, format!("must be {what}"));
            match (key.as_str(), v) {
                ("dims", v) if v.as_whole().is_some_and(|n| (1..=4).contains(&n)) => {
                    top.dims = v.as_whole().map_or(2, |n| n as u32)
                }
                ("dims", _) => return Err(bad("1, 2, 3 or 4")),
                ("seed", v) if v.as_whole().is_some() => {
                    let n = v.as_whole().unwrap_or_default();
                    top.seed = u64::try_from(n).map_err(|_| bad("a whole number in 0..=2^64-1"))?
                }
                ("seed", _) => return Err(bad("a whole number in 0..=2^64-1")),
                ("lattice", Value::Text(t)) => {
                    top.lattice = t
                        .parse()
                        .map_err(|e| graph_error("", key, format!("{e}")))?
                }
                ("lattice", _) => return Err(bad("\"table\" or \"hash\"")),
                ("output", Value::Text(t)) => {
                    top.output = t.clone();
                    given_output = true;
                }
                ("output", _) => return Err(bad("the name of a node")),
                ("nodes", Value::Object(entries)) => {
                    top.nodes = entries;
                    have_nodes = true;
                }
                ("nodes", _) => return Err(bad("an object of named nodes")),
                _ => {
                    return Err(graph_error(
                        "",
                        key,
                        "is no graph field; use dims, seed, lattice, output, nodes",
                    ));
                }
            }
        }
        if !have_nodes || top.nodes.is_empty() {
            return Err(graph_error("", "nodes", "missing: give at least one node"));
        }
        if top.output.is_empty() {
            let what = if given_output {
                "is empty: name the node to render"
            } else {
                "missing: name the node to render"
            };
            return Err(graph_error("", "output", what));
        }
        Ok(top)
    }
}
