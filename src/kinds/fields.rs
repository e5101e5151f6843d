//! A kind's own parameters as given ([`KindFields`]): their values, their rows (name, spec
//! field, reading and writing: [`KIND_FIELDS`]) and the checks against a kind's table row.
//! What the kinds derive from them is `params.rs`'s.

use super::{CellReturn, Distance, Kind};

/// A kind's own parameters, beyond frequency, seed and interpolation: the values of the rows
/// of each kind's table entry (`KindInfo::params`). Every kind carries all of them; a kind reads
/// only its own, and validation refuses another kind's (CONVENTIONS §13).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KindFields {
    /// Cellular: how far feature points stray from their cell's center, 0..=1.
    pub jitter: f64,
    /// Cellular: the distance metric.
    pub distance: Distance,
    /// Cellular: what the noise returns.
    pub cell_return: CellReturn,
    /// Sparse convolution and Gabor: mean impulses per lattice cell, in (0, 16].
    pub density: f64,
    /// Gabor: the kernel's frequency F0 in cycles per lattice cell.
    pub gabor_frequency: f64,
    /// Gabor: the kernel's orientation in degrees, or `None` for isotropic noise.
    pub gabor_orientation: Option<f64>,
    /// Gabor: the Gaussian envelope's bandwidth a (per lattice cell).
    pub gabor_bandwidth: f64,
}

impl KindFields {
    /// Every field at `kind`'s default (the density is the only one whose default depends on
    /// the kind).
    pub fn defaults(kind: Kind) -> Self {
        Self {
            jitter: 1.0,
            distance: Distance::Euclidean,
            cell_return: CellReturn::F1,
            density: kind.default_density(),
            gabor_frequency: 1.5,
            gabor_orientation: Some(45.0),
            gabor_bandwidth: 1.0,
        }
    }
}

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

fn number(value: KindValue) -> Result<f64, String> {
    match value {
        KindValue::Number(x) => Ok(x),
        other => Err(format!("must be a number, got {other:?}")),
    }
}

fn name<T: std::str::FromStr>(value: KindValue) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    match value {
        KindValue::Name(text) => text.parse().map_err(|e: T::Err| e.to_string()),
        other => Err(format!("must be a name, got {other:?}")),
    }
}

/// Every kind-owned parameter, in the order spec files list them. A kind owns those its row
/// lists (`KindInfo::params`).
pub static KIND_FIELDS: &[KindField] = &[
    KindField {
        name: "jitter",
        field: "jitter",
        get: |f| KindValue::Number(f.jitter),
        set: |f, v| {
            f.jitter = number(v)?;
            Ok(())
        },
    },
    KindField {
        name: "distance",
        field: "distance",
        get: |f| KindValue::Name(f.distance.to_string()),
        set: |f, v| {
            f.distance = name(v)?;
            Ok(())
        },
    },
    KindField {
        name: "return",
        field: "cell_return",
        get: |f| KindValue::Name(f.cell_return.to_string()),
        set: |f, v| {
            f.cell_return = name(v)?;
            Ok(())
        },
    },
    KindField {
        name: "density",
        field: "density",
        get: |f| KindValue::Number(f.density),
        set: |f, v| {
            f.density = number(v)?;
            Ok(())
        },
    },
    KindField {
        name: "gabor_frequency",
        field: "gabor_frequency",
        get: |f| KindValue::Number(f.gabor_frequency),
        set: |f, v| {
            f.gabor_frequency = number(v)?;
            Ok(())
        },
    },
    KindField {
        name: "gabor_orientation",
        field: "gabor_orientation",
        get: |f| KindValue::Orientation(f.gabor_orientation),
        set: |f, v| match v {
            KindValue::Orientation(d) if d.is_none_or(f64::is_finite) => {
                f.gabor_orientation = d;
                Ok(())
            }
            other => Err(format!("must be degrees or \"isotropic\", got {other:?}")),
        },
    },
    KindField {
        name: "gabor_bandwidth",
        field: "gabor_bandwidth",
        get: |f| KindValue::Number(f.gabor_bandwidth),
        set: |f, v| {
            f.gabor_bandwidth = number(v)?;
            Ok(())
        },
    },
];

impl KindField {
    /// The row called `name`.
    pub fn named(name: &str) -> Option<&'static KindField> {
        KIND_FIELDS.iter().find(|f| f.name == name)
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
        for row in KIND_FIELDS {
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
