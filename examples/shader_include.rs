//! A material shader of the caller's own that includes gpu-noise's WGSL and calls
//! `gn_fractal_noise`: a fragment shader draws billowy clouds into a texture, headless. The library
//! is bound at group 0 through `NoiseBindings`; the pipeline takes the spec's override
//! constants. The result is checked against the CPU twin and saved as a PNG.
//!
//! ```text
//! cargo run --release --example shader_include -- [clouds.png]
//! ```

use gpu_noise::low_level::levels::{quantize, unit_level};
use gpu_noise::{Fractal, Kind, NoiseSpec, gpu::NoiseBindings, wgsl};

const SIDE: u32 = 256;
const FREQUENCY: f32 = 1.0 / 48.0;

/// The caller's shader: a full-screen triangle and a fragment that maps noise to blue sky and
/// white cloud. Everything above the first line comes from `wgsl::noise_module(0)`.
const MATERIAL: &str = r#"
@vertex
fn fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn clouds(@builtin(position) frag: vec4<f32>) -> @location(0) vec4<f32> {
    // Pixel (i, j) has its center at (i + 0.5, j + 0.5).
    let p = vec4<f32>(floor(frag.xy) * FREQUENCY, 0.0, 0.0);
    let t = clamp(gn_fractal_noise(p) * 0.5 + 0.5, 0.0, 1.0);
    return vec4<f32>(mix(SKY, vec3<f32>(1.0), t), 1.0);
}
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "clouds.png".into());
    let source = format!(
        "{}\nconst FREQUENCY: f32 = {FREQUENCY:?};\nconst SKY = vec3<f32>(0.25, 0.45, 0.85);\n{MATERIAL}",
        wgsl::noise_module(0)
    );
    wgsl::validate(&source).map_err(|e| format!("the material does not validate:\n{e}"))?;

    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.fractal = Fractal::Billow;
    spec.octaves = 5;
    spec.seed = 21;
    let prepared = spec.validate()?;

    let choice = gpu_noise::gpu::AdapterChoice::from_env()?;
    let instance = gpu_noise::low_level::gpu::new_instance(&choice);
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))?;
    let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))?;
    println!("adapter: {}", adapter.get_info().name);

    let mut bindings = NoiseBindings::new(&device)?;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("material"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("material"),
        bind_group_layouts: &[Some(bindings.layout())],
        immediate_size: 0,
    });
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let constants = prepared.pipeline_constants();
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("material"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("fullscreen"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("clouds"),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                ..Default::default()
            },
            targets: &[Some(format.into())],
        }),
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    });
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("clouds"),
        size: wgpu::Extent3d {
            width: SIDE,
            height: SIDE,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = target.create_view(&Default::default());

    let mut encoder = device.create_command_encoder(&Default::default());
    bindings.update(&mut encoder, &prepared)?; // tables and state for the spec
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("clouds"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, bindings.bind_group(), &[]);
        pass.draw(0..3, 0..1);
    }
    let row = SIDE * 4; // 1024 bytes: already a multiple of 256
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("clouds out"),
        size: u64::from(row * SIDE),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        target.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: None,
            },
        },
        target.size(),
    );
    queue.submit([encoder.finish()]);
    staging.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let pixels = staging.slice(..).get_mapped_range()?.to_vec();

    // The CPU twin at the same points; red is 0.25 + 0.75 t with t = 0.5 v + 0.5.
    let mut worst = 0u8;
    for j in 0..SIDE {
        for i in 0..SIDE {
            let p = [
                f64::from(i) * f64::from(FREQUENCY),
                f64::from(j) * f64::from(FREQUENCY),
                0.0,
                0.0,
            ];
            let t = unit_level(gpu_noise::cpu::fractal_noise(&prepared, p), -1.0, 1.0);
            let expected = quantize(0.25 + 0.75 * t, 255) as u8;
            let got = pixels[((j * SIDE + i) * 4) as usize];
            worst = worst.max(got.abs_diff(expected));
        }
    }
    image::RgbaImage::from_raw(SIDE, SIDE, pixels)
        .ok_or("bad image size")?
        .save(&out)?;
    println!("wrote {out}; largest level difference from the CPU twin: {worst} (of 255)");
    if worst > 1 {
        return Err("the material's noise differs from the CPU twin by more than one level".into());
    }
    Ok(())
}
