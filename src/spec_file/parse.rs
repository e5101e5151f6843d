//! Reading a spec file: at most [`MAX_SPEC_BYTES`], strict JSON (no duplicate keys, no
//! `null`, no unknown field), each error naming `spec` or the field at fault, with the JSON's
//! own words made safe to print; and writing one back.

use std::io::Read;
use std::path::Path;

use super::{FIELDS, GraphText, KindParams, MAX_SPEC_BYTES, SpecFile, to_json};
use crate::graph::Value;
use crate::graph::kind_fields::KindField;
use crate::{Error, Result};

fn spec_error(reason: String) -> Error {
    Error::InvalidSpec {
        field: "spec",
        reason,
    }
}

/// The first field that does not read on its own (serde's message names only a position).
fn at_fault(entries: &[(String, Value)]) -> Option<&str> {
    entries
        .iter()
        .filter(|(key, _)| key != "graph" && FIELDS.contains(&key.as_str()))
        .find(|(key, value)| {
            let alone = serde_json::json!({ key.as_str(): to_json(value) });
            serde_json::from_value::<SpecFile>(alone).is_err()
        })
        .map(|(key, _)| key.as_str())
}

impl SpecFile {
    /// Reads a spec file of at most [`MAX_SPEC_BYTES`].
    pub fn read(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path)
            .map_err(|e| spec_error(format!("{}: {e}", path.display())))?;
        let mut bytes = Vec::new();
        file.take(MAX_SPEC_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| spec_error(format!("{}: {e}", path.display())))?;
        if bytes.len() as u64 > MAX_SPEC_BYTES {
            return Err(spec_error(format!(
                "{} is larger than {} KiB; a spec is a small JSON object",
                path.display(),
                MAX_SPEC_BYTES / 1024
            )));
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| spec_error(format!("{} is not UTF-8 text", path.display())))?;
        Self::from_json(&text)
    }

    /// A spec file, or a bare graph (an object with `nodes`) read as the spec file
    /// `{"graph": ...}`: what the Python and C APIs take. Bad JSON is an error naming `spec`.
    pub fn from_spec_or_graph_json(text: &str) -> Result<Self> {
        if text.len() as u64 > MAX_SPEC_BYTES {
            return Err(spec_error(format!(
                "is {} bytes, more than {} KiB; a spec or graph is a small JSON object",
                text.len(),
                MAX_SPEC_BYTES / 1024
            )));
        }
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| spec_error(format!("is not JSON: {}", tamed(&e))))?;
        if value.get("nodes").is_some() {
            return Ok(SpecFile {
                graph: Some(GraphText(text.to_string())),
                ..SpecFile::default()
            });
        }
        Self::from_json(text)
    }

    /// Parses a spec; unknown fields, `null` values and bad JSON are errors naming `--spec`.
    pub fn from_json(text: &str) -> Result<Self> {
        // A byte-order mark is no part of the JSON; editors on some systems write one.
        if text.len() as u64 > MAX_SPEC_BYTES {
            return Err(spec_error(format!(
                "is larger than {} KiB; a spec is a small JSON object",
                MAX_SPEC_BYTES / 1024
            )));
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // The strict reader first: it refuses duplicate keys, at any depth.
        let value: Value = serde_json::from_str(text).map_err(|e| spec_error(tamed(&e)))?;
        let Value::Object(entries) = value else {
            return Err(spec_error("the spec must be a JSON object {...}".into()));
        };
        if let Some((field, _)) = entries.iter().find(|(_, v)| *v == Value::Null) {
            return Err(spec_error(format!(
                "field {} is null; give a value or leave the field out",
                ticked(field)
            )));
        }
        if let Some((field, _)) = entries
            .iter()
            .find(|(k, _)| !FIELDS.contains(&k.as_str()) && KindField::named(k).is_none())
        {
            let kinds: Vec<&str> = KindField::all().map(|f| f.name).collect();
            return Err(spec_error(format!(
                "unknown field {}; a spec takes {} and the kinds' own {}",
                ticked(field),
                FIELDS.join(", "),
                kinds.join(", ")
            )));
        }
        // From the text, not the value: a graph keeps its own text for its reader.
        let mut spec: SpecFile =
            serde_json::from_str(text).map_err(|e| match at_fault(&entries) {
                Some(field) => spec_error(format!("field {}: {}", ticked(field), tamed(&e))),
                None => spec_error(tamed(&e)),
            })?;
        let given = entries
            .into_iter()
            .filter(|(k, _)| KindField::named(k).is_some());
        spec.kind_params = KindParams::default().overlay(KindParams(given.collect()));
        Ok(spec)
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        // Serializing plain data with finite numbers into a String cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// A field name in backticks, or quoted and escaped when it is no plain name ([`crate::text`]).
fn ticked(field: &str) -> String {
    let shown = crate::text::label(field);
    if shown.starts_with('"') {
        shown
    } else {
        format!("`{shown}`")
    }
}

/// serde_json's message, which can echo what it read, made safe to print.
fn tamed(e: &serde_json::Error) -> String {
    crate::text::tamed(&e.to_string())
}

#[cfg(test)]
mod tests {
    //! A proptest corpus for the spec-file parser: JSON built from the real field names, wrong
    //! names, every JSON type in every field, and arbitrary bytes. Parsing never panics; it
    //! gives a spec or an error naming `spec` (or the field at fault), and what parses and
    //! validates prints back to the same spec.

    use super::*;
    use crate::spec::{Interp, LatticeKind};
    use crate::spec_file::{BackendChoice, Channels};
    use crate::{Fractal, Kind};
    use proptest::prelude::*;

    /// Names tried as keys: every field a spec file takes ([`FIELDS`]), every kind's own
    /// parameter ([`KindField::all`]), and a wrong one.
    fn names_tried() -> Vec<&'static str> {
        let mut names = FIELDS.to_vec();
        names.extend(KindField::all().map(|f| f.name));
        names.push("octave");
        names
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::{Value, json};
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|v| json!(v)),
            any::<u64>().prop_map(|v| json!(v)),
            any::<f64>().prop_map(|v| json!(v)),
            proptest::sample::select(vec![
                "perlin",
                "cellular",
                "gabor",
                "isotropic",
                "f2",
                "f2-f1",
                "manhattan",
                "value",
                "gradient",
                "fbm",
                "ridged",
                "catmull-rom",
                "quintic",
                "gpu",
                "cpu",
                "auto",
                "magma",
                "-1:#000000,1:#ffffff",
                "",
                "\u{0}",
                "x.png",
            ])
            .prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(3, 12, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z]{1,6}", inner, 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn spec_text() -> impl Strategy<Value = String> {
        let object = proptest::collection::btree_map(
            proptest::sample::select(names_tried()),
            json_value(),
            0..8,
        )
        .prop_map(|m| {
            let map: serde_json::Map<String, serde_json::Value> =
                m.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            serde_json::Value::Object(map).to_string()
        });
        prop_oneof![
            6 => object,
            1 => json_value().prop_map(|v| v.to_string()),
            1 => proptest::collection::vec(any::<u8>(), 0..64)
                .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn parsing_any_spec_text_gives_a_spec_or_an_error_never_a_panic(text in spec_text()) {
            let parsed = match SpecFile::from_json(&text) {
                Ok(p) => p,
                Err(Error::InvalidSpec { field: "spec", reason }) => {
                    prop_assert!(!reason.is_empty());
                    return Ok(());
                }
                Err(other) => return Err(TestCaseError::fail(format!("{other:?}"))),
            };
            let spec = match parsed.noise_spec() {
                Ok(s) => s,
                Err(Error::InvalidSpec { .. }) => return Ok(()),
                Err(other) => return Err(TestCaseError::fail(format!("{other:?}"))),
            };
            if spec.validate().is_err() {
                return Ok(());
            }
            // What validates prints back to the same spec.
            let printed = parsed.effective(&spec).to_json();
            let again = SpecFile::from_json(&printed)
                .and_then(|p| p.noise_spec())
                .map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
            prop_assert_eq!(again, spec);
        }
    }

    /// Found by the property test above: a large integer offset printed as a float must read
    /// back to the same f64 (serde_json's default float parser could land one ulp off).
    #[test]
    fn a_printed_offset_reads_back_to_the_same_f64() {
        let parsed = SpecFile::from_json(r#"{"offset":[16264210198867833857]}"#).unwrap();
        let spec = parsed.noise_spec().unwrap();
        let printed = parsed.effective(&spec).to_json();
        let again = SpecFile::from_json(&printed).unwrap().noise_spec().unwrap();
        assert_eq!(again.offset, spec.offset, "{printed}");
    }

    /// Every field the struct writes is in [`FIELDS`] (or is a kind's own), so `from_json`
    /// reads back everything `to_json` writes. The literal names every field: a new one does
    /// not compile here until it is given.
    #[test]
    fn fields_list_every_key_the_struct_writes() {
        let full = SpecFile {
            kind: Some(Kind::Gabor),
            dims: Some(2),
            seed: Some(1),
            frequency: Some(0.5),
            offset: Some(vec![1.0, 2.0]),
            size: Some(vec![8, 8]),
            interp: Some(Interp::Cubic),
            fractal: Some(Fractal::Fbm),
            octaves: Some(2),
            lacunarity: Some(2.0),
            persistence: Some(0.5),
            tile: Some(false),
            lattice: Some(LatticeKind::Hash),
            kind_params: KindParams(vec![("density".into(), Value::Number(2.0))]),
            channels: Some(Channels::Normal),
            normal_strength: Some(4.0),
            bits: Some(16),
            range: Some([-1.0, 1.0]),
            colormap: Some("gray".into()),
            backend: Some(BackendChoice::Cpu),
            output: Some("a.png".into()),
            tiles: Some(64),
            tile_range: Some("0..1,0..2".into()),
            tile_format: Some("f32".into()),
            graph: Some(GraphText("{}".into())),
            layout: Some([("p".to_string(), [10.0, -20.5])].into()),
        };
        let written: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&full.to_json()).unwrap();
        let mut keys: Vec<&str> = written.keys().map(String::as_str).collect();
        keys.retain(|k| *k != "density");
        let mut expected = FIELDS.to_vec();
        keys.sort_unstable();
        expected.sort_unstable();
        assert_eq!(keys, expected);
        assert_eq!(SpecFile::from_json(&full.to_json()).unwrap(), full);
    }

    /// Spec files refuse what serde alone would accept: a repeated key (the strict reader), a
    /// name that is neither a field nor a kind's own; and a byte-order mark is skipped.
    #[test]
    fn repeated_and_unknown_keys_are_refused_and_a_bom_is_skipped() {
        let err = SpecFile::from_json(r#"{"seed": 1, "seed": 2}"#).unwrap_err();
        assert!(err.to_string().contains("\"seed\" appears twice"), "{err}");
        let err = SpecFile::from_json(r#"{"jiter": 1}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `jiter`"), "{err}");
        let spec =
            SpecFile::from_json("\u{feff}{\"kind\": \"cellular\", \"jitter\": 0.25}").unwrap();
        let noise = spec.noise_spec().unwrap();
        assert_eq!(
            (noise.kind, noise.kind_fields.cellular.jitter),
            (Kind::Cellular, 0.25)
        );
    }

    #[test]
    fn null_and_oversized_specs_are_refused_with_the_reason() {
        let err = SpecFile::from_json(r#"{"seed": null}"#).unwrap_err();
        assert!(err.to_string().contains("`seed` is null"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.json");
        std::fs::write(&big, vec![b' '; MAX_SPEC_BYTES as usize + 1]).unwrap();
        let err = SpecFile::read(&big).unwrap_err();
        assert!(err.to_string().contains("larger than"), "{err}");
    }

    /// A graph's spec keeps its editor layout through a read and a write and renders as without
    /// it; a layout that is not names to `[x, y]` is refused naming the field, and a flat spec
    /// refuses one.
    #[test]
    fn a_graphs_layout_reads_back_and_a_bad_or_flat_one_is_refused() {
        let graph = r#"{"dims": 2, "output": "p", "nodes": {"p": {"type": "perlin"}}}"#;
        let text = format!(r#"{{"graph": {graph}, "layout": {{"p": [12.5, -3]}}}}"#);
        let spec = SpecFile::from_json(&text).unwrap();
        assert_eq!(spec.layout, Some([("p".to_string(), [12.5, -3.0])].into()));
        let again = SpecFile::from_json(&spec.to_json()).unwrap();
        assert_eq!(again.layout, spec.layout);
        for bad in [r#"{"p": [1]}"#, r#"{"p": "x"}"#, r#"[1, 2]"#] {
            let text = format!(r#"{{"graph": {graph}, "layout": {bad}}}"#);
            let e = SpecFile::from_json(&text).unwrap_err().to_string();
            assert!(e.contains("layout"), "{bad}: {e}");
        }
        let flat = SpecFile::from_json(r#"{"kind": "perlin", "layout": {"p": [0, 0]}}"#).unwrap();
        let e = flat.noise_spec().unwrap_err().to_string();
        assert!(e.contains("layout") && e.contains("no graph"), "{e}");
    }
}
