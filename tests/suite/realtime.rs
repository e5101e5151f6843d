//! What a real-time caller relies on: a new frame rewrites only a uniform, the min/max of
//! `Range::Auto` are found on the GPU, readbacks can be taken without blocking or awaited, and a
//! caller's own shader can include the noise library and call `gn_fractal_noise`.

use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::low_level::tolerance::{compare, gpu_error_bound};
use gpu_noise::{
    Fractal, Kind, NoiseSpec, Renderer, Size, Window, cpu, gpu::NoiseBindings, gpu::Range,
    gpu::RendererOptions, gpu::TextureOutput, wgsl,
};

use crate::support::{caller_device, read_buffer, renderer};
use gpu_noise::gpu::Target;

fn frame_spec() -> NoiseSpec {
    let mut s = NoiseSpec::new(Kind::Perlin, 3);
    s.size = Size::new(32, 16, 1);
    s.fractal = Fractal::Fbm;
    s.octaves = 4;
    s.seed = 3;
    s
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_new_frame_with_a_new_offset_rewrites_only_the_uniform() {
    let (device, queue, _) = caller_device();
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let mut prep = frame_spec().validate().unwrap();
    let bytes = prep.spec().unwrap().size.texels() * 4;
    let target = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("frame"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let frame = |renderer: &mut Renderer, prep: &gpu_noise::Job| {
        let mut encoder = device.create_command_encoder(&Default::default());
        renderer
            .record(
                &mut encoder,
                prep,
                Target::Buffer {
                    buffer: &target,
                    offset: 0,
                },
            )
            .unwrap();
        queue.submit([encoder.finish()]);
        renderer.stats()
    };
    let first = frame(&mut renderer, &prep);
    assert_eq!(first.table_uploads, 4, "one table set per octave");
    prep.set_offset([5.0, -3.0, 2.5, 0.0]).unwrap();
    let second = frame(&mut renderer, &prep);
    // What the second frame did, by RenderStats' subtraction: one uniform write, nothing new.
    let delta = second - first;
    let created = |s: gpu_noise::gpu::RenderStats| {
        (
            s.uniform_writes,
            s.table_uploads,
            s.colormap_uploads,
            s.bind_groups_created,
            s.buffers_created,
            s.pipelines_compiled,
        )
    };
    assert_eq!(
        created(delta),
        (1, 0, 0, 0, 0, 0),
        "{first:?} -> {second:?}"
    );
    assert_eq!(
        delta.dispatches, first.dispatches,
        "the same dispatches as the first frame"
    );
    // The second frame is the new offset's image.
    let gpu: Vec<f32> = read_buffer(&device, &queue, &target, bytes)
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let cmp = compare(&gpu, &cpu::render_f64(&prep).unwrap());
    assert!(cmp.max_abs_err <= prep.gpu_error_bound().value, "{cmp:?}");
    // A new seed uploads its octaves' tables; going back to the old seed finds them in slots.
    let mut reseeded = prep.spec().unwrap().clone();
    reseeded.seed = 100;
    prep.set_spec(reseeded).unwrap();
    let third = frame(&mut renderer, &prep);
    assert_eq!(
        third.table_uploads,
        first.table_uploads + 4,
        "seeds 100..=103 are new"
    );
    let mut back = prep.spec().unwrap().clone();
    back.seed = 3;
    prep.set_spec(back).unwrap();
    let fourth = frame(&mut renderer, &prep);
    assert_eq!(
        fourth.table_uploads, third.table_uploads,
        "seeds 3..=6 are still in slots"
    );
    assert_eq!(fourth.bind_groups_created, first.bind_groups_created);
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn auto_range_is_found_on_the_gpu_and_read_back_on_request() {
    let (device, queue, _) = caller_device();
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let mut spec = frame_spec();
    spec.size = Size::new(61, 37, 1); // not a multiple of the workgroup or of the groups
    spec.fractal = Fractal::Ridged;
    let prep = spec.validate().unwrap();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("normalized"),
        size: wgpu::Extent3d {
            width: 61,
            height: 37,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::STORAGE_BINDING,
        view_formats: &[],
    });
    let output = TextureOutput {
        range: Range::Auto,
        ..Default::default()
    };
    let mut encoder = device.create_command_encoder(&Default::default());
    renderer
        .record(
            &mut encoder,
            &prep,
            Target::Texture {
                texture: &texture,
                output: &output,
            },
        )
        .unwrap();
    let pending = renderer.read_auto_range(&mut encoder);
    queue.submit([encoder.finish()]);
    let found = pending.wait().unwrap();
    let reference = cpu::render_f64(&prep).unwrap();
    let lo = reference.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = reference.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let bound = gpu_error_bound(&spec).value;
    assert!(
        (f64::from(found[0]) - lo).abs() <= bound,
        "min {} vs {lo}",
        found[0]
    );
    assert!(
        (f64::from(found[1]) - hi).abs() <= bound,
        "max {} vs {hi}",
        found[1]
    );
    assert!(hi - lo > 0.5, "a real range was found: {lo}..{hi}");
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn readback_can_be_polled_each_frame_or_awaited() {
    let mut r = renderer();
    let prep = frame_spec().validate().unwrap();
    let reference = cpu::render_f64(&prep).unwrap();
    let bound = prep.gpu_error_bound().value;
    let mut encoder = r.device().create_command_encoder(&Default::default());
    let window = Window::full(prep.spec().unwrap().size);
    let mut pending = r.record_read(&mut encoder, &prep, window).unwrap();
    assert!(
        pending.try_take().is_none(),
        "nothing before the encoder is submitted"
    );
    r.queue().submit([encoder.finish()]);
    let mut polls = 0;
    let polled = loop {
        if let Some(values) = pending.try_take() {
            break values.unwrap();
        }
        polls += 1;
        assert!(polls < 100_000, "the readback never arrived");
        std::thread::yield_now();
    };
    assert!(compare(&polled, &reference).max_abs_err <= bound);
    let awaited = pollster::block_on(r.read_async(&prep, Window::full(prep.size()))).unwrap();
    assert_eq!(awaited, polled);
}

/// A caller's compute shader: its own output at group 0, the library at group 1; each
/// invocation calls gn_fractal_noise at a point of its own choosing. It declares names the
/// library uses too (`lerp`, `value`, `TABLE_SIZE`, `noise_state`), which stay its own.
const CALLER_SHADER: &str = r#"
@group(0) @binding(0) var<storage, read_write> heights: array<f32>;
const TABLE_SIZE: f32 = 2.0;
var<private> noise_state: f32 = 0.0;
fn lerp(a: f32, b: f32, t: f32) -> f32 { return a + (b - a) * t; }
fn value(x: f32) -> f32 { return lerp(x, x * TABLE_SIZE, 0.5) / 1.5 + noise_state; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&heights) {
        return;
    }
    let p = vec4<f32>(f32(id.x) * 0.375 - 20.0, f32(id.x % 7u) * 1.25, 0.5, 0.0);
    heights[id.x] = value(gn_fractal_noise(p));
}
"#;

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_callers_own_shader_includes_the_library_and_calls_fractal_noise() {
    let source = wgsl::noise_module(1) + CALLER_SHADER;
    wgsl::validate(&source).unwrap_or_else(|e| panic!("{e}"));
    let (device, queue, _) = caller_device();
    let mut spec = NoiseSpec::new(Kind::Value, 2);
    spec.fractal = Fractal::Billow;
    spec.octaves = 3;
    spec.seed = 9;
    let prep = spec.validate().unwrap();
    let mut bindings = NoiseBindings::new(&device).unwrap();
    let count = 200u64;
    let heights = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("heights"),
        size: count * 4,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let own_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: None,
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let own_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &own_layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: heights.as_entire_binding(),
        }],
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("caller's shader"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &[Some(&own_layout), Some(bindings.layout())],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("caller's pipeline"),
        layout: Some(&layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants: &prep.pipeline_constants(),
            ..Default::default()
        },
        cache: None,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    bindings.update(&mut encoder, &prep).unwrap();
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &own_group, &[]);
        pass.set_bind_group(1, bindings.bind_group(), &[]);
        pass.dispatch_workgroups((count as u32).div_ceil(64), 1, 1);
    }
    queue.submit([encoder.finish()]);
    let gpu: Vec<f32> = read_buffer(&device, &queue, &heights, count * 4)
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let points: Vec<[f64; 4]> = (0..count)
        .map(|i| [i as f64 * 0.375 - 20.0, (i % 7) as f64 * 1.25, 0.5, 0.0])
        .collect();
    let cmp = compare(&gpu, &cpu::sample(&prep, &points));
    assert!(cmp.max_abs_err <= 2e-5, "{cmp:?}");
}

/// `Renderer::prepare` compiles a new kind's kernels ahead of its first frame: the frame into a
/// buffer, an R32Float texture and a colormapped texture (auto range too) compiles nothing.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn prepare_compiles_the_kernels_before_the_first_frame() {
    let (device, queue, _) = caller_device();
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let mut spec = NoiseSpec::new(Kind::Value, 2);
    spec.size = Size::new(16, 8, 1);
    let prep = spec.validate().unwrap();
    let compiled = renderer.prepare(&prep).unwrap();
    assert!(compiled >= 5, "compiled {compiled}");
    assert_eq!(
        renderer.prepare(&prep).unwrap(),
        0,
        "all ready the second time"
    );
    let before = renderer.stats();
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: spec.size.texels() * 4,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let texture = |format| {
        device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d {
                width: 16,
                height: 8,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::STORAGE_BINDING,
            view_formats: &[],
        })
    };
    let mut encoder = device.create_command_encoder(&Default::default());
    renderer
        .record(
            &mut encoder,
            &prep,
            Target::Buffer {
                buffer: &buffer,
                offset: 0,
            },
        )
        .unwrap();
    let raw = texture(wgpu::TextureFormat::R32Float);
    let colored = texture(wgpu::TextureFormat::Rgba8Unorm);
    let auto = TextureOutput {
        range: Range::Auto,
        ..Default::default()
    };
    renderer
        .record(
            &mut encoder,
            &prep,
            Target::Texture {
                texture: &raw,
                output: &TextureOutput::default(),
            },
        )
        .unwrap();
    renderer
        .record(
            &mut encoder,
            &prep,
            Target::Texture {
                texture: &colored,
                output: &auto,
            },
        )
        .unwrap();
    queue.submit([encoder.finish()]);
    let frame = renderer.stats() - before;
    assert_eq!(frame.pipelines_compiled, 0, "{frame:?}");
    // Another kind is not ready until prepared.
    let other = NoiseSpec {
        kind: Kind::Simplex,
        ..spec
    };
    assert!(renderer.prepare(&other.validate().unwrap()).unwrap() >= 5);
}
