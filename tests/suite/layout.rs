//! Shader validation and host/shader agreement, mechanically through naga.

use gpu_noise::gpu::pipelines::OVERRIDE_NAMES;
use gpu_noise::gpu::shader::{ENTRY_RENDER, ENTRY_SAMPLE, WORKGROUP_SIZE, validate_shader};
use gpu_noise::params::{Params, field_offsets};
use gpu_noise::spec::MAX_OCTAVES;
use gpu_noise::tables::{PERM_LEN, TABLE_SIZE};
use gpu_noise::{Fractal, Interp, Kind};

fn module() -> naga::Module {
    validate_shader().unwrap_or_else(|errors| panic!("WGSL does not validate:\n{errors}"))
}

#[test]
fn every_shader_validates_with_naga() {
    let m = module();
    let names: Vec<&str> = m.entry_points.iter().map(|e| e.name.as_str()).collect();
    assert!(
        names.contains(&ENTRY_RENDER) && names.contains(&ENTRY_SAMPLE),
        "{names:?}"
    );
}

#[test]
fn workgroup_size_matches_host_constant() {
    for ep in &module().entry_points {
        assert_eq!(ep.workgroup_size, [WORKGROUP_SIZE, 1, 1], "{}", ep.name);
    }
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
    let pairs: Vec<(&str, u32)> = vec![
        ("KIND_PERLIN", Kind::Perlin as u32),
        ("KIND_GRADIENT", Kind::Gradient as u32),
        ("KIND_VALUE", Kind::Value as u32),
        ("INTERP_NEAREST", Interp::Nearest as u32),
        ("INTERP_LINEAR", Interp::Linear as u32),
        ("INTERP_COSINE", Interp::Cosine as u32),
        ("INTERP_CUBIC", Interp::Cubic as u32),
        ("INTERP_QUINTIC", Interp::Quintic as u32),
        ("INTERP_CATMULL_ROM", Interp::CatmullRom as u32),
        ("FRACTAL_NONE", Fractal::None as u32),
        ("FRACTAL_FBM", Fractal::Fbm as u32),
        ("FRACTAL_TURBULENCE", Fractal::Turbulence as u32),
        ("FRACTAL_RIDGED", Fractal::Ridged as u32),
        ("FRACTAL_BILLOW", Fractal::Billow as u32),
        ("WORKGROUP_SIZE", WORKGROUP_SIZE),
        ("MAX_OCTAVES", MAX_OCTAVES),
        ("PERM_LEN", PERM_LEN as u32),
        ("TABLE_SIZE", TABLE_SIZE as u32),
    ];
    for (name, rust) in pairs {
        assert_eq!(wgsl_u32_const(&m, name), rust, "{name}");
    }
}

#[test]
fn params_layout_matches_wgsl_struct() {
    let m = module();
    let (handle, ty) = m
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some("Params"))
        .expect("struct Params in WGSL");
    let naga::TypeInner::Struct { members, .. } = &ty.inner else {
        panic!("Params is not a struct");
    };
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(m.to_ctx()).expect("layout");
    let wgsl: Vec<(String, usize)> = members
        .iter()
        .map(|mb| (mb.name.clone().unwrap_or_default(), mb.offset as usize))
        .collect();
    let rust: Vec<(String, usize)> = field_offsets()
        .into_iter()
        .map(|(n, o)| (n.to_string(), o))
        .collect();
    assert_eq!(wgsl, rust, "field names and offsets, in order");
    assert_eq!(
        layouter[handle].size as usize,
        std::mem::size_of::<Params>(),
        "struct size"
    );
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
}
