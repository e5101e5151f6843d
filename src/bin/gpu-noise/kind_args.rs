//! The kinds' own flags and spec-file fields (`--jitter`, `"gabor_bandwidth"`...), made from
//! the node table through `gpu_noise::low_level::graph`: names, value types, ranges, defaults
//! and help text are the table's, so a kind's new parameter needs no change here.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use gpu_noise::graph::Value;
use gpu_noise::graph::meta::ParamType;
use gpu_noise::low_level::graph::{KIND_FIELDS, KindField};

/// Kind-owned parameters as given (flags or a spec file): (table name, value), in the table's
/// order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KindParams(pub Vec<(String, Value)>);

impl KindParams {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// These parameters with every one that `over` gives replaced by `over`'s.
    pub fn overlay(self, over: KindParams) -> KindParams {
        let pick = |row: &KindField| {
            let find = |p: &KindParams| p.0.iter().find(|(n, _)| n == row.name).cloned();
            find(&over).or_else(|| find(&self))
        };
        KindParams(KIND_FIELDS.iter().filter_map(pick).collect())
    }

    /// The first parameter given, if any.
    pub fn first_name(&self) -> Option<&'static str> {
        let (name, _) = self.0.first()?;
        KindField::named(name).map(|row| row.name)
    }
}

/// The flag of a parameter: `gabor_bandwidth` is `--gabor-bandwidth`.
pub fn flag_of(name: &str) -> String {
    format!("--{}", name.replace('_', "-"))
}

/// `--help` text: the kinds, the doc, the range and the default(s), all from the table.
fn help(row: &KindField) -> String {
    let Some(param) = row.param() else {
        return String::new();
    };
    // clap lists a choice's names itself.
    let range = match param.ty {
        ParamType::Choice { .. } => None,
        ty => ty.range_text(),
    };
    let range = range.map_or(String::new(), |r| format!(", {r}"));
    let (owners, default) = (row.owners(), row.default_text());
    format!("{owners}: {}{range} [default: {default}]", param.doc)
}

/// The flag's value parser: numbers, one of the names, or degrees and `isotropic`.
fn arg(row: &KindField) -> Arg {
    let ty = row.param().map(|p| p.ty);
    let arg = Arg::new(row.name)
        .long(flag_of(row.name)[2..].to_string())
        .value_name(row.name.to_uppercase())
        .help(help(row))
        .allow_hyphen_values(true);
    match ty {
        Some(ParamType::Choice { options, .. }) => {
            arg.value_parser(PossibleValuesParser::new(options).map(Value::Text))
        }
        Some(ParamType::Orientation) => {
            arg.value_name("DEGREES|isotropic")
                .value_parser(|text: &str| match text {
                    "isotropic" => Ok(Value::Text(text.into())),
                    _ => text.parse::<f64>().map(Value::Number).map_err(|_| {
                        format!("{text:?} is neither a number of degrees nor isotropic")
                    }),
                })
        }
        _ => arg.value_parser(|text: &str| {
            text.parse::<f64>()
                .map(Value::Number)
                .map_err(|_| format!("{text:?} is not a number"))
        }),
    }
}

impl Args for KindParams {
    fn augment_args(cmd: Command) -> Command {
        KIND_FIELDS.iter().fold(cmd, |cmd, row| cmd.arg(arg(row)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for KindParams {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = KIND_FIELDS.iter().filter_map(|row| {
            let value = matches.get_one::<Value>(row.name)?;
            Some((row.name.to_string(), value.clone()))
        });
        Ok(KindParams(given.collect()))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        let over = Self::from_arg_matches(matches)?;
        *self = std::mem::take(self).overlay(over);
        Ok(())
    }
}

/// As JSON: numbers, names, lists and objects as read (whole numbers stay whole).
pub fn to_json(value: &Value) -> serde_json::Value {
    match value {
        Value::Number(x) => serde_json::json!(x),
        Value::Whole(n) => match (u64::try_from(*n), i64::try_from(*n)) {
            (Ok(n), _) => serde_json::json!(n),
            (_, Ok(n)) => serde_json::json!(n),
            _ => serde_json::json!(*n as f64),
        },
        Value::Text(t) => serde_json::json!(t),
        Value::Bool(b) => serde_json::json!(b),
        Value::List(items) => serde_json::Value::Array(items.iter().map(to_json).collect()),
        Value::Object(fields) => serde_json::Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), to_json(v)))
                .collect(),
        ),
        Value::Null => serde_json::Value::Null,
    }
}

impl serde::Serialize for KindParams {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, &to_json(value))?;
        }
        map.end()
    }
}
