//! One node's fields read against its type's row of the node table ([`meta`](super::meta)):
//! each parameter in its range, each input a node of the graph, errors naming the node and
//! the field. What the fields make (a typed node) is `read`'s, a modifier's its own.

use std::collections::HashMap;
use std::str::FromStr;

use super::node_type::{Arity, NodeType};
use super::value::Value;
use crate::error::{Error, Result};
use crate::kinds::param::ParamType;
use crate::text::quoted;

/// An error about `node`'s `field`.
pub(crate) fn graph_error(node: &str, field: &str, reason: impl Into<String>) -> Error {
    Error::InvalidGraph {
        node: node.into(),
        field: field.into(),
        reason: reason.into(),
    }
}

/// Reads one node's fields against its type's entry in the table.
pub(crate) struct NodeReader<'a> {
    name: &'a str,
    pub(super) ty: &'static NodeType,
    fields: &'a [(String, Value)],
    index: &'a HashMap<&'a str, usize>,
    pub(super) dims: u32,
}

impl<'a> NodeReader<'a> {
    /// A reader of a node called `name` of type `ty` with these fields.
    pub(super) fn for_fields(
        name: &'a str,
        ty: &'static NodeType,
        fields: &'a [(String, Value)],
        index: &'a HashMap<&'a str, usize>,
        dims: u32,
    ) -> Self {
        Self {
            name,
            ty,
            fields,
            index,
            dims,
        }
    }

    pub(super) fn err(&self, field: &str, reason: impl Into<String>) -> Error {
        graph_error(self.name, field, reason)
    }

    pub(super) fn check_keys(&self) -> Result<()> {
        for (key, _) in self.fields {
            if key != "type" && self.ty.param(key).is_none() && self.ty.input(key).is_none() {
                let mut known: Vec<&str> = self.ty.inputs.iter().map(|i| i.name).collect();
                known.extend(self.ty.params.iter().map(|p| p.name));
                let allowed = if known.is_empty() {
                    "it takes no inputs or parameters".to_string()
                } else {
                    format!("it takes {}", known.join(", "))
                };
                return Err(self.err(
                    key,
                    format!("does not apply to a {} node; {allowed}", self.ty.name),
                ));
            }
        }
        Ok(())
    }

    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn param_type(&self, name: &str) -> ParamType {
        // Every name asked for below is in the table for its type (a test reads every type).
        self.ty
            .param(name)
            .map_or(ParamType::Flag { default: false }, |p| p.ty)
    }

    pub(super) fn number(&self, name: &str) -> Result<f64> {
        let ParamType::Number {
            default,
            min,
            max,
            min_open,
        } = self.param_type(name)
        else {
            return Err(self.err(name, "is not a number parameter of this node type"));
        };
        let Some(value) = self.get(name) else {
            return Ok(default);
        };
        let x = value
            .as_f64()
            .ok_or_else(|| self.err(name, format!("must be a number, got {}", value.describe())))?;
        let ty = ParamType::Number {
            default,
            min,
            max,
            min_open,
        };
        ty.check_number(x).map_err(|reason| self.err(name, reason))
    }

    pub(super) fn whole(&self, name: &str) -> Result<u32> {
        let ParamType::Whole { default, min, max } = self.param_type(name) else {
            return Err(self.err(name, "is not a whole-number parameter of this node type"));
        };
        match self.get(name) {
            None => Ok(default),
            Some(v)
                if v.as_whole()
                    .is_some_and(|n| (min.into()..=max.into()).contains(&n)) =>
            {
                Ok(v.as_whole().map_or(default, |n| n as u32))
            }
            Some(v) => Err(self.err(
                name,
                format!("must be a whole number in {min}..={max}, got {}", show(v)),
            )),
        }
    }

    pub(super) fn seed(&self) -> Result<u64> {
        match self.get("seed") {
            None => Ok(0),
            Some(v) if v.as_whole().is_some() => {
                let n = v.as_whole().unwrap_or_default();
                u64::try_from(n).map_err(|_| {
                    self.err(
                        "seed",
                        format!("must be a whole number in 0..=2^64-1, got {n}"),
                    )
                })
            }
            Some(v) => Err(self.err("seed", format!("must be a whole number, got {}", show(v)))),
        }
    }

    pub(super) fn choice<T: FromStr>(&self, name: &str) -> Result<T> {
        let text = self.text_choice(name)?;
        text.parse()
            .map_err(|_| self.err(name, format!("{} is not understood here", quoted(&text))))
    }

    /// The name given for choice `name` (or its default), one of the row's options.
    pub(super) fn text_choice(&self, name: &str) -> Result<String> {
        let ParamType::Choice { default, options } = self.param_type(name) else {
            return Err(self.err(name, "is not a choice of this node type"));
        };
        match self.get(name) {
            None => Ok(default.to_string()),
            Some(Value::Text(t)) if options.contains(&t.as_str()) => Ok(t.clone()),
            Some(v) => Err(self.err(
                name,
                format!("must be one of {}, got {}", options.join(", "), show(v)),
            )),
        }
    }

    pub(super) fn flag(&self, name: &str) -> Result<bool> {
        let ParamType::Flag { default } = self.param_type(name) else {
            return Err(self.err(name, "is not a flag of this node type"));
        };
        match self.get(name) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(self.err(name, format!("must be true or false, got {}", show(v)))),
        }
    }

    fn numbers(&self, name: &str, v: &Value) -> Result<Vec<f64>> {
        let Value::List(items) = v else {
            return Err(self.err(name, format!("must be a list of numbers, got {}", show(v))));
        };
        items
            .iter()
            .map(|item| {
                item.as_f64().filter(|x| x.is_finite()).ok_or_else(|| {
                    self.err(
                        name,
                        format!("must hold finite numbers, got {}", show(item)),
                    )
                })
            })
            .collect()
    }

    pub(super) fn vector(&self, name: &str) -> Result<[f64; 4]> {
        let ParamType::Vector {
            default,
            max,
            nonzero,
        } = self.param_type(name)
        else {
            return Err(self.err(name, "is not a vector of this node type"));
        };
        let dims = self.dims as usize;
        let mut out = [default; 4];
        match self.get(name) {
            None => {}
            Some(v) if v.as_f64().is_some() => out = [v.as_f64().unwrap_or(default); 4],
            Some(v) => {
                let given = self.numbers(name, v)?;
                if given.len() != dims {
                    return Err(self.err(
                        name,
                        format!(
                            "needs {dims} numbers (one per axis) or one for all, got {}",
                            given.len()
                        ),
                    ));
                }
                out[..dims].copy_from_slice(&given);
            }
        }
        for &x in &out[..dims] {
            if !x.abs().le(&max) || (nonzero && x == 0.0) {
                let zero = if nonzero { ", not 0" } else { "" };
                return Err(self.err(
                    name,
                    format!("each must be finite with magnitude <= {max:e}{zero}, got {x}"),
                ));
            }
        }
        Ok(out)
    }

    pub(super) fn axis3(&self, name: &str) -> Result<[f64; 3]> {
        let Some(v) = self.get(name) else {
            return Ok([0.0, 0.0, 1.0]);
        };
        let given = self.numbers(name, v)?;
        match given[..] {
            [x, y, z] if x != 0.0 || y != 0.0 || z != 0.0 => Ok([x, y, z]),
            _ => Err(self.err(name, "must be three numbers [x, y, z], not all 0")),
        }
    }

    pub(super) fn pair(&self, name: &str) -> Result<[f64; 2]> {
        let ParamType::Pair { default } = self.param_type(name) else {
            return Err(self.err(name, "is not a pair of this node type"));
        };
        let Some(v) = self.get(name) else {
            return Ok(default);
        };
        match self.numbers(name, v)?[..] {
            [a, b] if a as f32 != b as f32 => Ok([a, b]),
            _ => Err(self.err(name, "must be two numbers [a, b] that differ in f32")),
        }
    }

    pub(super) fn points(&self, name: &str) -> Result<Vec<[f64; 2]>> {
        let ParamType::Points {
            pairs,
            min,
            default,
        } = self.param_type(name)
        else {
            return Err(self.err(name, "is not a list of points of this node type"));
        };
        let points: Vec<[f64; 2]> = match self.get(name) {
            None if default.is_empty() => {
                return Err(self.err(name, format!("missing: give at least {min} points")));
            }
            None => default.iter().map(|&x| [x, x]).collect(),
            Some(Value::List(items)) if pairs => {
                let not_a_pair = |item: &Value| {
                    self.err(
                        name,
                        format!(
                            "each point is a pair [x, y], as in [[-1, -1], [0, 0.5], [1, 1]]; \
                             got {}",
                            show(item)
                        ),
                    )
                };
                items
                    .iter()
                    .map(|item| match item {
                        Value::List(_) => match self.numbers(name, item)?[..] {
                            [x, y] => Ok([x, y]),
                            _ => Err(not_a_pair(item)),
                        },
                        _ => Err(not_a_pair(item)),
                    })
                    .collect::<Result<_>>()?
            }
            Some(v) => self.numbers(name, v)?.iter().map(|&x| [x, x]).collect(),
        };
        if points.len() < min {
            return Err(self.err(
                name,
                format!("needs at least {min} points, got {}", points.len()),
            ));
        }
        // Strictly increasing in f32 too: the GPU divides by each segment's width.
        if points.windows(2).any(|w| w[0][0] as f32 >= w[1][0] as f32) {
            return Err(self.err(name, "x must increase strictly from point to point"));
        }
        Ok(points)
    }

    /// An orientation parameter: degrees, or `None` for `"isotropic"`.
    pub(super) fn orientation(&self, name: &str, default: f64) -> Result<Option<f64>> {
        match self.get(name) {
            None => Ok(Some(default)),
            Some(Value::Text(t)) if t == "isotropic" => Ok(None),
            Some(v) => match v.as_f64() {
                Some(d) if d.is_finite() => Ok(Some(d)),
                _ => Err(self.err(
                    name,
                    format!("must be degrees or \"isotropic\", got {}", show(v)),
                )),
            },
        }
    }

    pub(super) fn input(&self, name: &str) -> Result<usize> {
        match self.get(name) {
            None => Err(self.err(name, "missing: name the node it reads")),
            Some(v) => self.node_ref(name, v),
        }
    }

    fn node_ref(&self, name: &str, v: &Value) -> Result<usize> {
        match v {
            Value::Text(t) => self.index.get(t.as_str()).copied().ok_or_else(|| {
                self.err(name, format!("names no node of the graph: {}", quoted(t)))
            }),
            other => Err(self.err(name, format!("must be a node name, got {}", show(other)))),
        }
    }

    pub(super) fn input_list(&self, name: &str) -> Result<Vec<usize>> {
        let (min, exact) = match self.ty.input(name).map(|i| i.arity) {
            Some(Arity::List(n)) => (n, None),
            _ => (self.dims as usize, Some(self.dims as usize)),
        };
        let Some(Value::List(items)) = self.get(name) else {
            return Err(self.err(name, "missing or not a list: give a list of node names"));
        };
        if items.len() < min || exact.is_some_and(|n| items.len() != n) {
            let want = exact.map_or(format!("at least {min}"), |n| format!("{n} (one per axis)"));
            return Err(self.err(
                name,
                format!("needs {want} node names, got {}", items.len()),
            ));
        }
        items.iter().map(|v| self.node_ref(name, v)).collect()
    }
}

/// A value as a message quotes it: short.
fn show(v: &Value) -> String {
    match v {
        Value::Whole(n) => n.to_string(),
        // As written: 4.5, 40.0 (not 40).
        Value::Number(x) => format!("{x:?}"),
        Value::Text(t) => quoted(t),
        other => other.describe().to_string(),
    }
}
