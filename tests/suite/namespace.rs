//! The WGSL module's namespace (issue 13, point 13): every module-scope name of the library and
//! of a graph module carries the prefix, so a host shader can declare any name the library's
//! files use. naga's view of the composed modules is the oracle, not the prefixing code.

use gpu_noise::graph::GraphBuilder;
use gpu_noise::low_level::wgsl::parse_module;
use gpu_noise::wgsl::{PREFIX, noise_module};

/// Every named module-scope item naga sees: functions, types, constants, overrides, globals.
fn module_names(m: &naga::Module) -> Vec<String> {
    let functions = m.functions.iter().filter_map(|(_, f)| f.name.clone());
    let types = m.types.iter().filter_map(|(_, t)| t.name.clone());
    let constants = m.constants.iter().filter_map(|(_, c)| c.name.clone());
    let overrides = m.overrides.iter().filter_map(|(_, o)| o.name.clone());
    let globals = m
        .global_variables
        .iter()
        .filter_map(|(_, g)| g.name.clone());
    functions
        .chain(types)
        .chain(constants)
        .chain(overrides)
        .chain(globals)
        .collect()
}

fn graph_module() -> String {
    let mut g = GraphBuilder::new(2);
    g.node("hills", "perlin");
    g.node("cells", "cellular");
    g.node("out", "add").inputs("inputs", &["hills", "cells"]);
    g.output("out");
    let size = gpu_noise::Size::new(8, 8, 1);
    g.build()
        .unwrap()
        .prepare(size, [0.0; 4])
        .unwrap()
        .wgsl_module(2)
}

/// Asserts that every name of `module` is prefixed, and that a host shader declaring each of
/// them without the prefix (as a constant) validates beside it.
fn assert_namespaced(module: &str) {
    let m = parse_module(module).unwrap_or_else(|e| panic!("{e}"));
    let names = module_names(&m);
    assert!(names.len() > 100, "only {} names", names.len());
    let upper = PREFIX.to_ascii_uppercase();
    let mut host = String::new();
    for name in &names {
        let bare = name
            .strip_prefix(PREFIX)
            .or_else(|| name.strip_prefix(&upper))
            .unwrap_or_else(|| panic!("{name} is not prefixed"));
        host += &format!("const {bare}: u32 = 7u;\n");
    }
    host += "fn host_sum() -> u32 { return lerp + value + TABLE_SIZE + Lattice; }\n";
    parse_module(&format!("{module}{host}")).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn the_noise_module_leaves_every_bare_name_to_its_host() {
    for group in [0, 3] {
        assert_namespaced(&noise_module(group));
    }
}

#[test]
fn a_graph_module_leaves_every_bare_name_to_its_host() {
    let module = graph_module();
    assert!(module.contains("fn gn_graph_value("));
    assert_namespaced(&module);
}

#[test]
fn the_documented_entry_points_exist_with_their_signatures() {
    let m = parse_module(&noise_module(0)).unwrap();
    for (name, args) in [
        ("gn_fractal_noise", 1),
        ("gn_fractal_noise_texel", 1),
        ("gn_fractal_noise_texel_d", 1),
    ] {
        let f = m
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(f.1.arguments.len(), args, "{name}");
    }
}
