//! The library's surface as an adopter meets it (issue 13, point 14): typed errors that name
//! the library's own fields and never the command-line tool, the limits in one place, and the
//! wgpu the crate is built against.

use gpu_noise::export::{ExportOptions, Format, write_image};
use gpu_noise::{Error, Kind, NoiseSpec, Size, low_level::limits, wgsl};

#[test]
fn a_bad_shader_is_a_typed_error_with_naga_s_spans() {
    let source = wgsl::noise_module(0) + "fn broken( -> f32 { return 1.0; }";
    match wgsl::validate(&source) {
        Err(Error::Shader(text)) => assert!(text.contains("broken"), "{text}"),
        other => panic!("expected Error::Shader, got {other:?}"),
    }
    assert!(wgsl::validate(&wgsl::noise_module(0)).is_ok());
}

#[test]
fn output_settings_are_output_errors_naming_their_field() {
    let spec = NoiseSpec::new(Kind::Perlin, 2);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.png");
    let image = vec![0.0f32; spec.size.texels() as usize];
    type Spoil = fn(&mut ExportOptions);
    let cases: [(&str, Spoil); 2] = [
        ("bits", |o| o.bits = 12),
        ("range", |o| o.range = (1.0, 1.0)),
    ];
    for (field, spoil) in cases {
        let mut options = ExportOptions::for_spec(&spec);
        spoil(&mut options);
        match write_image(&path, &image, spec.size, Format::Png, &options) {
            Err(Error::InvalidOutput { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: expected Error::InvalidOutput, got {other:?}"),
        }
        assert!(!path.exists(), "{field}: no file");
    }
    let colormap = "-1:#000000".parse::<gpu_noise::Colormap>();
    assert!(matches!(
        colormap,
        Err(Error::InvalidOutput {
            field: "colormap",
            ..
        })
    ));
}

#[test]
fn library_messages_name_no_command_or_flag() {
    let no_adapter = Error::NoAdapter {
        detail: String::new(),
    }
    .to_string();
    let mut huge = NoiseSpec::new(Kind::Value, 2);
    huge.size = Size::new(1 << 16, 1 << 15, 1);
    let too_big = gpu_noise::cpu::render_f32(&huge.validate().unwrap())
        .unwrap_err()
        .to_string();
    for text in [no_adapter, too_big] {
        assert!(!text.contains("gpu-noise"), "{text}");
        assert!(!text.contains("--"), "{text}");
    }
}

#[test]
fn limits_are_the_ones_validation_enforces() {
    let mut spec = NoiseSpec::new(Kind::SparseConvolution, 2);
    spec.kind_fields.impulse.density = limits::MAX_DENSITY;
    assert!(spec.validate().is_ok());
    spec.kind_fields.impulse.density = limits::MAX_DENSITY * 1.01;
    assert!(matches!(
        spec.validate(),
        Err(Error::InvalidSpec {
            field: "density",
            ..
        })
    ));
    let mut deep = NoiseSpec::new(Kind::Perlin, 2);
    deep.fractal = gpu_noise::Fractal::Fbm;
    deep.octaves = limits::MAX_OCTAVES;
    assert!(deep.validate().is_ok());
    deep.octaves += 1;
    assert!(deep.validate().is_err());
}

#[test]
fn the_crate_s_wgpu_is_the_callers_wgpu() {
    // Compiles only if `gpu_noise::wgpu` is the very crate the renderer's methods take.
    let takes: fn(&wgpu::Device) = |_| {};
    let same: fn(&gpu_noise::wgpu::Device) = takes;
    let _ = same;
}

/// Found by hostile input: `Job` had public fields: raising `octaves` after validation made
/// the shader read past the uploaded tables. Now its fields are private (a compile_fail doc test on
/// `Job` shows the edit no longer compiles) and every change goes through validation.
#[test]
fn prepared_changes_only_through_validation() {
    let mut prep = NoiseSpec::new(Kind::Perlin, 2).validate().unwrap();
    let mut bad = prep.spec().unwrap().clone();
    bad.octaves = 16; // without a fractal
    assert!(matches!(
        prep.set_spec(bad),
        Err(Error::InvalidSpec {
            field: "octaves",
            ..
        })
    ));
    assert_eq!(prep.spec().unwrap().octaves, 1);
    assert_eq!(prep.frames().len(), 1, "unchanged after the refused edit");
    assert!(prep.set_offset([f64::NAN, 0.0, 0.0, 0.0]).is_err());
    assert_eq!(prep.spec().unwrap().offset, [0.0; 4]);
}
