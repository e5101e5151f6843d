//! The table of node types (CONVENTIONS §13): every type's name, inputs and parameters with their
//! defaults, ranges and docs, declared once, in the spirit of FastNoise2's node metadata. Reading
//! graphs (JSON or the builder), validation messages and the documentation's node table all come
//! from here.

use std::sync::LazyLock;

use super::node_type::{A_B, SOURCE, combiner, of_source};
pub use super::node_type::{Arity, Category, Input, NodeType};
use crate::kinds::param::{
    FREQUENCY, LACUNARITY, LIMIT, MAX_FREQUENCY, OCTAVES, PERSISTENCE, choice, number, positive,
    whole,
};
pub use crate::kinds::param::{Param, ParamType};
use crate::kinds::{KINDS, Kind};

/// Every node type: the kinds' (from their table rows, in code order), then the others.
pub fn node_types() -> &'static [NodeType] {
    static ALL: LazyLock<Vec<NodeType>> = LazyLock::new(|| {
        let kinds = Kind::ALL.iter().zip(KINDS);
        let sources = kinds.map(|(kind, info)| source(kind.name(), info.params, info.summary));
        (sources.chain(OTHER_NODE_TYPES.iter().copied()))
            .chain(super::modifiers::ROWS.iter().copied())
            .chain(super::combiners::ROWS.iter().copied())
            .chain(BLEND_AND_SELECT.iter().copied())
            .collect()
    });
    &ALL
}

/// The node type called `name`.
pub fn node_type(name: &str) -> Option<&'static NodeType> {
    node_types().iter().find(|t| t.name == name)
}

const A_B_CONTROL: &[Input] = &[
    A_B[0],
    A_B[1],
    Input {
        name: "control",
        arity: Arity::One,
        doc: "picks between a and b",
    },
];
const WARP_INPUTS: &[Input] = &[
    SOURCE[0],
    Input {
        name: "by",
        arity: Arity::PerAxis,
        doc: "one displacement node per axis",
    },
];

const FRACTAL_PARAMS: &[Param] = &[OCTAVES, LACUNARITY, PERSISTENCE];
const RIDGED_MULTI_PARAMS: &[Param] = &[
    OCTAVES,
    LACUNARITY,
    number("h", 1.0, 0.0, 4.0, "octave k weighs lacunarity^(-k h)"),
    number("offset", 1.0, 0.0, 4.0, "ridges are (offset - |n|)^2"),
    number(
        "gain",
        2.0,
        0.0,
        16.0,
        "how strongly one octave's ridge masks the next",
    ),
];

const fn source(name: &'static str, params: &'static [Param], doc: &'static str) -> NodeType {
    NodeType {
        name,
        category: Category::Source,
        inputs: &[],
        params,
        doc,
    }
}

/// The node types that are neither kinds (theirs come from their table rows), modifiers,
/// combiners nor blend and select, in the table's order.
static OTHER_NODE_TYPES: &[NodeType] = &[
    source(
        "constant",
        &[number("value", 0.0, -LIMIT, LIMIT, "the value everywhere")],
        "one value everywhere",
    ),
    source(
        "coordinate",
        &[
            choice(
                "axis",
                "x",
                &["x", "y", "z", "w"],
                "which axis of the point",
            ),
            FREQUENCY,
        ],
        "the point's coordinate on one axis times frequency",
    ),
    of_source(
        "fbm",
        Category::Fractal,
        FRACTAL_PARAMS,
        "fractional Brownian motion (§4)",
    ),
    of_source(
        "turbulence",
        Category::Fractal,
        FRACTAL_PARAMS,
        "the mean of |octave| (§4)",
    ),
    of_source(
        "ridged",
        Category::Fractal,
        FRACTAL_PARAMS,
        "2 mean((1 - |octave|)^2) - 1 (§4)",
    ),
    of_source(
        "billow",
        Category::Fractal,
        FRACTAL_PARAMS,
        "the mean of 2|octave| - 1 (§4)",
    ),
    of_source(
        "ridged-multifractal",
        Category::Fractal,
        RIDGED_MULTI_PARAMS,
        "Musgrave's ridged multifractal, normalized to [-1, 1] for offset 1",
    ),
    of_source(
        "translate",
        Category::Domain,
        &[Param {
            name: "by",
            ty: ParamType::Vector {
                default: 0.0,
                max: LIMIT,
                nonzero: false,
            },
            doc: "added to the point",
        }],
        "the source at p + by",
    ),
    of_source(
        "scale",
        Category::Domain,
        &[Param {
            name: "by",
            ty: ParamType::Vector {
                default: 1.0,
                max: MAX_FREQUENCY,
                nonzero: true,
            },
            doc: "multiplies the point, per axis",
        }],
        "the source at by * p",
    ),
    of_source(
        "rotate",
        Category::Domain,
        &[
            number("degrees", 0.0, -360.0, 360.0, "the angle, counterclockwise"),
            Param {
                name: "axis",
                ty: ParamType::Axis3,
                doc: "the axis in 3D and 4D (x, y, z; w stays); 2D turns in the plane",
            },
        ],
        "the source at the point turned about the origin",
    ),
    NodeType {
        name: "warp",
        category: Category::Domain,
        inputs: WARP_INPUTS,
        params: &[
            number(
                "amplitude",
                16.0,
                0.0,
                LIMIT,
                "displacement per unit of `by`",
            ),
            whole("iterations", 1, 1, 8, "displacements summed"),
            choice(
                "mode",
                "independent",
                &["independent", "progressive"],
                "iterations read the original point, or the point moved so far",
            ),
            LACUNARITY,
            positive("gain", 0.5, 1024.0, "amplitude factor between iterations"),
        ],
        doc: "the source at p + amplitude * (by_x(p), by_y(p), ...) (Quilez's domain warp)",
    },
];

/// Blend and select (after the modifiers and the combiners, whose rows are theirs).
static BLEND_AND_SELECT: &[NodeType] = &[
    combiner(
        "blend",
        A_B_CONTROL,
        &[],
        "libnoise's Blend: a + (b - a) (control + 1) / 2",
    ),
    combiner(
        "select",
        A_B_CONTROL,
        &[
            number(
                "threshold",
                0.0,
                -LIMIT,
                LIMIT,
                "b where control >= threshold, else a",
            ),
            number(
                "falloff",
                0.0,
                0.0,
                LIMIT,
                "half-width of the smooth transition",
            ),
        ],
        "libnoise's Select with one threshold: a below, b above, an S-curve between",
    ),
];

/// The node table as Markdown (CONVENTIONS §13 holds it; a test keeps the two equal).
pub fn markdown_table() -> String {
    let mut out = String::from("| type | inputs | parameters (default) | computes |\n");
    out.push_str("| --- | --- | --- | --- |\n");
    for t in node_types() {
        let inputs: Vec<String> = t.inputs.iter().map(input_text).collect();
        let params: Vec<String> = t.params.iter().map(param_text).collect();
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            t.name,
            or_dash(inputs.join(", ")),
            or_dash(params.join(", ")),
            t.doc.replace('|', "\\|")
        ));
    }
    out
}

fn or_dash(s: String) -> String {
    if s.is_empty() { "-".into() } else { s }
}

fn input_text(input: &Input) -> String {
    match input.arity {
        Arity::One => format!("`{}`", input.name),
        Arity::List(n) => format!("`{}` ({n}+)", input.name),
        Arity::PerAxis => format!("`{}` (one per axis)", input.name),
    }
}

fn param_text(p: &Param) -> String {
    format!("`{}` ({})", p.name, p.ty.default_text())
}
