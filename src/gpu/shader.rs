//! The WGSL module: `shaders/*.wgsl` composed in dependency order into one source.

/// The shader files in the order they are concatenated (later files use earlier ones).
pub const SHADER_FILES: [(&str, &str); 5] = [
    ("common.wgsl", include_str!("../../shaders/common.wgsl")),
    ("perlin.wgsl", include_str!("../../shaders/perlin.wgsl")),
    ("gradient.wgsl", include_str!("../../shaders/gradient.wgsl")),
    ("value.wgsl", include_str!("../../shaders/value.wgsl")),
    ("fractal.wgsl", include_str!("../../shaders/fractal.wgsl")),
];

/// Invocations per workgroup; equals `WORKGROUP_SIZE` in common.wgsl (checked through naga).
pub const WORKGROUP_SIZE: u32 = 64;
/// Entry point that renders one texel per invocation.
pub const ENTRY_RENDER: &str = "render_texels";
/// Entry point that evaluates caller-given points.
pub const ENTRY_SAMPLE: &str = "sample_points";

/// The composed WGSL source of the whole module.
pub fn shader_source() -> String {
    SHADER_FILES
        .iter()
        .map(|(_, text)| *text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parses and validates the module with naga, returning every error with its source span.
pub fn validate_shader() -> Result<naga::Module, String> {
    let source = shader_source();
    let module = naga::front::wgsl::parse_str(&source)
        .map_err(|e| e.emit_to_string_with_path(&source, "shaders/*.wgsl"))?;
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    );
    validator
        .validate(&module)
        .map_err(|e| e.emit_to_string_with_path(&source, "shaders/*.wgsl"))?;
    Ok(module)
}
