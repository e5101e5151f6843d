//! Shader validation and host/shader agreement, mechanically through naga: every WGSL module
//! validates, and every struct, code, constant, override and entry point the host relies on
//! matches the WGSL.

use gpu_noise::low_level::gpu::HostLayout;
use gpu_noise::low_level::gpu::RenderParams;
use gpu_noise::low_level::gpu::{ENTRIES, OVERRIDE_NAMES};
use gpu_noise::low_level::gpu::{FrameState, KindState, NoiseState, OctaveState};
use gpu_noise::low_level::limits::MAX_OCTAVES;
use gpu_noise::low_level::tables::{PERM_LEN, TABLE_SIZE};
use gpu_noise::low_level::wgsl::{REDUCE_GROUPS, WORKGROUP_SIZE, parse_module, validate_kernels};
use gpu_noise::wgsl::{noise_module, prefixed};
use gpu_noise::{Fractal, Kind, spec::CellReturn, spec::Distance, spec::Interp};

fn module() -> naga::Module {
    validate_kernels().unwrap_or_else(|errors| panic!("WGSL does not validate:\n{errors}"))
}

#[test]
fn the_kernels_and_the_includable_library_validate_with_naga() {
    let m = module();
    let names: Vec<&str> = m.entry_points.iter().map(|e| e.name.as_str()).collect();
    for entry in ENTRIES {
        assert!(
            names.contains(&entry.name()),
            "{} missing from {names:?}",
            entry.name()
        );
    }
    assert_eq!(names.len(), ENTRIES.len(), "{names:?}");
    // The library alone, at any group, is a valid module a caller can add entry points to.
    for group in [0, 3] {
        let lib = parse_module(&noise_module(group)).unwrap_or_else(|e| panic!("{e}"));
        assert!(lib.entry_points.is_empty());
        let bound: Vec<u32> = lib
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.binding.as_ref().map(|b| b.group))
            .collect();
        assert_eq!(bound, vec![group; 4], "the library binds only at its group");
    }
}

/// The kernels with their tables in uniform buffers (a renderer's on a CPU adapter) validate
/// too, a flat spec's and a graph's, and declare the three tables at group 1 as uniform arrays
/// of exactly the slots asked for; in storage they stay runtime-sized storage arrays.
#[test]
fn the_kernels_validate_with_their_tables_in_uniform_buffers() {
    use gpu_noise::gpu::TableSpace;
    use gpu_noise::low_level::wgsl::{job_kernels_with, kernel_source_with};
    let mut g = gpu_noise::graph::GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 0.02);
    g.node("f", "fbm").input("source", "p").set("octaves", 3u32);
    g.output("f");
    let job = (g.build().unwrap())
        .prepare(gpu_noise::Size::new(8, 8, 1), [0.0; 4])
        .unwrap();
    for (space, slots) in [
        (TableSpace::Uniform, 16),
        (TableSpace::Uniform, 3),
        (TableSpace::Storage, 0),
    ] {
        let sources = [
            ("flat", kernel_source_with((space, slots))),
            ("graph", job_kernels_with(&job, (space, slots))),
        ];
        for (what, source) in sources {
            let m = parse_module(&source).unwrap_or_else(|e| panic!("{what} {space:?}: {e}"));
            let tables: Vec<(naga::AddressSpace, Option<u32>)> = (m.global_variables.iter())
                .filter(|(_, g)| {
                    g.binding
                        .as_ref()
                        .is_some_and(|b| b.group == 1 && (1..=3).contains(&b.binding))
                })
                .map(|(_, g)| {
                    let size = match &m.types[g.ty].inner {
                        naga::TypeInner::Array {
                            size: naga::ArraySize::Constant(n),
                            ..
                        } => Some(n.get()),
                        _ => None,
                    };
                    (g.space, size)
                })
                .collect();
            let expected = match space {
                TableSpace::Uniform => vec![
                    (
                        naga::AddressSpace::Uniform,
                        Some(slots * PERM_LEN as u32 / 4),
                    ),
                    (naga::AddressSpace::Uniform, Some(slots * TABLE_SIZE as u32)),
                    (
                        naga::AddressSpace::Uniform,
                        Some(slots * TABLE_SIZE as u32 / 4),
                    ),
                ],
                TableSpace::Storage => {
                    vec![
                        (
                            naga::AddressSpace::Storage {
                                access: naga::StorageAccess::LOAD
                            },
                            None
                        );
                        3
                    ]
                }
            };
            assert_eq!(tables, expected, "{what} {space:?} {slots}");
        }
    }
}

#[test]
fn workgroup_size_matches_host_constant() {
    let m = module();
    for entry in ENTRIES {
        let ep = m
            .entry_points
            .iter()
            .find(|ep| ep.name == entry.name())
            .unwrap_or_else(|| panic!("no entry point {}", entry.name()));
        assert_eq!(ep.workgroup_size, entry.workgroup_size(), "{}", ep.name);
    }
    assert_eq!(m.entry_points.len(), ENTRIES.len());
}

fn wgsl_u32_const(m: &naga::Module, name: &str) -> u32 {
    let (_, c) = m
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("WGSL constant {name} not found"));
    match m.global_expressions[c.init] {
        naga::Expression::Literal(naga::Literal::U32(v)) => v,
        ref other => panic!("{name} is not a u32 literal: {other:?}"),
    }
}

#[test]
fn wgsl_codes_match_rust_enums_and_table_sizes() {
    let m = module();
    let mut pairs: Vec<(String, u32)> = Vec::new();
    for k in Kind::ALL {
        pairs.push((
            format!("KIND_{}", k.name().to_uppercase().replace('-', "_")),
            *k as u32,
        ));
    }
    for i in Interp::ALL {
        pairs.push((
            format!("INTERP_{}", i.name().to_uppercase().replace('-', "_")),
            *i as u32,
        ));
    }
    for f in Fractal::ALL {
        pairs.push((format!("FRACTAL_{}", f.name().to_uppercase()), *f as u32));
    }
    for d in Distance::ALL {
        pairs.push((
            format!("DISTANCE_{}", d.name().to_uppercase().replace('-', "_")),
            *d as u32,
        ));
    }
    for (name, r) in [
        ("RETURN_F1", CellReturn::F1),
        ("RETURN_F2", CellReturn::F2),
        ("RETURN_F2_MINUS_F1", CellReturn::F2MinusF1),
        ("RETURN_F1_TIMES_F2", CellReturn::F1TimesF2),
        ("RETURN_CELL_VALUE", CellReturn::CellValue),
    ] {
        pairs.push((name.into(), r as u32));
    }
    pairs.push((
        "MAX_IMPULSES".into(),
        gpu_noise::low_level::limits::MAX_IMPULSES as u32,
    ));
    pairs.extend([
        ("MAX_OCTAVES".into(), MAX_OCTAVES),
        ("PERM_LEN".into(), PERM_LEN as u32),
        ("TABLE_SIZE".into(), TABLE_SIZE as u32),
    ]);
    // The library's names carry its prefix; the kernels' own constants do not.
    let mut pairs: Vec<(String, u32)> = pairs.into_iter().map(|(n, v)| (prefixed(&n), v)).collect();
    pairs.extend([
        ("WORKGROUP_SIZE".into(), WORKGROUP_SIZE),
        ("TILE_SIZE".into(), gpu_noise::low_level::wgsl::TILE_SIZE),
        ("REDUCE_GROUPS".into(), REDUCE_GROUPS),
        (
            "COLORMAP_LEN".into(),
            gpu_noise::low_level::colormap::COLORMAP_LEN as u32,
        ),
    ]);
    for (name, rust) in pairs {
        assert_eq!(wgsl_u32_const(&m, &name), rust, "{name}");
    }
}

/// Asserts that the WGSL struct `T` mirrors has `T`'s fields (padding aside), offsets and size,
/// by naga's layouter.
/// Library structs carry the library's prefix; the kernels' own (`RenderParams`) do not.
fn assert_host_struct<T: HostLayout>(m: &naga::Module) {
    assert_layout(
        m,
        T::WGSL_NAME,
        T::field_offsets(),
        std::mem::size_of::<T>(),
    );
}

/// The same for a struct given by its WGSL name, field offsets and size.
fn assert_layout(m: &naga::Module, wgsl_name: &str, fields: Vec<(&str, usize)>, size: usize) {
    let named = |name: &str| {
        m.types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(name))
    };
    let name = prefixed(wgsl_name);
    let (handle, ty) = named(&name)
        .or_else(|| named(wgsl_name))
        .unwrap_or_else(|| panic!("struct {name} in WGSL"));
    let naga::TypeInner::Struct { members, .. } = &ty.inner else {
        panic!("{name} is not a struct");
    };
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(m.to_ctx()).expect("layout");
    let wgsl: Vec<(String, usize)> = members
        .iter()
        .map(|mb| (mb.name.clone().unwrap_or_default(), mb.offset as usize))
        .filter(|(n, _)| !n.starts_with('_'))
        .collect();
    let rust: Vec<(String, usize)> = fields
        .into_iter()
        .filter(|(n, _)| !n.starts_with('_'))
        .map(|(n, o)| (n.to_string(), o))
        .collect();
    assert_eq!(wgsl, rust, "{name}: field names and offsets, in order");
    assert_eq!(layouter[handle].size as usize, size, "{name}: struct size");
}

#[test]
fn graph_host_structs_match_the_graph_kernel() {
    use gpu_noise::low_level::gpu::GraphInstance;
    // Any graph's kernel holds the fixed structs; a one-node graph is enough.
    let mut g = gpu_noise::graph::GraphBuilder::new(2);
    g.node("p", "perlin");
    g.output("p");
    let prepared = g
        .build()
        .unwrap()
        .prepare(gpu_noise::Size::new(4, 4, 1), [0.0; 4])
        .unwrap();
    let m = parse_module(&prepared.wgsl()).unwrap_or_else(|e| panic!("{e}"));
    assert_host_struct::<GraphInstance>(&m);
    assert_kind_state(&m);
}

/// `KindState` and each family's state in it (`kinds/<family>/params.rs`).
fn assert_kind_state(m: &naga::Module) {
    assert_host_struct::<KindState>(m);
    let families = KindState::family_layouts();
    assert!(families.len() >= 2, "cellular and impulse at least");
    for (name, fields, size) in families {
        assert_layout(m, name, fields, size);
    }
}

#[test]
fn host_structs_match_the_wgsl_structs() {
    let m = module();
    assert_host_struct::<RenderParams>(&m);
    assert_host_struct::<NoiseState>(&m);
    assert_kind_state(&m);
    assert_host_struct::<OctaveState>(&m);
    assert_host_struct::<FrameState>(&m);
}

#[test]
fn pipeline_constants_match_the_wgsl_overrides() {
    let m = module();
    let names: Vec<String> = m
        .overrides
        .iter()
        .map(|(_, o)| o.name.clone().unwrap_or_default())
        .collect();
    assert_eq!(names, OVERRIDE_NAMES.map(String::from).to_vec());
    let prep = gpu_noise::NoiseSpec::new(Kind::Value, 3)
        .validate()
        .unwrap();
    let constants = prep.pipeline_constants();
    let names: Vec<&str> = constants.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, OVERRIDE_NAMES);
    assert_eq!(constants[0].1, Kind::Value as u32 as f64);
    assert_eq!(constants[1].1, 3.0);
}

/// WGSL refuses `a >> b & c`: a shift may not share a parenthesis level with a bitwise or
/// another shift operator, nor a bitwise operator with a different one (WGSL §8.19). naga
/// accepts it; Chrome's Tint does not, so a caller on the web would get a broken module. This
/// checks the rule on every composed source, comments and strings aside.
fn assert_no_unparenthesized_operator_mix(name: &str, source: &str) {
    for (n, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        // Operators seen at each parenthesis depth of this line.
        let mut seen: Vec<Vec<&str>> = vec![Vec::new()];
        // Open template lists (`vec4<u32>`, `ptr<function, T>`): `<` right after a name.
        let mut templates = 0;
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let two = code.get(i..i + 2).unwrap_or("");
            let after_name =
                i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            let op = match (bytes[i], two) {
                (b'<', _) if after_name => {
                    templates += 1;
                    None
                }
                (b'>', _) if templates > 0 => {
                    templates -= 1;
                    None
                }
                (b'(' | b'[', _) => {
                    seen.push(Vec::new());
                    None
                }
                (b')' | b']', _) => {
                    seen.pop();
                    if seen.is_empty() {
                        seen.push(Vec::new());
                    }
                    None
                }
                (_, "<<" | ">>") => Some(two),
                (_, "&&" | "||" | "&=" | "|=" | "^=" | "<=" | ">=") => {
                    i += 1;
                    None
                }
                (b'&', _) => Some("&"),
                (b'|', _) => Some("|"),
                (b'^', _) => Some("^"),
                _ => None,
            };
            if let Some(op) = op {
                let level = seen.last_mut().expect("a level");
                let shift = |o: &str| o == "<<" || o == ">>";
                let clash = level.iter().any(|o| shift(o) || shift(op) || *o != op);
                // `&` right after `(`, `,` or `=` takes an address (`&heights`), not a bitwise and.
                let before = code[..i].trim_end();
                let address = op == "&" && (before.ends_with(['(', ',', '=']) || before.is_empty());
                assert!(
                    !clash || address,
                    "{name} line {}: `{op}` shares a parenthesis level with {level:?}: {line}",
                    n + 1
                );
                if !address {
                    level.push(op);
                }
                i += op.len();
                continue;
            }
            i += 1;
        }
    }
}

#[test]
fn composed_sources_keep_wgsl_operator_precedence_rules() {
    use gpu_noise::low_level::wgsl::kernel_source;
    assert_no_unparenthesized_operator_mix("kernels", &kernel_source());
    assert_no_unparenthesized_operator_mix("noise_module", &noise_module(0));
    for example in ["terrain", "marble", "caves"] {
        let path = format!(
            "{}/examples/graphs/{example}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let graph = gpu_noise::Graph::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
        let prepared = graph
            .prepare(gpu_noise::Size::new(8, 8, 1), [0.0; 4])
            .unwrap();
        assert_no_unparenthesized_operator_mix(example, &prepared.wgsl());
        assert_no_unparenthesized_operator_mix(example, &prepared.wgsl_module(2));
    }
    // The check can fail: the expression Tint refused in common.wgsl.
    let refused = "let b = (n >> vec4<u32>(0u) & vec4<u32>(1u));";
    let caught = std::panic::catch_unwind(|| assert_no_unparenthesized_operator_mix("x", refused));
    assert!(caught.is_err());
}

/// WGSL lets the built-in cos and sin be 2^-11 off on [-pi, pi] and exp a few ulp per unit of
/// |x|; SwiftShader (Chromium's software WebGPU) uses that freedom, and its sparse-convolution
/// and Gabor values were 1e-4 from the twin, five times the stated bound. The kernels compute
/// them with `cos_2pi` and `exp_nonpositive` (plain f32 arithmetic, the SIMD port's), so the
/// bound holds on any conforming adapter. This keeps the built-ins out of the noise module.
#[test]
fn the_noise_kernels_call_no_builtin_cos_sin_or_exp() {
    use naga::{Expression, MathFunction};
    let m = module();
    let bodies = m
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(m.entry_points.iter().map(|e| &e.function));
    let mut found = Vec::new();
    for f in bodies {
        for (_, e) in f.expressions.iter() {
            if let Expression::Math { fun, .. } = e
                && matches!(
                    fun,
                    MathFunction::Cos | MathFunction::Sin | MathFunction::Exp | MathFunction::Exp2
                )
            {
                found.push(format!("{:?} in {:?}", fun, f.name));
            }
        }
    }
    assert!(found.is_empty(), "built-in transcendental calls: {found:?}");
}
