//! [`Renderer`]: the kernels, their pipelines, the noise library's bindings and a few scratch
//! buffers on one device, built once and reused for every render. The device is the caller's
//! ([`Renderer::new`], vello's shape) or one the crate opens ([`Renderer::open`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use wgpu::util::StagingBelt;

use super::adapter::{AdapterChoice, AdapterSummary, best_adapter, new_instance};
use super::bindings::NoiseBindings;
use super::params::RenderParams;
use super::pipelines::{Entry, NoiseKey, PipelineCache};
use super::readback::StagingPool;
use super::stats::RenderStats;
use crate::error::{Error, Result};
use crate::spec::Prepared;
use crate::wgsl::sources::{TILE_SIZE, WORKGROUP_SIZE};

/// Knobs for tests and tuning; the defaults follow the device's limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct RendererOptions {
    /// Read back at most this many texels per band (the device's limits cap it anyway).
    pub max_chunk_texels: Option<u32>,
    /// Device features to ask for where the adapter has them, beyond the crate's own (for
    /// example timestamp queries for a profiler); used by [`Renderer::open`] and
    /// [`Renderer::from_adapter`].
    pub features: wgpu::Features,
}

/// Errors the crate's own device reported outside any error scope, and whether it was lost.
#[derive(Clone, Default)]
struct Health {
    lost: Arc<Mutex<Option<String>>>,
    error: Arc<Mutex<Option<Caught>>>,
}

/// What the uncaptured-error handler keeps. Its closure must be `Send`, and `wgpu::Error` is
/// not `Send` on the web (its source is a JavaScript error), so there it keeps the text.
#[cfg(not(target_arch = "wasm32"))]
type Caught = wgpu::Error;
#[cfg(target_arch = "wasm32")]
type Caught = String;

#[cfg(not(target_arch = "wasm32"))]
fn catch(error: wgpu::Error) -> Caught {
    error
}

#[cfg(target_arch = "wasm32")]
fn catch(error: wgpu::Error) -> Caught {
    error.to_string()
}

#[cfg(not(target_arch = "wasm32"))]
fn release(caught: Caught) -> wgpu::Error {
    caught
}

#[cfg(target_arch = "wasm32")]
fn release(caught: Caught) -> wgpu::Error {
    wgpu::Error::Validation {
        source: caught.clone().into(),
        description: caught,
    }
}

/// What a group-2 bind group binds; bind groups are cached by it and reused across frames.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TargetKey {
    /// A buffer range at binding 0 (`render_buffer`) or 7 (`pack_r16`).
    Buffer(Entry, wgpu::Buffer, u64, u64),
    /// A storage texture (`render_r32_*`, `render_rgba8`).
    Texture(Entry, wgpu::Texture),
    /// Output values and points (`sample_points`).
    Sample(wgpu::Buffer, wgpu::Buffer),
    /// The min/max buffers (`range_partial`, `range_final`).
    Range(Entry),
}

/// Bind groups kept at most; the cache is cleared past it (callers that make new textures
/// every frame must not grow it without bound).
const TARGET_CACHE: usize = 64;
const BELT_CHUNK: u64 = 16 * 1024;

/// Renders noise on a device: into the caller's buffers and textures (recorded into the
/// caller's encoder, never submitted on the caller's behalf), or to the host.
pub struct Renderer {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    adapter: Option<AdapterSummary>,
    health: Option<Health>,
    pub(crate) library: NoiseBindings,
    pub(crate) pipelines: PipelineCache,
    params: wgpu::Buffer,
    params_group: wgpu::BindGroup,
    params_written: Option<RenderParams>,
    pub(crate) belt: StagingBelt,
    pub(crate) scratch: super::scratch::Scratch,
    targets: HashMap<TargetKey, wgpu::BindGroup>,
    pub(crate) staging: StagingPool,
    options: RendererOptions,
    pub(crate) stats: RenderStats,
    pub(crate) graphs: super::graph::GraphPipelines,
}

impl Renderer {
    /// A renderer on the caller's device and queue. Nothing is submitted here or later except by
    /// the host-readback methods; recording methods take the caller's encoder.
    ///
    /// ```no_run
    /// # async fn run(device: wgpu::Device, queue: wgpu::Queue) -> gpu_noise::Result<()> {
    /// use gpu_noise::{Kind, NoiseSpec, Renderer, RendererOptions};
    /// let mut renderer = Renderer::new(&device, &queue, RendererOptions::default())?;
    /// let prepared = NoiseSpec::new(Kind::Perlin, 2).validate()?; // 256x256
    /// let heights = device.create_buffer(&wgpu::BufferDescriptor {
    ///     label: Some("heights"),
    ///     size: 256 * 256 * 4,
    ///     usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    ///     mapped_at_creation: false,
    /// });
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// renderer.render_to_buffer(&mut encoder, &prepared, &heights, 0)?;
    /// queue.submit([encoder.finish()]); // the caller submits
    /// # Ok(()) }
    /// ```
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        options: RendererOptions,
    ) -> Result<Self> {
        Self::build(device.clone(), queue.clone(), None, None, options)
    }

    /// Opens the best adapter allowed by `choice` (see [`AdapterChoice::from_env`]) and a device
    /// of the crate's own on it, with the adapter's full limits.
    pub async fn open(choice: &AdapterChoice, options: RendererOptions) -> Result<Self> {
        let instance = new_instance(choice);
        let (adapter, summary) =
            best_adapter(&instance, choice)
                .await
                .ok_or_else(|| Error::NoAdapter {
                    detail: format!(" that can run compute shaders ({})", choice.describe()),
                })?;
        Self::from_adapter(adapter, summary, options).await
    }

    /// Opens a device of the crate's own on an adapter already chosen.
    pub async fn from_adapter(
        adapter: wgpu::Adapter,
        summary: AdapterSummary,
        options: RendererOptions,
    ) -> Result<Self> {
        let wanted = wgpu::Features::TEXTURE_FORMAT_16BIT_NORM;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("gpu-noise"),
                required_features: summary.features & (wanted | options.features),
                required_limits: summary.limits.clone(),
                ..Default::default()
            })
            .await
            .map_err(|source| Error::DeviceRequest {
                adapter: summary.info.name.clone(),
                source,
            })?;
        let health = Health::default();
        let on_lost = Arc::clone(&health.lost);
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut lost) = on_lost.lock() {
                *lost = Some(format!("{reason:?}: {message}"));
            }
        });
        let on_error = Arc::clone(&health.error);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            if let Ok(mut first) = on_error.lock() {
                first.get_or_insert(catch(error));
            }
        }));
        Self::build(device, queue, Some(summary), Some(health), options)
    }

    // wgpu's handles are not Send on the web (one thread there); the pool is shared with
    // readbacks whose map callbacks must be Send on native.
    #[cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]
    fn build(
        device: wgpu::Device,
        queue: wgpu::Queue,
        adapter: Option<AdapterSummary>,
        health: Option<Health>,
        options: RendererOptions,
    ) -> Result<Self> {
        super::limits::check_renderer(&device.limits(), crate::wgsl::sources::WORKGROUP_SIZE)?;
        let library = NoiseBindings::new(&device)?;
        let pipelines = PipelineCache::new(&device, &library)?;
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gpu-noise params"),
            size: std::mem::size_of::<RenderParams>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let params_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise params"),
            layout: pipelines.params_layout(),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            }],
        });
        let scratch = super::scratch::Scratch::new(&device);
        let stats = RenderStats {
            bind_groups_created: 1,
            buffers_created: 1 + scratch.buffers_created(),
            ..Default::default()
        };
        Ok(Self {
            belt: StagingBelt::new(device.clone(), BELT_CHUNK),
            device,
            queue,
            adapter,
            health,
            library,
            pipelines,
            params,
            params_group,
            params_written: None,
            scratch,
            targets: HashMap::new(),
            staging: Arc::new(Mutex::new(Vec::new())),
            options,
            stats,
            graphs: super::graph::GraphPipelines::new(),
        })
    }

    /// The adapter, when the renderer opened its own device.
    pub fn adapter(&self) -> Option<&AdapterSummary> {
        self.adapter.as_ref()
    }

    /// "name (backend)" of the adapter, or "caller's device".
    pub fn adapter_name(&self) -> String {
        match &self.adapter {
            Some(a) => format!("{} ({:?})", a.info.name, a.info.backend),
            None => "caller's device".into(),
        }
    }

    /// The device.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// What the renderer has written and created so far: a new frame of the same spec with a
    /// new offset adds one uniform write and nothing else.
    pub fn stats(&self) -> RenderStats {
        self.stats + self.library.stats()
    }

    /// The noise library's bindings, which this renderer's kernels use at group 1.
    pub fn library(&self) -> &NoiseBindings {
        &self.library
    }

    /// Texels per band for host readback: what one storage binding holds, or the option.
    pub fn chunk_texels(&self) -> u32 {
        let limits = self.device.limits();
        let max = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let fits = (max / 4).min(u64::from(u32::MAX)) as u32;
        fits.min(self.options.max_chunk_texels.unwrap_or(u32::MAX))
            .max(WORKGROUP_SIZE)
    }

    /// Compiles every kernel this device can run for `prep`'s pipeline constants (kind, dims,
    /// interpolation, fractal, lattice, octave count, tiling, volume) that is not compiled yet:
    /// the buffer, R32Float (2D, 2D array, 3D), colormapped Rgba8, 16-bit heightmap and
    /// auto-range kernels. Call it when a new kind or fractal is chosen (a level loads, a user
    /// picks another noise), so that the first frame that uses it does not wait for the
    /// driver's compiler. Returns how many pipelines it compiled (0 when all were ready). The
    /// derivative and point kernels compile on first use.
    pub fn prepare(&mut self, prep: &Prepared) -> Result<u32> {
        let before = self.stats.pipelines_compiled;
        let limits = self.device.limits();
        for entry in crate::gpu::pipelines::ENTRIES {
            let warmed = !matches!(entry, Entry::Gradient | Entry::Normal | Entry::Sample);
            if warmed && entry.fits(&limits).is_ok() {
                self.pipeline_key(entry, prep)?;
            }
        }
        Ok((self.stats.pipelines_compiled - before) as u32)
    }

    /// Compiles the pipeline of `entry` for `prep` if needed.
    pub(crate) fn pipeline_key(&mut self, entry: Entry, prep: &Prepared) -> Result<NoiseKey> {
        let key = NoiseKey::of(prep);
        if self.pipelines.prepare(&self.device, entry, key)? {
            self.stats.pipelines_compiled += 1;
        }
        Ok(key)
    }

    /// The cached group-2 bind group for `key`, made by `make` the first time.
    pub(crate) fn target_group(
        &mut self,
        key: TargetKey,
        make: impl FnOnce(&wgpu::Device, &wgpu::BindGroupLayout) -> wgpu::BindGroup,
    ) -> Result<wgpu::BindGroup> {
        if let Some(group) = self.targets.get(&key) {
            return Ok(group.clone());
        }
        if self.targets.len() >= TARGET_CACHE {
            self.targets.clear();
        }
        let entry = match &key {
            TargetKey::Buffer(e, ..) | TargetKey::Texture(e, _) | TargetKey::Range(e) => *e,
            TargetKey::Sample(..) => Entry::Sample,
        };
        let group = make(&self.device, self.pipelines.target_layout(entry)?);
        self.stats.bind_groups_created += 1;
        self.targets.insert(key, group.clone());
        Ok(group)
    }

    /// Records one dispatch of `entry`: the parameters (written only if they changed), the three
    /// bind groups, and `groups` workgroups.
    pub(crate) fn dispatch(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        entry: Entry,
        key: NoiseKey,
        params: RenderParams,
        groups: [u32; 3],
        target: &wgpu::BindGroup,
    ) -> Result<()> {
        if self.params_written != Some(params) {
            let size = wgpu::BufferSize::new(std::mem::size_of::<RenderParams>() as u64)
                .ok_or_else(|| Error::Unsupported("empty parameter block".into()))?;
            self.belt
                .write_buffer(encoder, &self.params, 0, size)
                .copy_from_slice(bytemuck::bytes_of(&params));
            self.params_written = Some(params);
            self.stats.uniform_writes += 1;
        }
        let pipeline = self
            .pipelines
            .get(entry, key)
            .ok_or_else(|| Error::Unsupported(format!("no pipeline for {}", entry.name())))?;
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(entry.name()),
            timestamp_writes: None,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.params_group, &[]);
        pass.set_bind_group(1, self.library.bind_group(), &[]);
        pass.set_bind_group(2, target, &[]);
        pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
        self.stats.dispatches += 1;
        Ok(())
    }

    /// Workgroups for `items` invocations of a kernel that runs 64 in a row, folded into 2D
    /// past the per-dimension limit, and the invocations per dispatch row.
    pub(crate) fn grid(&self, items: u64) -> ([u32; 3], u32) {
        let max = u64::from(self.device.limits().max_compute_workgroups_per_dimension);
        let groups = items.div_ceil(u64::from(WORKGROUP_SIZE)).max(1);
        let x = groups.min(max);
        let y = groups.div_ceil(x);
        ([x as u32, y as u32, 1], x as u32 * WORKGROUP_SIZE)
    }

    /// Dispatches a texel kernel over the window of `params` in TILE_SIZE x TILE_SIZE x 1
    /// workgroups: one dispatch, or several (each with its `base`) where the window reaches
    /// past the device's workgroups per dimension.
    pub(crate) fn dispatch_tiles(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        entry: Entry,
        key: NoiseKey,
        params: RenderParams,
        target: &wgpu::BindGroup,
    ) -> Result<()> {
        let max = self
            .device
            .limits()
            .max_compute_workgroups_per_dimension
            .max(1);
        let tile = [TILE_SIZE, TILE_SIZE, 1];
        let reach: [u32; 3] = std::array::from_fn(|a| max.saturating_mul(tile[a]));
        let [w, h, d, _] = params.extent;
        for z in (0..d).step_by(reach[2] as usize) {
            for y in (0..h).step_by(reach[1] as usize) {
                for x in (0..w).step_by(reach[0] as usize) {
                    let base = [x, y, z];
                    let groups = std::array::from_fn(|a| {
                        (params.extent[a] - base[a]).min(reach[a]).div_ceil(tile[a])
                    });
                    let part = RenderParams {
                        base: [x, y, z, 0],
                        ..params
                    };
                    self.dispatch(encoder, entry, key, part, groups, target)?;
                }
            }
        }
        Ok(())
    }

    /// Submits an encoder of the renderer's own and reports any error its device raised.
    pub(crate) fn submit(&mut self, encoder: wgpu::CommandEncoder) -> Result<()> {
        self.belt.finish_and_recall_on_submit(&encoder);
        self.queue.submit([encoder.finish()]);
        self.check_health()
    }

    /// A lost device or an uncaptured error of the crate's own device, as an error.
    pub(crate) fn check_health(&self) -> Result<()> {
        let Some(health) = &self.health else {
            return Ok(());
        };
        let poisoned = || Error::DeviceLost("device state poisoned".into());
        if let Some(reason) = health.lost.lock().map_err(|_| poisoned())?.as_ref() {
            return Err(Error::DeviceLost(reason.clone()));
        }
        match health.error.lock().map_err(|_| poisoned())?.take() {
            Some(caught) => Err(Error::Gpu {
                context: "rendering".into(),
                source: release(caught),
            }),
            None => Ok(()),
        }
    }
}
