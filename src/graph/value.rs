//! The untyped form of a graph's nodes, as JSON gives it and as the builder assembles it:
//! objects keep their keys in order and refuse duplicates, and whole numbers stay exact (seeds
//! up to 2^64 - 1).

/// A JSON-like value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number written without a fraction or exponent.
    Whole(i128),
    /// Any other number.
    Number(f64),
    /// A string.
    Text(String),
    /// A list.
    List(Vec<Value>),
    /// An object: keys in the order given.
    Object(Vec<(String, Value)>),
    /// `null`.
    Null,
}

impl Value {
    /// The number, for `Whole` and `Number`.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Whole(n) => Some(n as f64),
            Value::Number(x) => Some(x),
            _ => None,
        }
    }

    /// A whole number, written as one (`4`) or as an integral float (`4.0`, as Python's json
    /// writes floats) exactly representable (below 2^53).
    pub fn as_whole(&self) -> Option<i128> {
        match *self {
            Value::Whole(n) => Some(n),
            Value::Number(x) if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 => {
                Some(x as i128)
            }
            _ => None,
        }
    }

    /// What kind of value this is, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Value::Bool(_) => "a boolean",
            Value::Whole(_) | Value::Number(_) => "a number",
            Value::Text(_) => "a string",
            Value::List(_) => "a list",
            Value::Object(_) => "an object",
            Value::Null => "null",
        }
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Value::Number(x)
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Self {
        Value::Whole(n.into())
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Whole(n.into())
    }
}

impl From<i32> for Value {
    fn from(n: i32) -> Self {
        Value::Whole(n.into())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Text(s.into())
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Self {
        Value::List(items.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value> + Copy, const N: usize> From<[T; N]> for Value {
    fn from(items: [T; N]) -> Self {
        Value::List(items.iter().map(|&v| v.into()).collect())
    }
}

#[cfg(feature = "serde")]
mod de {
    use std::collections::HashSet;
    use std::fmt;

    use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};

    use super::Value;

    struct ValueVisitor;

    impl<'de> Visitor<'de> for ValueVisitor {
        type Value = Value;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
            Ok(Value::Bool(b))
        }

        fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
            Ok(Value::Whole(n.into()))
        }

        fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
            Ok(Value::Whole(n.into()))
        }

        fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
            Ok(Value::Number(x))
        }

        fn visit_str<E>(self, s: &str) -> Result<Value, E> {
            Ok(Value::Text(s.into()))
        }

        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }

        fn visit_none<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(Value::List(items))
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut entries: Vec<(String, Value)> = Vec::new();
            // A set beside the list: a 1 MiB object of 120k keys checked pairwise took 96 s.
            let mut seen = HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key.clone()) {
                    let shown = crate::text::quoted(&key);
                    return Err(A::Error::custom(format!("the key {shown} appears twice")));
                }
                let value = map.next_value()?;
                entries.push((key, value));
            }
            Ok(Value::Object(entries))
        }
    }

    impl<'de> Deserialize<'de> for Value {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
            d.deserialize_any(ValueVisitor)
        }
    }
}
