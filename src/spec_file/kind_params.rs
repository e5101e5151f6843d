//! The kinds' own parameters as a spec file gives them (`"jitter"`, `"gabor_bandwidth"`...),
//! under the node table's names (`KindField::all`).

use crate::graph::Value;
use crate::graph::kind_fields::KindField;

/// Kind-owned parameters as given (flags or a spec file): (table name, value), in the table's
/// order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KindParams(pub Vec<(String, Value)>);

impl KindParams {
    /// Whether no parameter is given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// These parameters with every one that `over` gives replaced by `over`'s.
    pub fn overlay(self, over: KindParams) -> KindParams {
        let pick = |row: &KindField| {
            let find = |p: &KindParams| p.0.iter().find(|(n, _)| n == row.name).cloned();
            find(&over).or_else(|| find(&self))
        };
        KindParams(KindField::all().filter_map(pick).collect())
    }

    /// The first parameter given, if any.
    pub fn first_name(&self) -> Option<&'static str> {
        let (name, _) = self.0.first()?;
        KindField::named(name).map(|row| row.name)
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
