//! Streaming a world in chunks on the caller's own device, far from the origin: a camera flies
//! east from beyond 1e9 texels; each frame, the chunks within two of the camera's chunk that
//! are not resident yet are rendered by gpu-noise into their own height buffers
//! (`Job::chunk` + `Renderer::record`), and this example's own compute pass builds each
//! chunk's mesh (camera-relative positions and normals) on the GPU, with no readback. Chunks
//! that leave the ring are dropped. At the end the resident meshes are read back once to check
//! that neighbours share their border vertices bit for bit and to write a hillshaded picture.
//!
//! ```text
//! cargo run --release --example chunks -- [--frames 24] [--size 32] [--png chunks.png]
//! ```

use std::collections::HashMap;

use gpu_noise::{Chunk, Colormap, Fractal, Job, Kind, NoiseSpec, spec::LatticeKind};
use gpu_noise::{Renderer, gpu::RendererOptions, gpu::Target};

#[path = "support/mod.rs"]
mod support;
use support::{buffer, open_device, read_f32};

/// Chunks on each side of the camera's chunk that stay resident.
const RING: i64 = 2;
/// Heights are scaled by this many texels.
const RELIEF: f32 = 24.0;
/// Where the camera starts, in world texels: beyond 1e9 on both axes.
const START: [i64; 2] = [1_000_000_007, -1_500_000_003];
/// Texels the camera moves east per frame.
const SPEED: i64 = 13;

/// The example's mesh pass: one vertex per texel, position (x, height, z) relative to the
/// camera's chunk (small f32 numbers however far out the world is), normal by central
/// differences inside the chunk (one-sided at its borders).
const MESH_SHADER: &str = r#"
struct Grid { side: u32, relief: f32, origin_x: f32, origin_z: f32 }
@group(0) @binding(0) var<uniform> grid: Grid;
@group(0) @binding(1) var<storage, read> heights: array<f32>;
@group(0) @binding(2) var<storage, read_write> vertices: array<f32>;

fn height_at(x: i32, y: i32) -> f32 {
    let last = i32(grid.side) - 1;
    return heights[u32(clamp(y, 0, last)) * grid.side + u32(clamp(x, 0, last))] * grid.relief;
}

@compute @workgroup_size(8, 8)
fn build_mesh(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= grid.side || id.y >= grid.side {
        return;
    }
    let x = i32(id.x);
    let y = i32(id.y);
    let dx = height_at(x + 1, y) - height_at(x - 1, y);
    let dz = height_at(x, y + 1) - height_at(x, y - 1);
    let n = normalize(vec3<f32>(-dx, 2.0, -dz));
    let v = (id.y * grid.side + id.x) * 6u;
    vertices[v] = grid.origin_x + f32(id.x);
    vertices[v + 1u] = height_at(x, y);
    vertices[v + 2u] = grid.origin_z + f32(id.y);
    vertices[v + 3u] = n.x;
    vertices[v + 4u] = n.y;
    vertices[v + 5u] = n.z;
}
"#;

struct Args {
    frames: u32,
    size: u32,
    png: String,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        frames: 24,
        size: 32,
        png: "chunks.png".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u32>()
                .map_err(|_| format!("{flag}: {value:?}"))
        };
        match flag.as_str() {
            "--frames" => args.frames = number()?,
            "--size" => args.size = number()?.clamp(4, 256),
            "--png" => args.png = value,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(args)
}

/// The mesh pipeline, made once.
struct Mesher {
    pipeline: wgpu::ComputePipeline,
}

impl Mesher {
    fn new(device: &wgpu::Device) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("chunk mesh"),
            source: wgpu::ShaderSource::Wgsl(MESH_SHADER.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("chunk mesh"),
            layout: None,
            module: &module,
            entry_point: Some("build_mesh"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { pipeline }
    }

    /// Records one chunk's mesh pass; `origin` is its first texel relative to the anchor.
    fn record(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, chunk: &Resident) {
        use wgpu::util::DeviceExt;
        let grid: [u32; 4] = [
            chunk.side,
            RELIEF.to_bits(),
            chunk.origin[0].to_bits(),
            chunk.origin[1].to_bits(),
        ];
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("grid"),
            contents: bytemuck::cast_slice(&grid),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let entries = [&uniform, &chunk.heights, &chunk.vertices];
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("chunk mesh"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &entries
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: b.as_entire_binding(),
                })
                .collect::<Vec<_>>(),
        });
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(chunk.side.div_ceil(8), chunk.side.div_ceil(8), 1);
    }
}

/// A resident chunk: its heights and mesh on the GPU.
struct Resident {
    side: u32,
    origin: [f32; 2],
    heights: wgpu::Buffer,
    vertices: wgpu::Buffer,
}

/// The world: ridged perlin on the hash lattice (no 256-cell repeats), 6 octaves.
fn world() -> Result<Job, gpu_noise::Error> {
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.fractal = Fractal::Ridged;
    spec.octaves = 6;
    spec.frequency = 1.0 / 96.0;
    spec.lattice = LatticeKind::Hash;
    spec.seed = 2026;
    spec.validate()
}

struct Streamer<'a> {
    device: &'a wgpu::Device,
    queue: &'a wgpu::Queue,
    renderer: Renderer,
    mesher: Mesher,
    world: Job,
    size: u32,
    /// Every mesh position is relative to this chunk, the camera's first.
    anchor: [i64; 2],
    resident: HashMap<[i64; 2], Resident>,
    rendered: u64,
}

impl Streamer<'_> {
    /// Makes the ring around `center` resident (rendering and meshing what is missing, in one
    /// submission) and drops the chunks outside it.
    fn update(&mut self, center: [i64; 2]) -> Result<(), Box<dyn std::error::Error>> {
        self.resident
            .retain(|c, _| (c[0] - center[0]).abs() <= RING && (c[1] - center[1]).abs() <= RING);
        let mut encoder = self.device.create_command_encoder(&Default::default());
        for cy in center[1] - RING..=center[1] + RING {
            for cx in center[0] - RING..=center[0] + RING {
                if !self.resident.contains_key(&[cx, cy]) {
                    let chunk = self.make_resident(&mut encoder, [cx, cy])?;
                    self.resident.insert([cx, cy], chunk);
                }
            }
        }
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    fn make_resident(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        at: [i64; 2],
    ) -> Result<Resident, Box<dyn std::error::Error>> {
        let side = self.size + 1;
        let texels = u64::from(side) * u64::from(side);
        let prep = self
            .world
            .chunk(&Chunk::new([at[0], at[1], 0], self.size, 0))?;
        let heights = buffer(
            self.device,
            "heights",
            texels * 4,
            wgpu::BufferUsages::STORAGE,
        );
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let vertices = buffer(self.device, "vertices", texels * 24, usage);
        let target = Target::Buffer {
            buffer: &heights,
            offset: 0,
        };
        self.renderer.record(encoder, &prep, target)?;
        let n = i64::from(self.size);
        let origin = [0, 1].map(|a| ((at[a] - self.anchor[a]) * n) as f32);
        let chunk = Resident {
            side,
            origin,
            heights,
            vertices,
        };
        self.mesher.record(self.device, encoder, &chunk);
        self.rendered += 1;
        Ok(chunk)
    }
}

/// Resident meshes read back: 6 f32 per vertex, by chunk coordinates.
type Meshes = HashMap<[i64; 2], Vec<f32>>;

/// Reads every resident mesh back once; counts border vertices that neighbours share and
/// fails on any that differ.
fn check_seams(s: &Streamer) -> Result<(u64, Meshes), String> {
    let meshes: Meshes = s
        .resident
        .iter()
        .map(|(c, r)| (*c, read_f32(s.device, s.queue, &r.vertices)))
        .collect();
    let side = s.size as usize + 1;
    let vertex =
        |m: &[f32], i: usize, j: usize| m[(j * side + i) * 6..(j * side + i) * 6 + 3].to_vec();
    let mut shared = 0;
    for (c, mesh) in &meshes {
        for (dx, dy) in [(1, 0), (0, 1)] {
            let Some(next) = meshes.get(&[c[0] + dx, c[1] + dy]) else {
                continue;
            };
            for k in 0..side {
                let (a, b) = if dx == 1 {
                    (vertex(mesh, side - 1, k), vertex(next, 0, k))
                } else {
                    (vertex(mesh, k, side - 1), vertex(next, k, 0))
                };
                let same = a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits());
                if !same {
                    return Err(format!(
                        "seam between {c:?} and its neighbour: {a:?} vs {b:?}"
                    ));
                }
                shared += 1;
            }
        }
    }
    Ok((shared, meshes))
}

/// The resident ring as one hillshaded, colormapped picture (north-west light).
fn write_picture(
    path: &str,
    s: &Streamer,
    center: [i64; 2],
    meshes: &Meshes,
) -> Result<(), Box<dyn std::error::Error>> {
    let n = s.size as usize;
    let width = (2 * RING as usize + 1) * n + 1;
    let colors = Colormap::Terrain.table((-f64::from(RELIEF), f64::from(RELIEF)));
    let light = [-0.5f32, 0.7, -0.5];
    let norm = light.iter().map(|c| c * c).sum::<f32>().sqrt();
    let mut pixels = vec![0u8; width * width * 3];
    for (c, mesh) in meshes {
        let (ox, oy) = (
            (c[0] - center[0] + RING) as usize * n,
            (c[1] - center[1] + RING) as usize * n,
        );
        for (t, v) in mesh.chunks(6).enumerate() {
            let (x, y) = (ox + t % (n + 1), oy + t / (n + 1));
            let range = (-f64::from(RELIEF), f64::from(RELIEF));
            let color =
                colors[usize::from(gpu_noise::low_level::levels::level8(f64::from(v[1]), range))];
            let lit = (v[3] * light[0] + v[4] * light[1] + v[5] * light[2]) / norm;
            let shade = 0.35 + 0.65 * lit.max(0.0);
            for i in 0..3 {
                pixels[(y * width + x) * 3 + i] = (f32::from(color[i]) * shade).round() as u8;
            }
        }
    }
    let side = width as u32;
    image::RgbImage::from_raw(side, side, pixels)
        .ok_or("picture size")?
        .save(path)?;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    let (device, queue) = open_device("chunks")?;
    let n = i64::from(args.size);
    let chunk_of = |t: [i64; 2]| t.map(|v| v.div_euclid(n));
    let mut s = Streamer {
        device: &device,
        queue: &queue,
        renderer: Renderer::new(&device, &queue, RendererOptions::default())?,
        mesher: Mesher::new(&device),
        world: world()?,
        size: args.size,
        anchor: chunk_of(START),
        resident: HashMap::new(),
        rendered: 0,
    };
    let start = std::time::Instant::now();
    let mut camera = START;
    for _ in 0..args.frames {
        s.update(chunk_of(camera))?;
        camera[0] += SPEED;
    }
    let center = chunk_of([camera[0] - SPEED, camera[1]]);
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    let elapsed = start.elapsed();
    let (shared, meshes) = check_seams(&s)?;
    write_picture(&args.png, &s, center, &meshes)?;
    println!(
        "{} frames: camera from texel {START:?} to {:?}; {} chunks of {n}x{n} rendered and meshed \
         on the GPU in {:.2} s; {} resident; {shared} shared border vertices identical; wrote {}",
        args.frames,
        [camera[0] - SPEED, camera[1]],
        s.rendered,
        elapsed.as_secs_f64(),
        s.resident.len(),
        args.png
    );
    Ok(())
}
