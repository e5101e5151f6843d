//! The GPU peer: webgl-noise's published GLSL functions (Ian McEwan, Ashima Arts, and Stefan
//! Gustavson; MIT), read at run time from the npm package `glsl-noise` that
//! `npm ci --prefix bench/peers` installs, wrapped in a minimal compute shader of our own that
//! writes one f32 per texel to a storage buffer, and compiled by wgpu's GLSL front end. The
//! functions are unseeded and take an f32 point: the same grid in lattice units as gpu-noise's
//! frequency gives its kernels.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use gpu_noise::{Error, Result};

/// Where `npm ci --prefix bench/peers` puts the package, relative to the repository root.
pub const DEFAULT_DIR: &str = "bench/peers/node_modules/glsl-noise";

const WORKGROUP: u32 = 8;

/// One function of the package and the point it is called with (`p`: the texel's lattice point,
/// z fixed for a 2D slice of 3D noise).
#[derive(Clone, Copy, Debug)]
pub struct PeerFunction {
    pub file: &'static str,
    pub call: &'static str,
}

pub const SIMPLEX_2D: PeerFunction = PeerFunction {
    file: "simplex/2d.glsl",
    call: "snoise(p.xy)",
};
pub const SIMPLEX_3D: PeerFunction = PeerFunction {
    file: "simplex/3d.glsl",
    call: "snoise(p)",
};
pub const CLASSIC_3D: PeerFunction = PeerFunction {
    file: "classic/3d.glsl",
    call: "cnoise(p)",
};

/// The function's source from the package, without glslify's export pragma.
pub fn function_source(dir: &Path, f: PeerFunction) -> Result<String> {
    let path = dir.join(f.file);
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Io {
        path: path.clone(),
        source,
    })?;
    Ok(text
        .lines()
        .filter(|l| !l.trim_start().starts_with("#pragma glslify"))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// The compute shader around a function: texel (x, y) of a w x h grid samples
/// p = (x, y, 0) * frequency + origin and writes row-major f32.
pub fn compute_shader(functions: &str, call: &str) -> String {
    format!(
        "#version 450\n\
         layout(local_size_x = {WORKGROUP}, local_size_y = {WORKGROUP}) in;\n\
         layout(set = 0, binding = 0) uniform Grid {{ uvec4 extent; vec4 origin; vec4 frequency; }};\n\
         layout(set = 0, binding = 1) buffer Values {{ float values[]; }};\n\
         {functions}\n\
         void main() {{\n\
           uvec2 t = gl_GlobalInvocationID.xy;\n\
           if (t.x >= extent.x || t.y >= extent.y) {{ return; }}\n\
           vec3 p = vec3(vec2(t), 0.0) * frequency.xyz + origin.xyz;\n\
           values[t.y * extent.x + t.x] = {call};\n\
         }}\n"
    )
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Grid {
    extent: [u32; 4],
    origin: [f32; 4],
    frequency: [f32; 4],
}

/// A compiled peer kernel bound to its grid and output buffer.
pub struct PeerKernel {
    pipeline: wgpu::ComputePipeline,
    group: wgpu::BindGroup,
    side: u32,
    /// The values; the bench times the writes only, the tests read them back.
    #[cfg_attr(not(test), allow(dead_code))]
    pub output: wgpu::Buffer,
}

impl PeerKernel {
    /// Compiles `f` from the package in `dir` for a side x side grid at `frequency` lattice
    /// units per texel, reporting a GLSL error as an error, never as a panic.
    pub fn new(
        device: &wgpu::Device,
        dir: &Path,
        f: PeerFunction,
        side: u32,
        frequency: f32,
    ) -> Result<Self> {
        let source = compute_shader(&function_source(dir, f)?, f.call);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(f.file),
            source: wgpu::ShaderSource::Glsl {
                shader: Cow::Owned(source),
                stage: wgpu::naga::ShaderStage::Compute,
                defines: &[],
            },
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(f.file),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::Unsupported(format!("webgl-noise {}: {e}", f.file)));
        }
        let grid = Grid {
            extent: [side, side, 1, 0],
            origin: [0.0; 4],
            frequency: [frequency, frequency, 0.0, 0.0],
        };
        Self::bind(device, pipeline, grid)
    }

    fn bind(device: &wgpu::Device, pipeline: wgpu::ComputePipeline, grid: Grid) -> Result<Self> {
        use wgpu::util::DeviceExt;
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("webgl-noise grid"),
            contents: bytemuck::bytes_of(&grid),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let side = grid.extent[0];
        let output = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("webgl-noise values"),
            size: u64::from(side) * u64::from(side) * 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("webgl-noise"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: output.as_entire_binding(),
                },
            ],
        });
        Ok(PeerKernel {
            pipeline,
            group,
            side,
            output,
        })
    }

    /// Records one dispatch over the whole grid.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder) {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        let groups = self.side.div_ceil(WORKGROUP);
        pass.dispatch_workgroups(groups, groups, 1);
    }
}

/// The package's directory: `--webgl-noise DIR`, or the default under the working directory.
pub fn package_dir(flag: Option<PathBuf>) -> Result<PathBuf> {
    let dir = flag.unwrap_or_else(|| PathBuf::from(DEFAULT_DIR));
    if dir.join(SIMPLEX_2D.file).is_file() {
        return Ok(dir);
    }
    Err(Error::InvalidSpec {
        field: "webgl-noise",
        reason: format!(
            "{} has no webgl-noise functions; install them with `npm ci --prefix bench/peers` \
             in the repository, or pass --webgl-noise DIR (the unpacked npm package glsl-noise)",
            dir.display()
        ),
    })
}

#[cfg(test)]
mod tests {
    //! The peers need the npm package: `npm ci --prefix bench/peers` (as .ci/run does). Without
    //! it these tests fail and say so; they never pass by skipping.

    use super::*;
    use gpu_noise::{Renderer, gpu::AdapterChoice, gpu::RendererOptions};

    const PEERS: [PeerFunction; 3] = [SIMPLEX_2D, SIMPLEX_3D, CLASSIC_3D];

    fn package() -> PathBuf {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        package_dir(Some(root.join(DEFAULT_DIR))).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_wrapped_peer_shaders_validate_with_naga() {
        for f in PEERS {
            let source = compute_shader(&function_source(&package(), f).unwrap(), f.call);
            let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
            let module = naga::front::glsl::Frontend::default()
                .parse(&options, &source)
                .unwrap_or_else(|e| panic!("{}: {}", f.file, e.emit_to_string(&source)));
            naga::valid::Validator::new(Default::default(), Default::default())
                .validate(&module)
                .unwrap_or_else(|e| panic!("{}: {e:?}", f.file));
        }
    }

    #[test]
    #[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
    fn the_peer_kernels_render_noise_in_their_published_range() {
        let choice = AdapterChoice::from_env().unwrap();
        let renderer = pollster::block_on(Renderer::open(&choice, RendererOptions::default()))
            .unwrap_or_else(|e| panic!("{e}: the GPU tests need an adapter (README)"));
        let (device, queue) = (renderer.device(), renderer.queue());
        for f in PEERS {
            let kernel = PeerKernel::new(device, &package(), f, 64, 0.173).unwrap();
            let values = read_back(device, queue, &kernel);
            let n = values.len() as f64;
            let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / n;
            let sd = (values
                .iter()
                .map(|&v| (f64::from(v) - mean).powi(2))
                .sum::<f64>()
                / n)
                .sqrt();
            // webgl-noise documents its output range as [-1, 1]; noise has mean near 0.
            assert!(values.iter().all(|v| v.abs() <= 1.0), "{}", f.file);
            assert!(
                mean.abs() < 0.1 && (0.1..0.7).contains(&sd),
                "{}: mean {mean}, sd {sd}",
                f.file
            );
        }
    }

    fn read_back(device: &wgpu::Device, queue: &wgpu::Queue, kernel: &PeerKernel) -> Vec<f32> {
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: kernel.output.size(),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        kernel.record(&mut encoder);
        encoder.copy_buffer_to_buffer(&kernel.output, 0, &staging, 0, kernel.output.size());
        queue.submit([encoder.finish()]);
        staging.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        super::super::clock::wait(device).unwrap();
        let view = staging.slice(..).get_mapped_range().unwrap();
        bytemuck::cast_slice(&view).to_vec()
    }
}
