//! The kinds' own parameters ([`KindField::all`], the kinds' table) as graphs, spec files, the
//! CLI's flags and `--print-spec` write them: untyped [`Value`]s read through a kind node's
//! reader (so a value is checked against the kind's row, and an error names the node or the
//! spec field), and the README's flag rows (CONVENTIONS §13).

use std::collections::HashMap;

use super::meta::node_type;
use super::read::NodeReader;
use super::value::Value;
use crate::error::{Error, Result};
pub use crate::kinds::KindField;
use crate::kinds::param::{Param, ParamType};
use crate::kinds::{Kind, KindFields, KindValue};
use crate::spec::NoiseSpec;

impl KindField {
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
        match (self.get)(&spec.kind_fields) {
            KindValue::Number(x) => Value::Number(x),
            KindValue::Name(text) => Value::Text(text),
            KindValue::Orientation(Some(degrees)) => Value::Number(degrees),
            KindValue::Orientation(None) => Value::Text("isotropic".into()),
        }
    }
}

/// The parameters `kind` owns, in [`KindField::all`] order.
pub fn fields_of(kind: Kind) -> impl Iterator<Item = &'static KindField> {
    KindField::all().filter(move |f| f.param_of(kind).is_some())
}

/// Reads every parameter `kind` owns from `reader` (absent ones take the row's default),
/// checking each against the row.
pub(super) fn read_kind_fields(reader: &NodeReader<'_>, kind: Kind) -> Result<KindFields> {
    let mut fields = KindFields::defaults(kind);
    for row in fields_of(kind) {
        let value = match row.param_of(kind).map(|p| p.ty) {
            Some(ParamType::Number { .. }) => KindValue::Number(reader.number(row.name)?),
            Some(ParamType::Orientation { default }) => {
                KindValue::Orientation(reader.orientation(row.name, default)?)
            }
            _ => KindValue::Name(reader.text_choice(row.name)?),
        };
        (row.set)(&mut fields, value).map_err(|reason| reader.err(row.name, reason))?;
    }
    Ok(fields)
}

/// Sets `spec`'s kind-owned parameters from `given` (name, value) pairs, checked against the
/// kind's row. A parameter of another kind is refused (it would be silently ignored), naming
/// the spec field and the kinds that take it.
pub fn set_kind_fields(spec: &mut NoiseSpec, given: &[(String, Value)]) -> Result<()> {
    for (name, _) in given {
        let row = KindField::named(name).ok_or_else(|| {
            Error::invalid(
                "kind",
                format!(
                    "{} is no kind's parameter; kinds take {}",
                    crate::text::quoted(name),
                    all_names()
                ),
            )
        })?;
        if row.param_of(spec.kind).is_none() {
            return Err(Error::invalid(
                row.field,
                format!(
                    "does not apply to {} noise; it is a parameter of {}",
                    spec.kind,
                    row.owners()
                ),
            ));
        }
    }
    let Some(ty) = node_type(spec.kind.name()) else {
        return Ok(());
    };
    let index = HashMap::new();
    let reader = NodeReader::for_fields("spec", ty, given, &index, spec.dims);
    let fields = read_kind_fields(&reader, spec.kind).map_err(|e| match e {
        Error::InvalidGraph { field, reason, .. } => {
            Error::invalid(KindField::named(&field).map_or("kind", |f| f.field), reason)
        }
        other => other,
    })?;
    spec.kind_fields = fields;
    Ok(())
}

/// The README's rows for the kinds' flags: `| flag | owners: doc, range | default |`, one per
/// row of [`KindField::all`] (a test keeps the README equal to this).
pub fn markdown_rows() -> String {
    let mut out = String::new();
    for row in KindField::all() {
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

fn all_names() -> String {
    let names: Vec<&str> = KindField::all().map(|f| f.name).collect();
    names.join(", ")
}
