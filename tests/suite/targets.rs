//! Rendering into a device, buffers and textures the test owns: the renderer records into the
//! test's encoder, the test submits and copies the results out itself, and every texel is
//! checked against the CPU twin within the stated bound (CONVENTIONS §7).

use gpu_noise::low_level::levels::{level8, level16};
use gpu_noise::low_level::tolerance::{compare, gpu_error_bound};
use gpu_noise::{
    Colormap, Error, Fractal, Kind, NoiseSpec, Renderer, Size, cpu, gpu::Range,
    gpu::RendererOptions, gpu::TextureOutput,
};

use crate::support::{caller_device, map_read, read_buffer};
use gpu_noise::{Window, gpu::Target};

fn texture(
    device: &wgpu::Device,
    size: Size,
    dimension: wgpu::TextureDimension,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("test target"),
        size: wgpu::Extent3d {
            width: size.width,
            height: size.height,
            depth_or_array_layers: size.depth,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension,
        format,
        usage,
        view_formats: &[],
    })
}

/// Copies a texture's texels out (rows padded to 256 bytes on the way), tightly packed.
fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    tex: &wgpu::Texture,
    texel_bytes: u32,
) -> Vec<u8> {
    let (w, h, d) = (tex.width(), tex.height(), tex.depth_or_array_layers());
    let row = (w * texel_bytes).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let bytes = u64::from(row * h * d);
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("texture staging"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        tex.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: Some(h),
            },
        },
        tex.size(),
    );
    queue.submit([encoder.finish()]);
    let padded = map_read(device, &staging, bytes);
    padded
        .chunks(row as usize)
        .flat_map(|r| r[..(w * texel_bytes) as usize].to_vec())
        .collect()
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn assert_within_bound(name: &str, spec: &NoiseSpec, gpu: &[f32]) {
    let reference = cpu::render_f64(&spec.validate().unwrap()).unwrap();
    let cmp = compare(gpu, &reference);
    let bound = gpu_error_bound(spec);
    assert!(
        cmp.max_abs_err <= bound.value,
        "{name}: max_abs_err {:e} > {:e} ({cmp:?})",
        cmp.max_abs_err,
        bound.value
    );
}

fn fbm(dims: u32, size: Size) -> NoiseSpec {
    let mut s = NoiseSpec::new(Kind::Perlin, dims);
    s.size = size;
    s.fractal = Fractal::Fbm;
    s.octaves = 3;
    s.frequency = 0.125;
    s.offset = [-7.0, 3.0, 1.0, 0.0];
    s.seed = 12;
    s
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn the_callers_buffer_and_r32_textures_receive_the_noise_without_readback() {
    use wgpu::TextureDimension as D;
    let (device, queue, _) = caller_device();
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let image = fbm(3, Size::new(24, 10, 1));
    let volume = fbm(3, Size::new(12, 8, 4));
    let offset = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let bytes = image.size.texels() * 4;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("caller's heights"),
        size: offset + bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC;
    let r32 = wgpu::TextureFormat::R32Float;
    let flat = texture(&device, image.size, D::D2, r32, usage);
    let layers = texture(&device, volume.size, D::D2, r32, usage);
    // COPY_DST: on GL a 3D target is filled by a copy (see Renderer::render_to_texture).
    let cube = texture(
        &device,
        volume.size,
        D::D3,
        r32,
        usage | wgpu::TextureUsages::COPY_DST,
    );
    let (prep, vol) = (image.validate().unwrap(), volume.validate().unwrap());
    let mut encoder = device.create_command_encoder(&Default::default());
    let out = TextureOutput::default();
    renderer
        .record(
            &mut encoder,
            &prep,
            Target::Buffer {
                buffer: &buffer,
                offset,
            },
        )
        .unwrap();
    renderer
        .record(
            &mut encoder,
            &prep,
            Target::Texture {
                texture: &flat,
                output: &out,
            },
        )
        .unwrap();
    renderer
        .record(
            &mut encoder,
            &vol,
            Target::Texture {
                texture: &layers,
                output: &out,
            },
        )
        .unwrap();
    renderer
        .record(
            &mut encoder,
            &vol,
            Target::Texture {
                texture: &cube,
                output: &out,
            },
        )
        .unwrap();
    queue.submit([encoder.finish()]);

    let all = read_buffer(&device, &queue, &buffer, offset + bytes);
    assert_within_bound("buffer", &image, &f32s(&all[offset as usize..]));
    assert_within_bound(
        "r32 2D",
        &image,
        &f32s(&read_texture(&device, &queue, &flat, 4)),
    );
    assert_within_bound(
        "r32 2D array",
        &volume,
        &f32s(&read_texture(&device, &queue, &layers, 4)),
    );
    assert_within_bound(
        "r32 3D",
        &volume,
        &f32s(&read_texture(&device, &queue, &cube, 4)),
    );
}

/// A level the GPU wrote may differ from the CPU's by one step: f32 against f64 near a
/// rounding boundary (the value error, < 2e-5, is below one 8-bit or 16-bit step).
fn assert_levels_close(name: &str, gpu: &[u32], cpu: &[u32]) {
    assert_eq!(gpu.len(), cpu.len(), "{name}");
    for (n, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        assert!(
            g.abs_diff(*c) <= 1,
            "{name}: texel {n}: gpu level {g}, cpu level {c}"
        );
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn colormapped_and_16_bit_targets_hold_the_cpu_levels() {
    use wgpu::TextureDimension as D;
    let (device, queue, features) = caller_device();
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let spec = fbm(2, Size::new(40, 9, 1));
    let prep = spec.validate().unwrap();
    let reference = cpu::render_f64(&prep).unwrap();
    let range = (-0.6, 0.7);
    let output = TextureOutput {
        range: Range::Fixed(range.0, range.1),
        colormap: Colormap::Viridis,
        ..TextureOutput::default()
    };
    let usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC;
    let rgba = texture(
        &device,
        spec.size,
        D::D2,
        wgpu::TextureFormat::Rgba8Unorm,
        usage,
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    renderer
        .record(
            &mut encoder,
            &prep,
            Target::Texture {
                texture: &rgba,
                output: &output,
            },
        )
        .unwrap();
    queue.submit([encoder.finish()]);
    let table = Colormap::Viridis.table(range);
    let colors = read_texture(&device, &queue, &rgba, 4);
    // Viridis is monotonic in green, so a color identifies its level.
    let gpu: Vec<u32> = colors
        .chunks(4)
        .map(|c| {
            table
                .iter()
                .position(|t| t[..] == c[..])
                .expect("a colormap entry") as u32
        })
        .collect();
    let cpu: Vec<u32> = reference
        .iter()
        .map(|&v| u32::from(level8(v, range)))
        .collect();
    assert_levels_close("rgba8 viridis", &gpu, &cpu);

    // R16Unorm: packed into words and copied, 2D and 2D array.
    let volume = fbm(3, Size::new(37, 6, 3));
    for spec in [spec.clone(), volume] {
        let prep = spec.validate().unwrap();
        let usage = wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC;
        assert!(
            features.contains(wgpu::Features::TEXTURE_FORMAT_16BIT_NORM),
            "this adapter cannot make R16Unorm textures, so the heightmap path is untested here"
        );
        let r16 = texture(
            &device,
            spec.size,
            D::D2,
            wgpu::TextureFormat::R16Unorm,
            usage,
        );
        let mut encoder = device.create_command_encoder(&Default::default());
        renderer
            .record(
                &mut encoder,
                &prep,
                Target::Texture {
                    texture: &r16,
                    output: &output,
                },
            )
            .unwrap();
        queue.submit([encoder.finish()]);
        let words = read_texture(&device, &queue, &r16, 2);
        let gpu: Vec<u32> = words
            .chunks(2)
            .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
            .collect();
        let cpu: Vec<u32> = cpu::render_f64(&prep)
            .unwrap()
            .iter()
            .map(|&v| u32::from(level16(v, range)))
            .collect();
        assert_levels_close(&format!("r16 {:?}", spec.size), &gpu, &cpu);
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn wrong_usage_format_or_size_is_a_typed_error_before_anything_is_recorded() {
    use wgpu::BufferUsages as B;
    use wgpu::TextureDimension as D;
    use wgpu::TextureFormat as F;
    use wgpu::TextureUsages as T;
    let (device, queue, _) = caller_device();
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let spec = fbm(2, Size::new(16, 8, 1));
    let prep = spec.validate().unwrap();
    let buffer = |size: u64, usage: B| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage,
            mapped_at_creation: false,
        })
    };
    let mut encoder = device.create_command_encoder(&Default::default());
    let bad_buffers = [
        (buffer(512, B::COPY_SRC), 0, "STORAGE"),
        (buffer(1024, B::STORAGE), 4, "multiple"),
        (buffer(256, B::STORAGE), 0, "bytes"),
    ];
    for (b, offset, says) in bad_buffers {
        match renderer.record(&mut encoder, &prep, Target::Buffer { buffer: &b, offset }) {
            Err(Error::InvalidTarget {
                target: "buffer",
                reason,
            }) => {
                assert!(reason.contains(says), "{reason}")
            }
            other => panic!("expected a buffer error about {says}, got {other:?}"),
        }
    }
    let out = TextureOutput::default();
    let storage = T::STORAGE_BINDING;
    let bad_textures = [
        (
            texture(&device, Size::new(16, 9, 1), D::D2, F::R32Float, storage),
            "size",
        ),
        (
            texture(&device, spec.size, D::D2, F::Rgba16Float, storage),
            "not a target",
        ),
        (
            texture(&device, spec.size, D::D2, F::R32Float, T::COPY_SRC),
            "STORAGE_BINDING",
        ),
        (
            texture(&device, Size::new(16, 8, 2), D::D2, F::Rgba8Unorm, storage),
            "size",
        ),
        // The same usages on every backend: GL fills 3D targets by copy, so Vulkan asks too.
        (
            texture(&device, spec.size, D::D3, F::R32Float, storage),
            "needs usage COPY_DST | STORAGE_BINDING, has STORAGE_BINDING",
        ),
    ];
    for (t, says) in bad_textures {
        match renderer.record(
            &mut encoder,
            &prep,
            Target::Texture {
                texture: &t,
                output: &out,
            },
        ) {
            Err(Error::InvalidTarget {
                target: "texture",
                reason,
            }) => {
                assert!(reason.contains(says), "{says}: {reason}");
                assert!(!reason.contains("Usages("), "wgpu's Debug text: {reason}");
            }
            other => panic!("expected a texture error about {says}, got {other:?}"),
        }
    }
    let fixed = TextureOutput {
        range: Range::Fixed(1.0, 1.0),
        ..Default::default()
    };
    let good = texture(&device, spec.size, D::D2, F::Rgba8Unorm, storage);
    let empty_range = renderer.record(
        &mut encoder,
        &prep,
        Target::Texture {
            texture: &good,
            output: &fixed,
        },
    );
    assert!(
        matches!(
            empty_range,
            Err(Error::InvalidOutput { field: "range", .. })
        ),
        "{empty_range:?}"
    );
    // Nothing invalid was recorded: the encoder finishes and submits without a validation error.
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    queue.submit([encoder.finish()]);
    assert!(pollster::block_on(scope.pop()).is_none());
}

/// Derivative targets on the caller's device: values and partials into its buffer (4 f32 per
/// texel), and a normal map into its Rgba8Unorm texture, both against the twin; a texture of
/// another format is a typed error.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn gradient_buffers_and_normal_maps_on_the_callers_device() {
    let (device, queue, _) = caller_device();
    let mut r = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let mut s = NoiseSpec::new(Kind::Value, 3);
    s.size = Size::new(24, 16, 1);
    s.fractal = Fractal::Billow;
    s.octaves = 3;
    s.offset = [-5e11, 3.25, 0.5, 0.0];
    let prep = s.validate().unwrap();
    let bytes = s.size.texels() * 16;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("gradients"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC;
    let map = texture(
        &device,
        s.size,
        wgpu::TextureDimension::D2,
        wgpu::TextureFormat::Rgba8Unorm,
        usage,
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    let gradient = prep.with_gradient().unwrap();
    let normals = TextureOutput {
        normal_strength: 4.0,
        ..TextureOutput::default()
    };
    let values = Target::Buffer {
        buffer: &buffer,
        offset: 0,
    };
    r.record(&mut encoder, &gradient, values).unwrap();
    let normal_map = Target::Texture {
        texture: &map,
        output: &normals,
    };
    r.record(&mut encoder, &gradient, normal_map).unwrap();
    queue.submit([encoder.finish()]);
    let gpu: Vec<f32> =
        bytemuck::cast_slice(&read_buffer(&device, &queue, &buffer, bytes)).to_vec();
    let twin = cpu::render_gradient_f64(&prep).unwrap();
    let pixels = read_texture(&device, &queue, &map, 4);
    for (n, d) in twin.iter().enumerate() {
        for c in 0..4 {
            assert!(
                (f64::from(gpu[4 * n + c]) - d[c]).abs() < 1e-4,
                "texel {n} channel {c}"
            );
        }
        let v: [f64; 3] = [-4.0 * d[1], 4.0 * d[2], 1.0];
        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        for c in 0..3 {
            let level = ((v[c] / len * 0.5 + 0.5) * 255.0).round();
            assert!(
                (f64::from(pixels[4 * n + c]) - level).abs() <= 1.0,
                "texel {n}"
            );
        }
    }
    let r32 = texture(
        &device,
        s.size,
        wgpu::TextureDimension::D2,
        wgpu::TextureFormat::R32Float,
        usage,
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    let target = Target::Texture {
        texture: &r32,
        output: &normals,
    };
    assert!(matches!(
        r.record(&mut encoder, &gradient, target),
        Err(Error::InvalidTarget { .. })
    ));
}

/// Colormap stops are interpolated at each value on the GPU too (issue 13, point 5): a map
/// whose third stop lies far out (-1 black, 1 white, 1000 red) is a plain gray ramp over the
/// noise's range, each texel's gray `255 (v + 1) / 2` of the twin's value within one level.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn colormap_stops_are_exact_on_the_gpu() {
    let (device, queue, _) = caller_device();
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let spec = fbm(2, Size::new(33, 17, 1));
    let prep = spec.validate().unwrap();
    let reference = cpu::render_f64(&prep).unwrap();
    let output = TextureOutput {
        range: Range::Auto,
        colormap: "-1:#000000,1:#ffffff,1000:#ff0000".parse().unwrap(),
        ..TextureOutput::default()
    };
    let usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC;
    let rgba = texture(
        &device,
        spec.size,
        wgpu::TextureDimension::D2,
        wgpu::TextureFormat::Rgba8Unorm,
        usage,
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    renderer
        .record(
            &mut encoder,
            &prep,
            Target::Texture {
                texture: &rgba,
                output: &output,
            },
        )
        .unwrap();
    queue.submit([encoder.finish()]);
    let colors = read_texture(&device, &queue, &rgba, 4);
    let mut grays = std::collections::BTreeSet::new();
    for (c, v) in colors.chunks(4).zip(&reference) {
        let expected = 255.0 * (v.clamp(-1.0, 1.0) + 1.0) / 2.0;
        assert!(c[0] == c[1] && c[1] == c[2], "not gray: {c:?} at {v}");
        assert!((f64::from(c[0]) - expected).abs() <= 1.0, "{c:?} for {v}");
        grays.insert(c[0]);
    }
    assert!(grays.len() > 40, "only {} grays", grays.len());
}

/// Issue 13, point 12: on a device made with `Limits::downlevel_defaults()` (4 storage buffers
/// per stage) the renderer opens and fills buffers, and a target needing a fifth storage buffer
/// is `Error::Unsupported` naming the limit; under `downlevel_webgl2_defaults()` (no storage
/// buffers) the bindings are refused the same way. No wgpu validation error escapes: wgpu's
/// default handler would panic the test.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn small_device_limits_are_named_errors_and_buffers_work_within_downlevel_defaults() {
    let (device, queue, _) =
        crate::support::caller_device_with(Some(wgpu::Limits::downlevel_defaults()));
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default()).unwrap();
    let spec = fbm(2, Size::new(24, 8, 1));
    let prep = spec.validate().unwrap();
    let values = renderer.read(&prep, Window::full(prep.size())).unwrap();
    let twin = cpu::render_f64(&prep).unwrap();
    let bound = gpu_error_bound(&spec);
    for (g, c) in values.iter().zip(&twin) {
        assert!((f64::from(*g) - c).abs() <= bound.value, "{g} vs {c}");
    }
    let rgba = texture(
        &device,
        spec.size,
        wgpu::TextureDimension::D2,
        wgpu::TextureFormat::Rgba8Unorm,
        wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    let output = TextureOutput {
        range: Range::Fixed(-1.0, 1.0),
        colormap: Colormap::Gray,
        ..TextureOutput::default()
    };
    match renderer.record(
        &mut encoder,
        &prep,
        Target::Texture {
            texture: &rgba,
            output: &output,
        },
    ) {
        Err(Error::Unsupported(why)) => {
            assert!(
                why.contains("max_storage_buffers_per_shader_stage >= 5"),
                "{why}"
            )
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
    let (small, _, _) =
        crate::support::caller_device_with(Some(wgpu::Limits::downlevel_webgl2_defaults()));
    match gpu_noise::gpu::NoiseBindings::new(&small) {
        Err(Error::Unsupported(why)) => assert!(why.contains("max_storage_buffers"), "{why}"),
        other => panic!("expected Unsupported, got {:?}", other.map(|_| ())),
    }
    assert!(matches!(
        Renderer::new(&small, &queue, RendererOptions::default()),
        Err(Error::Unsupported(_))
    ));
}
