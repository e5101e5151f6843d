//! A terrain pipeline on the caller's own device: gpu-noise renders a ridged heightmap into a
//! storage buffer, then this example's own compute pass turns it into a vertex buffer
//! (positions and normals) on the same device, with no readback in between. Only the finished
//! mesh comes back, to be written as a binary PLY and a hillshaded, colormapped PNG preview.
//!
//! ```text
//! cargo run --release --example terrain -- [--size 512] [--ply terrain.ply] [--png terrain.png]
//! ```

use std::io::Write;

use gpu_noise::{
    Colormap, Fractal, Kind, NoiseSpec, Renderer, Size, gpu::RendererOptions, gpu::Target,
};

#[path = "support/mod.rs"]
mod support;
use support::{buffer, open_device, read_f32};

/// Heights are scaled by this many grid steps.
const RELIEF: f32 = 40.0;

/// The example's own shader: one vertex per texel, position (x, height, z) and the normal of
/// the height field by central differences (clamped at the edges).
const MESH_SHADER: &str = r#"
struct Grid { width: u32, height: u32, relief: f32, _pad: u32 }
@group(0) @binding(0) var<uniform> grid: Grid;
@group(0) @binding(1) var<storage, read> heights: array<f32>;
@group(0) @binding(2) var<storage, read_write> vertices: array<f32>;

fn height_at(x: i32, y: i32) -> f32 {
    let cx = u32(clamp(x, 0, i32(grid.width) - 1));
    let cy = u32(clamp(y, 0, i32(grid.height) - 1));
    return heights[cy * grid.width + cx] * grid.relief;
}

@compute @workgroup_size(8, 8)
fn build_mesh(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= grid.width || id.y >= grid.height {
        return;
    }
    let x = i32(id.x);
    let y = i32(id.y);
    let h = height_at(x, y);
    let dx = height_at(x + 1, y) - height_at(x - 1, y);
    let dz = height_at(x, y + 1) - height_at(x, y - 1);
    let n = normalize(vec3<f32>(-dx, 2.0, -dz));
    let v = (id.y * grid.width + id.x) * 6u;
    vertices[v] = f32(id.x);
    vertices[v + 1u] = h;
    vertices[v + 2u] = f32(id.y);
    vertices[v + 3u] = n.x;
    vertices[v + 4u] = n.y;
    vertices[v + 5u] = n.z;
}
"#;

fn parse_args() -> Result<(u32, String, String), String> {
    let (mut size, mut ply, mut png) = (512, "terrain.ply".to_string(), "terrain.png".to_string());
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--size" => size = value.parse().map_err(|_| format!("--size: {value:?}"))?,
            "--ply" => ply = value,
            "--png" => png = value,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok((size, ply, png))
}

/// Records the mesh pass: heights in, vertices (6 f32 each) out.
fn record_mesh_pass(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    side: u32,
    heights: &wgpu::Buffer,
    vertices: &wgpu::Buffer,
) {
    use wgpu::util::DeviceExt;
    let grid: [u32; 4] = [side, side, RELIEF.to_bits(), 0];
    let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("grid"),
        contents: bytemuck::cast_slice(&grid),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("mesh"),
        source: wgpu::ShaderSource::Wgsl(MESH_SHADER.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("mesh"),
        layout: None,
        module: &module,
        entry_point: Some("build_mesh"),
        compilation_options: Default::default(),
        cache: None,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("mesh"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: heights.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: vertices.as_entire_binding(),
            },
        ],
    });
    let mut pass = encoder.begin_compute_pass(&Default::default());
    pass.set_pipeline(&pipeline);
    pass.set_bind_group(0, &group, &[]);
    pass.dispatch_workgroups(side.div_ceil(8), side.div_ceil(8), 1);
}

/// Binary little-endian PLY: vertices with normals, two triangles per grid square.
fn write_ply(path: &str, side: u32, vertices: &[f32]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    let n = side * side;
    let faces = 2 * (side - 1) * (side - 1);
    write!(
        out,
        "ply\nformat binary_little_endian 1.0\ncomment gpu-noise terrain example\n\
         element vertex {n}\nproperty float x\nproperty float y\nproperty float z\n\
         property float nx\nproperty float ny\nproperty float nz\n\
         element face {faces}\nproperty list uchar uint vertex_indices\nend_header\n"
    )?;
    for v in vertices {
        out.write_all(&v.to_le_bytes())?;
    }
    for y in 0..side - 1 {
        for x in 0..side - 1 {
            let a = y * side + x;
            let (b, c, d) = (a + 1, a + side, a + side + 1);
            for tri in [[a, c, b], [b, c, d]] {
                out.write_all(&[3u8])?;
                for i in tri {
                    out.write_all(&i.to_le_bytes())?;
                }
            }
        }
    }
    out.flush()
}

/// Terrain colors by height, shaded by the normals under a light from the north-west.
fn write_preview(path: &str, side: u32, vertices: &[f32]) -> image::ImageResult<()> {
    let colors = Colormap::Terrain.table((-RELIEF as f64, RELIEF as f64));
    let light = [-0.5f32, 0.7, -0.5];
    let norm = (light.iter().map(|c| c * c).sum::<f32>()).sqrt();
    let pixels: Vec<u8> = vertices
        .chunks(6)
        .flat_map(|v| {
            let level = gpu_noise::low_level::levels::level8(
                f64::from(v[1]),
                (-RELIEF as f64, RELIEF as f64),
            );
            let c = colors[usize::from(level)];
            let lit = (v[3] * light[0] + v[4] * light[1] + v[5] * light[2]) / norm;
            let shade = 0.35 + 0.65 * lit.max(0.0);
            [0, 1, 2].map(|i| (f32::from(c[i]) * shade).round() as u8)
        })
        .collect();
    image::RgbImage::from_raw(side, side, pixels)
        .map(|img| img.save(path))
        .unwrap_or(Ok(()))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (side, ply, png) = parse_args()?;
    let (device, queue) = open_device("terrain")?;
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.size = Size::new(side, side, 1);
    spec.frequency = 3.0 / f64::from(side);
    spec.fractal = Fractal::Ridged;
    spec.octaves = 7;
    spec.seed = 7;
    let prepared = spec.validate()?;
    let mut renderer = Renderer::new(&device, &queue, RendererOptions::default())?;
    let texels = u64::from(side) * u64::from(side);
    let heights = buffer(&device, "heights", texels * 4, wgpu::BufferUsages::STORAGE);
    let vertices = buffer(
        &device,
        "vertices",
        texels * 24,
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    );
    // One encoder: the heightmap and the mesh pass, no readback in between.
    let mut encoder = device.create_command_encoder(&Default::default());
    let target = Target::Buffer {
        buffer: &heights,
        offset: 0,
    };
    renderer.record(&mut encoder, &prepared, target)?;
    record_mesh_pass(&device, &mut encoder, side, &heights, &vertices);
    queue.submit([encoder.finish()]);
    let mesh = read_f32(&device, &queue, &vertices); // the only readback
    if mesh.len() as u64 != texels * 6 {
        return Err("reading the vertex buffer back failed".into());
    }
    write_ply(&ply, side, &mesh)?;
    write_preview(&png, side, &mesh)?;
    let (lo, hi) = mesh.chunks(6).fold((f32::MAX, f32::MIN), |(lo, hi), v| {
        (lo.min(v[1]), hi.max(v[1]))
    });
    println!(
        "wrote {ply} ({texels} vertices, {} triangles) and {png}; heights {lo:.2}..{hi:.2}",
        2 * (side - 1) * (side - 1)
    );
    Ok(())
}
