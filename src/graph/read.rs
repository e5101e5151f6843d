//! From the untyped form to typed nodes: every key checked against the node table
//! ([`meta`](super::meta)), every parameter in range, every input a node of the graph. Errors
//! name the node and the field.

use std::collections::HashMap;

pub(crate) use super::fields::{NodeReader, graph_error};
use super::meta::{NodeType, node_type};
use super::node::Node;
use super::value::Value;
use crate::error::Result;
use crate::text::quoted;

/// Reads every node of a `nodes` object, resolving inputs by name.
pub(crate) fn read_nodes(entries: &[(String, Value)], dims: u32) -> Result<Vec<Node>> {
    let index: HashMap<&str, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    for (name, _) in entries {
        check_name(name)?;
    }
    entries
        .iter()
        .map(|(name, value)| {
            let Value::Object(fields) = value else {
                return Err(graph_error(
                    name,
                    "",
                    format!(
                        "a node is an object with a \"type\", got {}",
                        value.describe()
                    ),
                ));
            };
            let ty = type_of(name, fields)?;
            let reader = NodeReader::for_fields(name, ty, fields, &index, dims);
            reader.check_keys()?;
            Ok(Node {
                name: name.clone(),
                op: reader.op()?,
            })
        })
        .collect()
}

/// Most characters in a node's name.
pub const MAX_NAME: usize = 64;

/// A node's name: 1 to 64 characters, none of them control characters (names appear in every
/// message, so a long or garbled one is refused quoting only its start).
fn check_name(name: &str) -> Result<()> {
    let count = name.chars().count();
    if (1..=MAX_NAME).contains(&count) && !name.chars().any(char::is_control) {
        return Ok(());
    }
    // Quoted with escapes (the message's `{:?}`): a control character shows as `\u{7}`.
    let start: String = name.chars().take(24).collect();
    Err(graph_error(
        &start,
        "",
        format!(
            "a node's name has 1 to {MAX_NAME} characters and no control characters (this one has {count})"
        ),
    ))
}

fn type_of(name: &str, fields: &[(String, Value)]) -> Result<&'static NodeType> {
    let all = || {
        super::meta::node_types()
            .iter()
            .map(|t| t.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match fields.iter().find(|(k, _)| k == "type").map(|(_, v)| v) {
        Some(Value::Text(t)) => node_type(t).ok_or_else(|| {
            graph_error(
                name,
                "type",
                format!("{} is no node type; use one of {}", quoted(t), all()),
            )
        }),
        Some(other) => Err(graph_error(
            name,
            "type",
            format!("must be a string, got {}", other.describe()),
        )),
        None => Err(graph_error(
            name,
            "type",
            format!("missing; use one of {}", all()),
        )),
    }
}
