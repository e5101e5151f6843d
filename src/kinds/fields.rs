//! A kind's own parameters by name: one value ([`KindValue`]), one row ([`KindField`]: name,
//! spec field, reading and writing; each family lists its rows in its `params.rs`) and the
//! checks of a spec's [`KindFields`] against a kind's table row.

use super::{Kind, KindFields};

/// One of a kind's own parameter values, as a graph node or a spec file gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum KindValue {
    /// A number (`jitter`, `density`, ...).
    Number(f64),
    /// A name of a choice (`distance`, `return`).
    Name(String),
    /// Gabor's orientation in degrees, or `None` for isotropic.
    Orientation(Option<f64>),
}

/// One kind-owned parameter: its name in the kinds' rows, graphs, spec files and the CLI
/// (`--` and the name with `-` for `_`), the [`NoiseSpec`](crate::NoiseSpec) field that holds
/// it, and how it is read from and written to `KindFields`.
pub struct KindField {
    /// The parameter's name.
    pub name: &'static str,
    /// The spec field that holds it (what an error about it names).
    pub field: &'static str,
    /// Its value in a set of fields.
    pub get: fn(&KindFields) -> KindValue,
    /// Sets it, or says why the value is not one of its type (ranges are the table's).
    pub set: fn(&mut KindFields, KindValue) -> Result<(), String>,
}

/// The number in `value`, or why it is not one.
pub(crate) fn number(value: KindValue) -> Result<f64, String> {
    match value {
        KindValue::Number(x) => Ok(x),
        other => Err(format!("must be a number, got {other:?}")),
    }
}

/// The choice named in `value`, or why it is not one of `T`'s names.
pub(crate) fn name<T: std::str::FromStr>(value: KindValue) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    match value {
        KindValue::Name(text) => text.parse().map_err(|e: T::Err| e.to_string()),
        other => Err(format!("must be a name, got {other:?}")),
    }
}

/// A family's row for a number or a named choice: `kind_field!("return", cellular.cell_return,
/// name)` reads and writes `fields.cellular.cell_return` and names the spec field
/// `cell_return` in errors.
macro_rules! kind_field {
    ($name:literal, $family:ident . $member:ident, number) => {
        $crate::kinds::fields::KindField {
            name: $name,
            field: stringify!($member),
            get: |f| $crate::kinds::KindValue::Number(f.$family.$member),
            set: |f, v| {
                f.$family.$member = $crate::kinds::fields::number(v)?;
                Ok(())
            },
        }
    };
    ($name:literal, $family:ident . $member:ident, name) => {
        $crate::kinds::fields::KindField {
            name: $name,
            field: stringify!($member),
            get: |f| $crate::kinds::KindValue::Name(f.$family.$member.to_string()),
            set: |f, v| {
                f.$family.$member = $crate::kinds::fields::name(v)?;
                Ok(())
            },
        }
    };
}
pub(crate) use kind_field;

impl KindField {
    /// Every kind-owned parameter, in the order spec files list them: each family's rows
    /// (`kinds/<family>/params.rs`) in `own_params!`'s order. A kind owns those its row lists
    /// (`KindInfo::params`).
    pub fn all() -> impl Iterator<Item = &'static KindField> {
        super::FIELD_LISTS.iter().flat_map(|rows| rows.iter())
    }

    /// The row called `name`.
    pub fn named(name: &str) -> Option<&'static KindField> {
        Self::all().find(|f| f.name == name)
    }

    /// The table's entry for this parameter on `kind`, if `kind` takes it.
    pub fn param_of(&self, kind: Kind) -> Option<&'static super::Param> {
        kind.info().params.iter().find(|p| p.name == self.name)
    }

    /// The kinds that take it, in code order.
    pub fn kinds(&self) -> Vec<Kind> {
        (Kind::ALL.iter().copied())
            .filter(|k| self.param_of(*k).is_some())
            .collect()
    }

    /// The kinds that take it, as text: `sparse-convolution, gabor`.
    pub fn owners(&self) -> String {
        let names: Vec<&str> = self.kinds().iter().map(|k| k.name()).collect();
        names.join(", ")
    }

    /// Checks `value` against this parameter's row on `kind` and sets it.
    pub fn check_and_set(
        &self,
        kind: Kind,
        fields: &mut KindFields,
        value: KindValue,
    ) -> Result<(), String> {
        let Some(param) = self.param_of(kind) else {
            return Err(format!(
                "does not apply to {kind} noise; it is a parameter of {}",
                self.owners()
            ));
        };
        let value = match value {
            KindValue::Number(x) => KindValue::Number(param.ty.check_number(x)?),
            other => other,
        };
        (self.set)(fields, value)
    }
}

impl KindFields {
    /// Checks every field against `kind`'s rows: its own in their ranges, every other kind's at
    /// its default (it would be silently ignored). The error is `(spec field, reason)`.
    pub fn check(&self, kind: Kind) -> Result<(), (&'static str, String)> {
        let defaults = KindFields::defaults(kind);
        for row in KindField::all() {
            let value = (row.get)(self);
            if row.param_of(kind).is_none() {
                if value != (row.get)(&defaults) {
                    let reason = format!(
                        "does not apply to {kind} noise; it is a parameter of {}",
                        row.owners()
                    );
                    return Err((row.field, reason));
                }
                continue;
            }
            let mut scratch = *self;
            row.check_and_set(kind, &mut scratch, value)
                .map_err(|reason| (row.field, reason))?;
        }
        Ok(())
    }
}
