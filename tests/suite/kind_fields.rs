//! The kinds' own parameters come from one table (CONVENTIONS §13): a flat spec, its CLI flags,
//! its spec file and `--print-spec` take exactly the parameters the node table gives each kind,
//! with the table's ranges, and refuse another kind's naming the field.

use gpu_noise::low_level::graph::meta;
use gpu_noise::low_level::graph::{self as kind_fields, KindField};
use gpu_noise::{Error, Kind, NoiseSpec};

use crate::cli::{run, text};

/// Parameters every kind node has, which the flat spec holds for all kinds.
const SHARED: [&str; 3] = ["frequency", "seed", "interp"];

#[test]
fn the_books_cli_chapter_holds_the_kind_flag_rows() {
    let readme = include_str!("../../docs/cli.md");
    let rows = kind_fields::markdown_rows();
    assert!(
        readme.contains(&rows),
        "docs/cli.md's flag table must hold gpu_noise::low_level::graph::markdown_rows() \
         verbatim:\n{rows}"
    );
}

/// `--print-spec` writes, for each kind, exactly the parameters its node type lists beyond
/// the shared ones, and the spec reads back to the same text.
#[test]
fn print_spec_writes_each_kinds_own_parameters_and_replays() {
    let d = crate::cli::tmp();
    for kind in Kind::ALL {
        let o = run(&["render", "--kind", kind.name(), "--print-spec"]);
        assert!(o.status.success(), "{kind}: {}", text(&o.stderr));
        let printed: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(&o.stdout).unwrap();
        let node = meta::node_type(kind.name()).unwrap();
        for p in node.params.iter().filter(|p| !SHARED.contains(&p.name)) {
            assert!(printed.contains_key(p.name), "{kind}: {} missing", p.name);
        }
        for row in KindField::all() {
            let owned = node.param(row.name).is_some();
            assert_eq!(
                printed.contains_key(row.name),
                owned,
                "{kind}: {}",
                row.name
            );
        }
        let path = d.path().join(format!("{kind}.json"));
        std::fs::write(&path, &o.stdout).unwrap();
        let again = run(&["render", "--spec", path.to_str().unwrap(), "--print-spec"]);
        assert_eq!(text(&again.stdout), text(&o.stdout), "{kind}");
    }
}

/// Each parameter's flag is in `--help` with its owners; Gabor's bandwidth shows the bound
/// `sqrt(ln 20 / pi) / 2` (computed here) below which the truncated kernel passes 2 cells.
#[test]
fn help_lists_every_kind_flag_with_its_owners_and_range() {
    let o = run(&["render", "--help"]);
    let help = text(&o.stdout);
    for row in KindField::all() {
        let flag = format!("--{}", row.name.replace('_', "-"));
        let at = help.find(&format!("{flag} <")).expect(&flag);
        let line = &help[at..help[at..].find("\n\n").map_or(help.len(), |n| at + n)];
        for kind in row.kinds() {
            assert!(
                line.contains(kind.name()),
                "{flag} does not name {kind}: {line}"
            );
        }
    }
    let low = (20f64.ln() / std::f64::consts::PI).sqrt() / 2.0;
    assert!(help.contains(&format!("{low:.4}..=100")), "{help}");
}

/// The library refuses a foreign parameter left off its default, and an own one out of the
/// table's range, naming the library's field (`cell_return`, not the JSON `return`).
#[test]
fn validation_names_the_spec_field_for_foreign_and_out_of_range_values() {
    let mut perlin = NoiseSpec::new(Kind::Perlin, 2);
    perlin.kind_fields.cellular.cell_return = gpu_noise::spec::CellReturn::F2;
    match perlin.validate() {
        Err(Error::InvalidSpec { field, reason }) => {
            assert_eq!(field, "cell_return");
            assert!(reason.contains("cellular"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let mut gabor = NoiseSpec::new(Kind::Gabor, 2);
    gabor.kind_fields.impulse.gabor_bandwidth = 0.48;
    match gabor.validate() {
        Err(Error::InvalidSpec { field, .. }) => assert_eq!(field, "gabor_bandwidth"),
        other => panic!("{other:?}"),
    }
    let mut sparse = NoiseSpec::new(Kind::SparseConvolution, 3);
    sparse.kind_fields.impulse.density = 16.0;
    assert!(sparse.validate().is_ok());
    sparse.kind_fields.impulse.density = 16.5;
    assert!(sparse.validate().is_err());
}

/// A spec file naming another kind's parameter exits 2 naming it, as the flag does.
#[test]
fn a_foreign_parameter_in_a_spec_file_or_flag_exits_2_naming_it() {
    let d = crate::cli::tmp();
    let path = d.path().join("s.json");
    std::fs::write(
        &path,
        r#"{"kind": "perlin", "gabor_orientation": "isotropic"}"#,
    )
    .unwrap();
    let o = run(&["render", "--spec", path.to_str().unwrap(), "--print-spec"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--gabor-orientation"),
        "{}",
        text(&o.stderr)
    );
    let o = run(&[
        "render",
        "--kind",
        "value",
        "--density",
        "2",
        "--print-spec",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("--density") && err.contains("sparse-convolution, gabor"),
        "{err}"
    );
}

/// A spec's own fields start at the table's defaults: for every kind, each parameter it owns
/// reads (through its row, as `--print-spec` writes it) the default its node type states.
#[test]
fn every_kinds_own_fields_start_at_the_tables_defaults() {
    use gpu_noise::graph::Value;
    use gpu_noise::low_level::graph::meta::ParamType;
    for &kind in Kind::ALL {
        let spec = NoiseSpec::new(kind, kind.min_dims());
        for row in kind_fields::fields_of(kind) {
            let param = row.param_of(kind).expect("an owned row has a parameter");
            let expected = match param.ty {
                ParamType::Number { default, .. } => Value::Number(default),
                ParamType::Orientation { default } => Value::Number(default),
                ParamType::Choice { default, .. } => Value::Text(default.into()),
                other => panic!("{kind}: {} has an unexpected type {other:?}", row.name),
            };
            assert_eq!(row.value(&spec), expected, "{kind}: {}", row.name);
        }
    }
}
