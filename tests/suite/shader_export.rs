//! The shader export (CONVENTIONS §15) checked by other compilers and run: for every kind (near
//! the origin in 2D, at 1e12 texels in 3D where the kind has it) and the four example graphs,
//! the GLSL and HLSL kernels compiled by glslang (Debian's glslang-tools), naga's SPIR-V, and
//! every SPIR-V through spirv-val (spirv-tools), then run on Vulkan (lavapipe, through wgpu's
//! SPIR-V passthrough) and held texel by texel to the job's bound against the f64 twin. The
//! modules are compiled inside a user's shader by the same compilers; MSL has naga's validation
//! only (no Metal compiler runs here).

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use gpu_noise::gpu::shader_export::{
    KERNEL_ROWS, KERNEL_WORKGROUP, ShaderCode, ShaderForm, ShaderLang, export_shader,
};
use gpu_noise::low_level::gpu::RenderParams;
use gpu_noise::low_level::tolerance::compare;
use gpu_noise::{Graph, Job, Kind, NoiseSpec, Size, Window, cpu};

const GLSLANG: &str = "glslangValidator";
const SPIRV_VAL: &str = "spirv-val";
const INSTALL: &str = "apt-get install -y glslang-tools spirv-tools mesa-vulkan-drivers";

/// The four example graphs (examples/graphs/), the caves as a small volume.
pub const GRAPHS: [(&str, &str); 4] = [
    (
        "terrain",
        include_str!("../../examples/graphs/terrain.json"),
    ),
    ("marble", include_str!("../../examples/graphs/marble.json")),
    ("caves", include_str!("../../examples/graphs/caves.json")),
    (
        "highlands",
        include_str!("../../examples/graphs/highlands.json"),
    ),
];

pub const NEAR: [f64; 4] = [3.25, -7.5, 0.5, 0.0];
const FAR: [f64; 4] = [1e12 + 0.5, -1e12 - 0.25, 1e12, 0.0];

/// Every kind twice (2D near the origin on the table lattice, 3D or its widest at 1e12 on the
/// prime lattice, whose shaders read no tables) and the example graphs at both places.
fn cases() -> Vec<(String, Job)> {
    let mut cases = Vec::new();
    for &kind in Kind::ALL {
        for (offset, dims, place) in [(NEAR, 2, "near"), (FAR, kind.max_dims().min(3), "1e12")] {
            let mut spec = NoiseSpec::new(kind, dims.min(kind.max_dims()));
            spec.size = Size::new(24, 20, 1);
            spec.frequency = 0.0731;
            spec.seed = 7;
            spec.offset = offset;
            if place == "1e12" {
                spec.lattice = gpu_noise::spec::LatticeKind::Prime;
            }
            let job = spec.validate().unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            cases.push((format!("{kind:?} {}D {place}", spec.dims), job));
        }
    }
    for (name, json) in GRAPHS {
        let graph = Graph::from_json(json).unwrap();
        let depth = if graph.dims() == 3 { 2 } else { 1 };
        for (offset, place) in [(NEAR, "near"), (FAR, "1e12")] {
            let job = graph.prepare(Size::new(24, 20, depth), offset).unwrap();
            cases.push((format!("{name} {place}"), job));
        }
    }
    cases
}

/// Runs an external compiler or validator, failing with how to install it where it is missing.
fn run_tool(tool: &str, args: &[&str], what: &str) {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool} could not run ({e}): {INSTALL}"));
    assert!(
        out.status.success(),
        "{tool} refused {what}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn words_of(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap();
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// glslang's SPIR-V of a GLSL (`hlsl` false) or HLSL compute shader, through spirv-val.
pub fn glslang(source: &str, hlsl: bool, entry: &str, what: &str) -> Vec<u32> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join(if hlsl { "k.hlsl" } else { "k.comp" });
    let output = dir.path().join("k.spv");
    std::fs::write(&input, source).unwrap();
    let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());
    let mut args = vec!["-V", "-S", "comp", "-o", o, i];
    if hlsl {
        args.extend(["-D", "-e", entry]);
    }
    run_tool(GLSLANG, &args, what);
    spirv_val(&words_of(&output), what)
}

fn spirv_val(words: &[u32], what: &str) -> Vec<u32> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.spv");
    std::fs::write(&path, bytemuck::cast_slice::<u32, u8>(words)).unwrap();
    let args = ["--target-env", "vulkan1.1", path.to_str().unwrap()];
    run_tool(SPIRV_VAL, &args, what);
    words.to_vec()
}

pub fn text(code: ShaderCode) -> String {
    code.text().expect("a text language").to_string()
}

/// A Vulkan device that takes SPIR-V as it is (wgpu's passthrough): lavapipe on this machine.
fn vulkan() -> &'static (wgpu::Device, wgpu::Queue) {
    static DEVICE: OnceLock<(wgpu::Device, wgpu::Queue)> = OnceLock::new();
    DEVICE.get_or_init(|| {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = pollster::block_on(instance.request_adapter(&Default::default()))
            .unwrap_or_else(|e| {
                panic!("the exported kernels run on a Vulkan adapter; none opened ({e}): {INSTALL}")
            });
        let features = wgpu::Features::PASSTHROUGH_SHADERS;
        assert!(
            adapter.features().contains(features),
            "{} takes no SPIR-V passthrough",
            adapter.get_info().name
        );
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("exported kernels"),
            required_features: features,
            ..Default::default()
        }))
        .unwrap()
    })
}

/// The kernel's window, the whole image, as the kernel contract lays it out: parameters at
/// binding 0, the f32 output at binding 1 and the tables (where it reads them) at binding 2 of
/// set 0.
fn dispatch(
    module: &wgpu::ShaderModule,
    entry: &str,
    job: &Job,
    tables: Option<&[u32]>,
) -> Vec<f32> {
    let (device, queue) = vulkan();
    let size = job.size();
    let params = RenderParams::new(Window::full(size));
    let uniform = wgpu::util::DeviceExt::create_buffer_init(
        device,
        &wgpu::util::BufferInitDescriptor {
            label: Some("params"),
            contents: bytemuck::bytes_of(&params),
            usage: wgpu::BufferUsages::UNIFORM,
        },
    );
    let bytes = u64::from(size.width * size.height * size.depth) * 4;
    let output = wgpu::util::DeviceExt::create_buffer_init(
        device,
        &wgpu::util::BufferInitDescriptor {
            label: Some("values"),
            contents: &vec![0x55u8; bytes as usize],
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        },
    );
    // Stated, not reflected: a SPIR-V passthrough module has no layout wgpu could derive.
    let buffer = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
    let mut entries = vec![
        buffer(0, wgpu::BufferBindingType::Uniform),
        buffer(1, storage(false)),
    ];
    let table_buffer = tables.map(|words| {
        entries.push(buffer(2, storage(true)));
        wgpu::util::DeviceExt::create_buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("tables"),
                contents: bytemuck::cast_slice(words),
                usage: wgpu::BufferUsages::STORAGE,
            },
        )
    });
    let set = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: None,
        entries: &entries,
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &[Some(&set)],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(entry),
        layout: Some(&layout),
        module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        cache: None,
    });
    let mut bound = vec![
        wgpu::BindGroupEntry {
            binding: 0,
            resource: uniform.as_entire_binding(),
        },
        wgpu::BindGroupEntry {
            binding: 1,
            resource: output.as_entire_binding(),
        },
    ];
    if let Some(buffer) = &table_buffer {
        bound.push(wgpu::BindGroupEntry {
            binding: 2,
            resource: buffer.as_entire_binding(),
        });
    }
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &set,
        entries: &bound,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        let [wx, wy, _] = KERNEL_WORKGROUP;
        pass.dispatch_workgroups(
            size.width.div_ceil(wx),
            size.height.div_ceil(wy * KERNEL_ROWS),
            size.depth,
        );
    }
    queue.submit([encoder.finish()]);
    let read = crate::support::read_buffer(device, queue, &output, bytes);
    bytemuck::cast_slice(&read).to_vec()
}

fn run_spirv(words: &[u32], entry: &str, job: &Job, tables: Option<&[u32]>) -> Vec<f32> {
    let (device, _) = vulkan();
    let entry_points = [wgpu::PassthroughShaderEntryPoint {
        name: entry.into(),
        workgroup_size: (
            KERNEL_WORKGROUP[0],
            KERNEL_WORKGROUP[1],
            KERNEL_WORKGROUP[2],
        ),
    }];
    // SAFETY: the words passed spirv-val for Vulkan 1.1 above, and the kernel's bindings are
    // the two this test binds, of the sizes it gives them.
    let module = unsafe {
        device.create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
            label: Some(entry),
            entry_points: entry_points.as_slice().into(),
            spirv: Some(words.into()),
            ..Default::default()
        })
    };
    dispatch(&module, entry, job, tables)
}

/// The values against the twin within the job's bound; the worst error.
fn held_to_the_bound(values: &[f32], job: &Job, what: &str) -> f64 {
    let reference = cpu::render_f64(job).unwrap();
    let cmp = compare(values, &reference);
    let bound = job.gpu_error_bound();

    assert!(
        cmp.max_abs_err <= bound.value,
        "{what}: max_abs_err {:e} > bound {:e} ({}) at texel {} ({} vs {})",
        cmp.max_abs_err,
        bound.value,
        bound.reason,
        cmp.worst_index,
        cmp.worst_gpu,
        cmp.worst_cpu
    );
    cmp.max_abs_err
}

/// Exports, compiles and runs one language's kernel for every case; prints the worst error of
/// each and returns the worst of all.
fn kernels_run(lang: ShaderLang, compile: impl Fn(ShaderCode, &str) -> (Vec<u32>, &'static str)) {
    let mut worst = 0.0f64;
    for (name, job) in cases() {
        let what = format!("the {} kernel of {name}", lang.name());
        let code =
            export_shader(&job, lang, ShaderForm::Kernel).unwrap_or_else(|e| panic!("{what}: {e}"));
        let (words, entry) = compile(code.code, &what);
        let tables = code.tables.as_deref();
        let err = held_to_the_bound(&run_spirv(&words, entry, &job, tables), &job, &what);
        println!("{:5} {name:28} max_abs_err {err:.2e}", lang.name());
        worst = worst.max(err);
    }
    println!("{}: worst {worst:.2e}", lang.name());
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn glsl_kernels_compiled_by_glslang_run_within_the_bound() {
    kernels_run(ShaderLang::Glsl, |code, what| {
        (glslang(&text(code), false, "main", what), "main")
    });
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn hlsl_kernels_compiled_by_glslang_run_within_the_bound() {
    kernels_run(ShaderLang::Hlsl, |code, what| {
        (
            glslang(&text(code), true, "render_buffer", what),
            "render_buffer",
        )
    });
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn spirv_kernels_pass_spirv_val_and_run_within_the_bound() {
    kernels_run(ShaderLang::Spirv, |code, what| {
        let ShaderCode::Binary(words) = code else {
            panic!("{what}: SPIR-V came as text");
        };
        (spirv_val(&words, what), "render_buffer")
    });
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn wgsl_kernels_run_within_the_bound() {
    let (device, _) = vulkan();
    let mut worst = 0.0f64;
    for (name, job) in cases() {
        let what = format!("the wgsl kernel of {name}");
        let code = export_shader(&job, ShaderLang::Wgsl, ShaderForm::Kernel).unwrap();
        let tables = code.tables.as_deref();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("exported wgsl"),
            source: wgpu::ShaderSource::Wgsl(text(code.code.clone()).into()),
        });
        let values = dispatch(&module, "render_buffer", &job, tables);
        let err = held_to_the_bound(&values, &job, &what);
        worst = worst.max(err);
    }
    println!("wgsl: worst {worst:.2e}");
}

/// A user's compute shader around the module: the module's text, then their own code calling
/// `gn_graph_value`, compiled as a whole.
const GLSL_USER: &str = "layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) buffer Heights { float heights[]; };
void main() {
    uvec3 t = uvec3(gl_GlobalInvocationID.xy, 0u);
    heights[t.y * 64u + t.x] = gn_graph_value(t);
}
";
const HLSL_USER: &str = "RWStructuredBuffer<float> heights : register(u0);
[numthreads(8, 8, 1)]
void user_main(uint3 id : SV_DispatchThreadID) {
    heights[id.y * 64u + id.x] = gn_graph_value(uint3(id.xy, 0u));
}
";
const WGSL_USER: &str = "@group(0) @binding(0) var<storage, read_write> heights: array<f32>;
@compute @workgroup_size(8, 8)
fn user_main(@builtin(global_invocation_id) id: vec3<u32>) {
    heights[id.y * 64u + id.x] = gn_graph_value(vec3<u32>(id.xy, 0u));
}
";

#[test]
fn modules_compile_inside_a_users_shader_in_every_language() {
    for (name, job) in cases().into_iter().filter(|(n, _)| n.ends_with("near")) {
        let module = |lang| {
            export_shader(&job, lang, ShaderForm::Module)
                .unwrap_or_else(|e| panic!("the {lang:?} module of {name}: {e}"))
                .code
        };
        let wgsl = text(module(ShaderLang::Wgsl));
        gpu_noise::wgsl::validate(&format!("{wgsl}{WGSL_USER}"))
            .unwrap_or_else(|e| panic!("the wgsl module of {name}: {e}"));
        let glsl = format!(
            "#version 450\n{}{GLSL_USER}",
            text(module(ShaderLang::Glsl))
        );
        glslang(&glsl, false, "main", &format!("the glsl module of {name}"));
        let hlsl = format!("{}{HLSL_USER}", text(module(ShaderLang::Hlsl)));
        glslang(
            &hlsl,
            true,
            "user_main",
            &format!("the hlsl module of {name}"),
        );
        let msl = text(module(ShaderLang::Msl));
        assert!(
            msl.contains("float gn_graph_value("),
            "the msl module of {name}"
        );
        let gradient = job.with_gradient().is_ok();
        assert_eq!(
            wgsl.contains("fn gn_graph_value_d("),
            gradient,
            "{name}: the gradient function is there exactly where the job has one"
        );
    }
}

#[test]
fn spirv_has_no_module_form_and_says_what_to_do() {
    let job = NoiseSpec::new(Kind::Perlin, 2).validate().unwrap();
    let e = export_shader(&job, ShaderLang::Spirv, ShaderForm::Module).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("spirv") && text.contains("kernel"), "{text}");
}
