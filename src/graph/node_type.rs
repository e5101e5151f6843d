//! What a node type is (CONVENTIONS §13): its name, group, inputs and parameters, the shape of
//! each row of the node table (`meta` assembles the table; a modifier writes its own row).

use crate::kinds::param::Param;

/// What a node type does, for grouping in docs and editors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// A value from the point alone: a noise kind, a constant, a coordinate.
    Source,
    /// A sum over octaves of its source, each at a finer scale and the next seed.
    Fractal,
    /// Moves the point before its source sees it.
    Domain,
    /// Maps its source's value through a function.
    Modifier,
    /// Combines several values.
    Combiner,
}

/// How many nodes an input takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// One node name.
    One,
    /// A list of at least this many node names.
    List(usize),
    /// A list of node names, one per axis of the graph.
    PerAxis,
}

/// One input of a node type: the names of the nodes it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    /// The JSON key.
    pub name: &'static str,
    /// One node or a list.
    pub arity: Arity,
    /// What it is for.
    pub doc: &'static str,
}

/// One node type: its name (the JSON `type`), inputs and parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeType {
    /// The JSON `type`.
    pub name: &'static str,
    /// Its group.
    pub category: Category,
    /// Its inputs, all required.
    pub inputs: &'static [Input],
    /// Its parameters, all optional.
    pub params: &'static [Param],
    /// What it computes (CONVENTIONS §13 has the formulas).
    pub doc: &'static str,
}

impl NodeType {
    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The input called `name`.
    pub fn input(&self, name: &str) -> Option<&'static Input> {
        self.inputs.iter().find(|i| i.name == name)
    }
}

pub(crate) const SOURCE: &[Input] = &[Input {
    name: "source",
    arity: Arity::One,
    doc: "the node whose value this one transforms",
}];

/// A node type that reads one `source`.
pub(crate) const fn of_source(
    name: &'static str,
    category: Category,
    params: &'static [Param],
    doc: &'static str,
) -> NodeType {
    NodeType {
        name,
        category,
        inputs: SOURCE,
        params,
        doc,
    }
}

/// The two operands of a two-input node.
pub(crate) const A_B: &[Input] = &[
    Input {
        name: "a",
        arity: Arity::One,
        doc: "the first operand",
    },
    Input {
        name: "b",
        arity: Arity::One,
        doc: "the second operand",
    },
];

/// Two or more operands.
pub(crate) const INPUTS: &[Input] = &[Input {
    name: "inputs",
    arity: Arity::List(2),
    doc: "two or more operands",
}];

/// A combiner's row.
pub(crate) const fn combiner(
    name: &'static str,
    inputs: &'static [Input],
    params: &'static [Param],
    doc: &'static str,
) -> NodeType {
    NodeType {
        name,
        category: Category::Combiner,
        inputs,
        params,
        doc,
    }
}

/// The WGSL that a family's node types declare, in the family's order ("" for a type that
/// calls only WGSL's built-ins): what the `modifiers!` and `combiners!` lists compose.
pub(crate) const fn wgsl_texts<const N: usize>(
    all: [Option<&'static str>; N],
) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        if let Some(text) = all[i] {
            out[i] = text;
        }
        i += 1;
    }
    out
}
