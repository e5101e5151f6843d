//! The engines' side of the shader export: the recipes under examples/engines/ compiled around
//! fresh exports (docs/ENGINES.md), and `gpu-noise shader`'s files and refusals.

use std::path::Path;
use std::process::Command;

use gpu_noise::gpu::shader_export::{ShaderForm, ShaderLang, export_shader};
use gpu_noise::{Graph, Job, Kind, NoiseSpec, Size};

use crate::shader_export::{GRAPHS, NEAR, glslang, text};

/// A recipe's file with its `#include`/`#import` line replaced by a fresh export's module.
fn recipe(path: &str, include: &str, module: &str) -> String {
    let text = std::fs::read_to_string(format!("examples/engines/{path}")).unwrap();
    assert!(
        text.contains(include),
        "{path} includes the module by {include}"
    );
    text.replace(include, module)
}

fn module_text(job: &Job, lang: ShaderLang) -> String {
    let exported = export_shader(job, lang, ShaderForm::Module).unwrap();
    text(exported.code)
}

/// The engine recipes' shaders (examples/engines/, docs/ENGINES.md), each around a fresh export
/// as its comments say: Godot's GLSL and Unity's and Unreal's HLSL compiled by glslang (and
/// through spirv-val), Bevy's WGSL by naga with a stand-in for bevy_pbr's `VertexOutput`. The
/// terrain graph on the table lattice binds its tables; the prime lattice binds nothing.
#[test]
fn engine_recipes_compile_around_fresh_exports() {
    let terrain = Graph::from_json(GRAPHS[0].1)
        .unwrap()
        .prepare(Size::new(512, 512, 1), NEAR)
        .unwrap();
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.lattice = gpu_noise::spec::LatticeKind::Prime;
    spec.size = Size::new(1024, 1024, 1);
    let prime = spec.validate().unwrap();
    assert!(
        export_shader(&prime, ShaderLang::Hlsl, ShaderForm::Module)
            .unwrap()
            .tables
            .is_none(),
        "a prime lattice reads no tables, so Unreal's and Bevy's recipes bind none"
    );

    let godot = recipe(
        "godot/gpu_noise_heightmap.glsl",
        "#include \"gpu_noise.glsl\"",
        &module_text(&terrain, ShaderLang::Glsl),
    );
    // `#[compute]` is Godot's own marker line, which its importer takes off.
    let godot = godot.replacen("#[compute]\n", "", 1);
    glslang(&godot, false, "main", "the Godot recipe");

    let unity = recipe(
        "unity/GpuNoiseHeights.compute",
        "#include \"gpu_noise.hlsl\"",
        &module_text(&terrain, ShaderLang::Hlsl),
    );
    glslang(&unity, true, "Heights", "the Unity recipe");

    let unreal = recipe(
        "unreal/GpuNoise.usf",
        "#include \"/Project/GpuNoise.ush\"",
        &module_text(&prime, ShaderLang::Hlsl),
    );
    glslang(&unreal, true, "MainCS", "the Unreal recipe");

    let bevy = recipe(
        "bevy/gpu_noise_material.wgsl",
        "#import gpu_noise::gn_graph_value",
        &module_text(&prime, ShaderLang::Wgsl),
    )
    .replace(
        "#import bevy_pbr::forward_io::VertexOutput",
        "struct VertexOutput { @builtin(position) position: vec4<f32>, @location(2) uv: vec2<f32> }",
    );
    gpu_noise::wgsl::validate(&bevy).unwrap_or_else(|e| panic!("the Bevy recipe: {e}"));
}

fn shader_cli(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-noise"))
        .arg("shader")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `gpu-noise shader`: a module and its tables written beside `-o`, with the binding named on
/// stderr; what cannot go together refused with exit 2, naming the flag, and nothing written.
#[test]
fn the_shader_command_writes_files_and_refuses_what_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let out = shader_cli(
        &[
            "--lang",
            "glsl",
            "--seed",
            "3",
            "--lattice",
            "table",
            "-o",
            "n.glsl",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let module = std::fs::read_to_string(dir.path().join("n.glsl")).unwrap();
    assert!(module.contains("float gn_graph_value(uvec3 "));
    let tables = std::fs::read(dir.path().join("n.glsl.tables")).unwrap();
    assert_eq!(tables.len(), (512 + 4 * 256 + 256) * 4, "one seed's tables");
    assert!(String::from_utf8_lossy(&out.stderr).contains("set 0, binding 2"));

    let spv = shader_cli(&["--lang", "spirv", "--kernel", "-o", "k.spv"], dir.path());
    assert!(
        spv.status.success(),
        "{}",
        String::from_utf8_lossy(&spv.stderr)
    );
    let words = std::fs::read(dir.path().join("k.spv")).unwrap();
    assert_eq!(
        words[..4],
        0x0723_0203u32.to_le_bytes(),
        "SPIR-V's magic number"
    );
    assert!(
        !dir.path().join("k.spv.tables").exists(),
        "Perlin on the default (prime) lattice reads no tables"
    );

    for (args, flag) in [
        (&["--lang", "spirv", "-o", "m.spv"][..], "--lang"),
        (
            &[
                "--lang",
                "glsl",
                "--import-path",
                "gpu_noise",
                "-o",
                "m.glsl",
            ][..],
            "--import-path",
        ),
        (
            &["--lang", "wgsl", "--import-path", "no good", "-o", "m.wgsl"][..],
            "--import-path",
        ),
        (
            &[
                "--lang",
                "wgsl",
                "--kernel",
                "--tables-binding",
                "5",
                "-o",
                "m.wgsl",
            ][..],
            "--tables-binding",
        ),
        (&["--lang", "wgsl", "--lattice", "table"][..], "--tables"),
    ] {
        let out = shader_cli(args, dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(flag), "{args:?} names {flag}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with('m'))
        .collect();
    assert!(left.is_empty(), "refused runs wrote {left:?}");

    let bevy = shader_cli(
        &[
            "--lang",
            "wgsl",
            "--lattice",
            "prime",
            "--import-path",
            "gpu_noise",
        ],
        dir.path(),
    );
    let text = String::from_utf8(bevy.stdout).unwrap();
    assert!(
        text.starts_with("#define_import_path gpu_noise\n"),
        "{text:.80}"
    );
}
