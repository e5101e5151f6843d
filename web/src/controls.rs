//! The page's controls, described from the library's own tables (the node table's parameters,
//! the enums' names, the limits), FastNoise2-style: a new kind or parameter needs no change to
//! the page.

use gpu_noise::low_level::graph::meta::{Arity, NodeType, Param, ParamType, node_type, node_types};
use gpu_noise::{Colormap, Fractal, Kind, spec::LatticeKind};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

/// The example graphs of `examples/graphs`, offered as presets.
const PRESETS: &[(&str, &str)] = &[
    (
        "terrain",
        include_str!("../../examples/graphs/terrain.json"),
    ),
    ("marble", include_str!("../../examples/graphs/marble.json")),
    ("caves", include_str!("../../examples/graphs/caves.json")),
];

/// Every control as JSON: kinds (dims, tiling, parameters), fractals and their parameters,
/// lattices, colormaps and the graph presets. Each parameter has its type, default, range and
/// doc.
#[wasm_bindgen]
pub fn controls() -> String {
    let kinds: Vec<Value> = Kind::ALL.iter().map(|&k| kind_controls(k)).collect();
    let fractal_params = node_type("fbm").map_or(&[][..], |t| t.params);
    let presets: serde_json::Map<String, Value> = PRESETS
        .iter()
        .map(|(name, text)| (name.to_string(), Value::String(text.to_string())))
        .collect();
    json!({
        "kinds": kinds,
        "fractals": Fractal::NAMES,
        "fractal_params": fractal_params.iter().map(param).collect::<Vec<_>>(),
        "lattices": LatticeKind::NAMES,
        "lattice_default": LatticeKind::default().name(),
        "colormaps": Colormap::NAMES,
        "presets": presets,
        "nodes": node_types().iter().map(node_controls).collect::<Vec<_>>(),
    })
    .to_string()
}

/// One node type for the node editor: `{name, category, doc, inputs, params}`, each input
/// `{name, doc, arity: "one" | "list" | "per-axis", min}`.
fn node_controls(t: &NodeType) -> Value {
    let inputs: Vec<Value> = (t.inputs.iter())
        .map(|i| {
            let (arity, min) = match i.arity {
                Arity::One => ("one", 1),
                Arity::List(min) => ("list", min),
                Arity::PerAxis => ("per-axis", 1),
            };
            json!({"name": i.name, "doc": i.doc, "arity": arity, "min": min})
        })
        .collect();
    json!({
        "name": t.name,
        "category": format!("{:?}", t.category).to_lowercase(),
        "doc": t.doc,
        "inputs": inputs,
        "params": t.params.iter().map(param).collect::<Vec<_>>(),
    })
}

fn kind_controls(kind: Kind) -> Value {
    let params = node_type(kind.name()).map_or(&[][..], |t| t.params);
    json!({
        "name": kind.name(),
        "min_dims": kind.min_dims(),
        "max_dims": kind.max_dims(),
        "tiles": kind.tiles(),
        "params": params.iter().filter(|p| p.name != "seed").map(param).collect::<Vec<_>>(),
    })
}

/// One parameter: `{name, doc, type, default, ...range}`.
fn param(p: &Param) -> Value {
    let mut out = json!({ "name": p.name, "doc": p.doc });
    let ty = match p.ty {
        ParamType::Number {
            default,
            min,
            max,
            min_open,
        } => {
            json!({"type": "number", "default": default, "min": min, "max": max, "min_open": min_open})
        }
        ParamType::Whole { default, min, max } => {
            json!({"type": "whole", "default": default, "min": min, "max": max})
        }
        ParamType::Choice { default, options } => {
            json!({"type": "choice", "default": default, "options": options})
        }
        ParamType::Orientation { default } => json!({"type": "orientation", "default": default}),
        ParamType::Seed => json!({"type": "seed", "default": 0}),
        ParamType::Flag { default } => json!({"type": "flag", "default": default}),
        ParamType::Vector { default, .. } => json!({"type": "vector", "default": default}),
        ParamType::Axis3 => json!({"type": "axis3", "default": [0.0, 0.0, 1.0]}),
        ParamType::Pair { default } => json!({"type": "pair", "default": default}),
        ParamType::Points { pairs, default, .. } => {
            json!({"type": "points", "pairs": pairs, "default": default})
        }
    };
    if let (Some(out), Value::Object(ty)) = (out.as_object_mut(), ty) {
        out.extend(ty);
    }
    out
}
