//! The parameters a kind owns beyond frequency, seed and interpolation (cellular's jitter,
//! Gabor's bandwidth...). The node table ([`meta`](super::meta)) says which kind takes which,
//! with its type, default, range and doc; this file says, once, which [`NoiseSpec`] field holds
//! each. A graph's source nodes, a flat spec's validation, the CLI's flags, its spec files and
//! `--print-spec` all go through [`KIND_FIELDS`], so a kind's new parameter is a table entry and
//! one row here (CONVENTIONS §13).

use std::collections::HashMap;

use super::meta::node_type;
use super::read::NodeReader;
use super::value::Value;
use crate::error::{Error, Result};
use crate::kinds::param::{Param, ParamType};
use crate::spec::{Kind, NoiseSpec};

/// One kind-owned parameter and the spec field that holds it.
pub struct KindField {
    /// Its name in the node table, graphs and spec files (the CLI flag is `--` and the name
    /// with `-` for `_`).
    pub name: &'static str,
    /// The [`NoiseSpec`] field that holds it, named by [`Error::InvalidSpec`].
    pub field: &'static str,
    read: fn(&NodeReader<'_>, &mut NoiseSpec) -> Result<()>,
    write: fn(&NoiseSpec) -> Value,
}

/// Every kind-owned parameter, in the order spec files list them.
pub const KIND_FIELDS: &[KindField] = &[
    KindField {
        name: "jitter",
        field: "jitter",
        read: |r, s| r.number("jitter").map(|v| s.jitter = v),
        write: |s| Value::Number(s.jitter),
    },
    KindField {
        name: "distance",
        field: "distance",
        read: |r, s| r.choice("distance").map(|v| s.distance = v),
        write: |s| Value::Text(s.distance.to_string()),
    },
    KindField {
        name: "return",
        field: "cell_return",
        read: |r, s| r.choice("return").map(|v| s.cell_return = v),
        write: |s| Value::Text(s.cell_return.to_string()),
    },
    KindField {
        name: "density",
        field: "density",
        read: |r, s| r.number("density").map(|v| s.density = v),
        write: |s| Value::Number(s.density),
    },
    KindField {
        name: "gabor_frequency",
        field: "gabor_frequency",
        read: |r, s| r.number("gabor_frequency").map(|v| s.gabor_frequency = v),
        write: |s| Value::Number(s.gabor_frequency),
    },
    KindField {
        name: "gabor_orientation",
        field: "gabor_orientation",
        read: |r, s| r.orientation().map(|v| s.gabor_orientation = v),
        write: |s| match s.gabor_orientation {
            Some(degrees) => Value::Number(degrees),
            None => Value::Text("isotropic".into()),
        },
    },
    KindField {
        name: "gabor_bandwidth",
        field: "gabor_bandwidth",
        read: |r, s| r.number("gabor_bandwidth").map(|v| s.gabor_bandwidth = v),
        write: |s| Value::Number(s.gabor_bandwidth),
    },
];

impl KindField {
    /// The row called `name`.
    pub fn named(name: &str) -> Option<&'static KindField> {
        KIND_FIELDS.iter().find(|f| f.name == name)
    }

    /// The table's entry for this parameter on `kind`'s node, if `kind` takes it.
    pub fn param_of(&self, kind: Kind) -> Option<&'static Param> {
        node_type(kind.name()).and_then(|t| t.param(self.name))
    }

    /// The kinds that take it, in the table's order.
    pub fn kinds(&self) -> Vec<Kind> {
        Kind::ALL
            .iter()
            .copied()
            .filter(|k| self.param_of(*k).is_some())
            .collect()
    }

    /// The kinds that take it, as text: `sparse-convolution, gabor`.
    pub fn owners(&self) -> String {
        let names: Vec<&str> = self.kinds().iter().map(|k| k.name()).collect();
        names.join(", ")
    }

    /// The first owner's table entry: its type and doc (owners share them; only defaults may
    /// differ).
    pub fn param(&self) -> Option<&'static Param> {
        self.kinds().first().and_then(|k| self.param_of(*k))
    }

    /// The default, or each owner's where they differ: `3 for sparse-convolution, 8 for gabor`.
    pub fn default_text(&self) -> String {
        let defaults: Vec<(Kind, String)> = self
            .kinds()
            .into_iter()
            .filter_map(|k| Some((k, self.param_of(k)?.ty.default_text())))
            .collect();
        match defaults.first() {
            Some((_, first)) if defaults.iter().all(|(_, d)| d == first) => first.clone(),
            _ => {
                let each: Vec<String> = defaults
                    .iter()
                    .map(|(k, d)| format!("{d} for {k}"))
                    .collect();
                each.join(", ")
            }
        }
    }

    /// Its value in `spec`, as a spec file or graph writes it.
    pub fn value(&self, spec: &NoiseSpec) -> Value {
        (self.write)(spec)
    }
}

/// The parameters `kind` owns, in [`KIND_FIELDS`] order.
pub fn fields_of(kind: Kind) -> impl Iterator<Item = &'static KindField> {
    KIND_FIELDS
        .iter()
        .filter(move |f| f.param_of(kind).is_some())
}

/// Reads every parameter `spec`'s kind owns from `reader` (absent ones take the table's
/// defaults), checking each against the table.
pub(super) fn read_kind_fields(reader: &NodeReader<'_>, spec: &mut NoiseSpec) -> Result<()> {
    fields_of(spec.kind).try_for_each(|f| (f.read)(reader, spec))
}

/// Sets `spec`'s kind-owned parameters from `given` (name, value) pairs, checked against the
/// node table. A parameter of another kind is refused (it would be silently ignored), naming
/// the spec field and the kinds that take it.
pub fn set_kind_fields(spec: &mut NoiseSpec, given: &[(String, Value)]) -> Result<()> {
    for (name, _) in given {
        let row = KindField::named(name).ok_or_else(|| {
            Error::invalid(
                "kind",
                format!(
                    "{name:?} is no kind's parameter; kinds take {}",
                    all_names()
                ),
            )
        })?;
        if row.param_of(spec.kind).is_none() {
            return Err(foreign(row, spec.kind));
        }
    }
    read_through_table(spec, given)
}

/// The check of [`NoiseSpec::validate`]: the kind's own parameters in the table's ranges, and
/// every other kind's at their defaults.
pub(crate) fn check_kind_fields(spec: &NoiseSpec) -> Result<()> {
    let defaults = NoiseSpec::new(spec.kind, spec.dims);
    if let Some(row) = KIND_FIELDS
        .iter()
        .find(|f| f.param_of(spec.kind).is_none() && f.value(spec) != f.value(&defaults))
    {
        return Err(foreign(row, spec.kind));
    }
    let own: Vec<(String, Value)> = fields_of(spec.kind)
        .map(|f| (f.name.to_string(), f.value(spec)))
        .collect();
    read_through_table(&mut spec.clone(), &own)
}

/// Reads `given` into `spec` through a reader of `spec`'s kind node, turning the reader's
/// graph errors into spec errors naming the spec field.
fn read_through_table(spec: &mut NoiseSpec, given: &[(String, Value)]) -> Result<()> {
    let Some(ty) = node_type(spec.kind.name()) else {
        return Ok(());
    };
    let index = HashMap::new();
    let reader = NodeReader::for_fields("spec", ty, given, &index, spec.dims);
    read_kind_fields(&reader, spec).map_err(|e| match e {
        Error::InvalidGraph { field, reason, .. } => {
            Error::invalid(KindField::named(&field).map_or("kind", |f| f.field), reason)
        }
        other => other,
    })
}

/// The README's rows for the kinds' flags: `| flag | owners: doc, range | default |`, one per
/// row of [`KIND_FIELDS`] (a test keeps the README equal to this).
pub fn markdown_rows() -> String {
    let mut out = String::new();
    for row in KIND_FIELDS {
        let Some(param) = row.param() else { continue };
        let range = match param.ty {
            ParamType::Choice { options, .. } => {
                let names: Vec<String> = options.iter().map(|o| format!("`{o}`")).collect();
                Some(names.join(", "))
            }
            ty => ty.range_text(),
        };
        let range = range.map_or(String::new(), |r| format!(", {r}"));
        out.push_str(&format!(
            "| `--{}` | {}: {}{range} | {} |\n",
            row.name.replace('_', "-"),
            row.owners(),
            param.doc.replace('|', "\\|"),
            row.default_text()
        ));
    }
    out
}

fn foreign(row: &KindField, kind: Kind) -> Error {
    let owners: Vec<&str> = row.kinds().iter().map(|k| k.name()).collect();
    Error::invalid(
        row.field,
        format!(
            "does not apply to {kind} noise; it is a parameter of {}",
            owners.join(", ")
        ),
    )
}

fn all_names() -> String {
    let names: Vec<&str> = KIND_FIELDS.iter().map(|f| f.name).collect();
    names.join(", ")
}
