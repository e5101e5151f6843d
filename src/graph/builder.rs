//! Building a graph in Rust: nodes by name, with the same keys as the JSON form, read and
//! checked by the same code (so the builder's errors are the JSON's).

use super::read::graph_error;
use super::{Graph, Value};
use crate::error::Result;
use crate::spec::LatticeKind;

/// Collects named nodes; [`GraphBuilder::build`] validates them into a [`Graph`].
#[derive(Clone, Debug)]
pub struct GraphBuilder {
    dims: u32,
    seed: u64,
    lattice: LatticeKind,
    output: Option<String>,
    nodes: Vec<(String, Value)>,
}

/// One node being built: set parameters and name inputs.
pub struct NodeBuilder<'a> {
    fields: &'a mut Vec<(String, Value)>,
}

impl GraphBuilder {
    /// An empty graph whose nodes see `dims`-dimensional points.
    pub fn new(dims: u32) -> Self {
        Self {
            dims,
            seed: 0,
            lattice: LatticeKind::default(),
            output: None,
            nodes: Vec::new(),
        }
    }

    /// Adds node `name` of type `ty` (a name in the node table, `low_level::graph::meta::node_types()`).
    pub fn node(&mut self, name: &str, ty: &str) -> NodeBuilder<'_> {
        self.nodes.push((
            name.into(),
            Value::Object(vec![("type".into(), Value::Text(ty.into()))]),
        ));
        let Some((_, Value::Object(fields))) = self.nodes.last_mut() else {
            unreachable!("an object was pushed just above")
        };
        NodeBuilder { fields }
    }

    /// The node the graph renders.
    pub fn output(&mut self, name: &str) -> &mut Self {
        self.output = Some(name.into());
        self
    }

    /// Added to every source's seed.
    pub fn seed(&mut self, seed: u64) -> &mut Self {
        self.seed = seed;
        self
    }

    /// The lattice of every source.
    pub fn lattice(&mut self, lattice: LatticeKind) -> &mut Self {
        self.lattice = lattice;
        self
    }

    /// The graph in its untyped form (what JSON parses to).
    pub fn to_value(&self) -> Value {
        let mut top = vec![
            ("dims".to_string(), Value::Whole(self.dims.into())),
            ("seed".to_string(), Value::Whole(self.seed.into())),
            (
                "lattice".to_string(),
                Value::Text(self.lattice.name().into()),
            ),
        ];
        if let Some(output) = &self.output {
            top.push(("output".into(), Value::Text(output.clone())));
        }
        top.push(("nodes".into(), Value::Object(self.nodes.clone())));
        Value::Object(top)
    }

    /// Validates the nodes into a graph.
    pub fn build(&self) -> Result<Graph> {
        for (i, (name, _)) in self.nodes.iter().enumerate() {
            if self.nodes[..i].iter().any(|(n, _)| n == name) {
                return Err(graph_error(name, "", "two nodes have this name"));
            }
        }
        Graph::from_value(&self.to_value())
    }
}

impl NodeBuilder<'_> {
    /// Sets a parameter (replacing an earlier value).
    pub fn set(&mut self, key: &str, value: impl Into<Value>) -> &mut Self {
        let value = value.into();
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.fields.push((key.into(), value)),
        }
        self
    }

    /// Names the node an input reads.
    pub fn input(&mut self, key: &str, node: &str) -> &mut Self {
        self.set(key, Value::Text(node.into()))
    }

    /// Names the nodes a list input reads.
    pub fn inputs(&mut self, key: &str, nodes: &[&str]) -> &mut Self {
        let list = nodes.iter().map(|n| Value::Text((*n).into())).collect();
        self.set(key, Value::List(list))
    }
}
