//! [`NoiseBindings`]: the noise library's bind group (the `noise_*` bindings of
//! `shaders/noise/common.wgsl`) on a caller's device: the state uniform and a pool of table
//! slots. A seed's tables are uploaded once into a slot and reused while they stay there, so
//! moving the offset, the frequency or the time, or switching among recent seeds, rewrites
//! only the state uniform.

use std::num::NonZeroU64;

use wgpu::util::StagingBelt;

use super::stats::RenderStats;
use crate::error::{Error, Result};
use crate::job::Job;
use crate::tables::OctaveTables;
use crate::wgsl::host::NoiseState;
use crate::wgsl::tables::{SLOT_BYTES, TableSpace};

/// Table slots in the pool: a fractal of 16 octaves uses 16; the rest keep recent seeds.
pub const TABLE_SLOTS: usize = 64;

/// Table slots in uniform space (a renderer's on a CPU adapter, `wgsl::tables`): a fractal's
/// most octaves, 64 KiB of gradients, which is what such adapters bind.
pub const UNIFORM_TABLE_SLOTS: usize = crate::kinds::MAX_OCTAVES as usize;

const PERM_BYTES: u64 = SLOT_BYTES[0];
const GRADIENT_BYTES: u64 = SLOT_BYTES[1];
const VALUE_BYTES: u64 = SLOT_BYTES[2];
const BELT_CHUNK: u64 = 16 * 1024;

/// Which tables a slot holds: a seed's, generated for some dims (gradients depend on dims).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SlotKey {
    seed: u64,
    dims: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: Option<SlotKey>,
    last_used: u64,
}

/// The noise library's bindings: bind [`bind_group`](Self::bind_group) at the group your
/// shader passed to [`wgsl::noise_module`](crate::wgsl::noise_module), and call
/// [`update`](Self::update) with the spec before each dispatch that should use it.
pub struct NoiseBindings {
    layout: wgpu::BindGroupLayout,
    bind_group: wgpu::BindGroup,
    state: wgpu::Buffer,
    perm: wgpu::Buffer,
    gradients: wgpu::Buffer,
    values: wgpu::Buffer,
    slots: Vec<Slot>,
    clock: u64,
    written: Option<NoiseState>,
    belt: StagingBelt,
    stats: RenderStats,
}

fn entry(binding: u32, ty: wgpu::BufferBindingType, min: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE
            | wgpu::ShaderStages::FRAGMENT
            | wgpu::ShaderStages::VERTEX,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: NonZeroU64::new(min),
        },
        count: None,
    }
}

fn buffer(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

impl NoiseBindings {
    /// The layout of the library's group: binding 0 the state uniform, 1-3 the permutation,
    /// gradient and value tables (read-only storage), visible to compute, vertex and fragment.
    pub fn layout_descriptor_entries() -> [wgpu::BindGroupLayoutEntry; 4] {
        Self::layout_entries_in(TableSpace::Storage)
    }

    /// The same with the tables in `space` (uniform: all of [`UNIFORM_TABLE_SLOTS`]).
    pub(crate) fn layout_entries_in(space: TableSpace) -> [wgpu::BindGroupLayoutEntry; 4] {
        use wgpu::BufferBindingType::{Storage, Uniform};
        let state = entry(0, Uniform, std::mem::size_of::<NoiseState>() as u64);
        let [perm, gradients, values] = match space {
            TableSpace::Storage => {
                let read = Storage { read_only: true };
                [1, 2, 3].map(|b| entry(b, read, SLOT_BYTES[b as usize - 1]))
            }
            TableSpace::Uniform => [1, 2, 3].map(|b| {
                entry(
                    b,
                    Uniform,
                    UNIFORM_TABLE_SLOTS as u64 * SLOT_BYTES[b as usize - 1],
                )
            }),
        };
        [state, perm, gradients, values]
    }

    /// Creates the buffers (about 450 KiB for all slots), the layout and the bind group, after
    /// checking the device's limits: a device whose limits are too small (3 storage buffers
    /// per stage, storage bindings of the tables' size, the state's uniform block;
    /// `Limits::downlevel_defaults()` has them, `downlevel_webgl2_defaults()` does not) gets
    /// [`Error::Unsupported`](crate::Error::Unsupported) naming the limit, and nothing is created.
    pub fn new(device: &wgpu::Device) -> Result<Self> {
        Self::in_space(device, TableSpace::Storage)
    }

    /// The same with the tables in `space`: [`TABLE_SLOTS`] slots in storage,
    /// [`UNIFORM_TABLE_SLOTS`] in uniform buffers (whose limits the caller has checked,
    /// `TableSpace::for_device`).
    pub(crate) fn in_space(device: &wgpu::Device, space: TableSpace) -> Result<Self> {
        use wgpu::BufferUsages as U;
        let (slots, usage) = match space {
            TableSpace::Storage => (TABLE_SLOTS, U::STORAGE),
            TableSpace::Uniform => (UNIFORM_TABLE_SLOTS, U::UNIFORM),
        };
        super::limits::check_library(
            &device.limits(),
            TABLE_SLOTS as u64 * GRADIENT_BYTES.max(PERM_BYTES),
            std::mem::size_of::<NoiseState>() as u64,
        )?;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("gpu-noise library"),
            entries: &Self::layout_entries_in(space),
        });
        let state_bytes = std::mem::size_of::<NoiseState>() as u64;
        let state = buffer(device, "noise_state", state_bytes, U::UNIFORM);
        let [perm, gradients, values] = [
            ("noise_perm", PERM_BYTES),
            ("noise_gradients", GRADIENT_BYTES),
            ("noise_values", VALUE_BYTES),
        ]
        .map(|(label, bytes)| buffer(device, label, slots as u64 * bytes, usage));
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise library"),
            layout: &layout,
            entries: &[&state, &perm, &gradients, &values]
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: b.as_entire_binding(),
                })
                .collect::<Vec<_>>(),
        });
        Ok(Self {
            layout,
            bind_group,
            state,
            perm,
            gradients,
            values,
            slots: vec![Slot::default(); slots],
            clock: 0,
            written: None,
            belt: StagingBelt::new(device.clone(), BELT_CHUNK),
            stats: RenderStats {
                bind_groups_created: 1,
                buffers_created: 4,
                ..Default::default()
            },
        })
    }

    /// The layout of the library's group, for the caller's pipeline layout.
    pub fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// The bind group to set at the library's group.
    pub fn bind_group(&self) -> &wgpu::BindGroup {
        &self.bind_group
    }

    /// What this object has written and created so far.
    pub fn stats(&self) -> RenderStats {
        self.stats
    }

    /// Records, into `encoder`, the uploads that make the bindings describe the flat `job`:
    /// tables of seeds not in a slot yet, and the state uniform if it changed. Commands recorded
    /// after this in `encoder` (or in encoders submitted later) see this state; submit encoders
    /// in the order you record into them. Returns the state written; a job made from a graph
    /// is an error (its module is `Job::wgsl_module`, its bindings [`GraphBindings`](crate::gpu::GraphBindings)).
    pub fn update(&mut self, encoder: &mut wgpu::CommandEncoder, job: &Job) -> Result<NoiseState> {
        let Some(flat) = job.flat() else {
            return Err(Error::target(
                "bindings",
                "the noise library's bindings hold a flat spec; bind a graph's job with \
                 GraphBindings and its module (Job::wgsl_module)",
            ));
        };
        self.clock += 1;
        let dims = job.dims();
        let keys: Vec<SlotKey> = (0..flat.octaves())
            .map(|k| SlotKey {
                seed: job.plan().instances[k].seed,
                dims,
            })
            .collect();
        let mut slots = Vec::with_capacity(keys.len());
        for (k, key) in keys.iter().enumerate() {
            let slot = match self.slots.iter().position(|s| s.key == Some(*key)) {
                Some(found) => found,
                None => {
                    let free = self.least_recent_slot(&keys);
                    self.upload_tables(encoder, free, job.tables(k));
                    self.slots[free].key = Some(*key);
                    free
                }
            };
            self.slots[slot].last_used = self.clock;
            slots.push(slot as u32);
        }
        let state = job.noise_state(&slots).unwrap_or_default();
        if self.written != Some(state) {
            self.write(encoder, &self.state.clone(), 0, bytemuck::bytes_of(&state));
            self.stats.uniform_writes += 1;
            self.written = Some(state);
        }
        self.belt.finish_and_recall_on_submit(encoder);
        Ok(state)
    }

    /// The least recently used slot whose tables `keep` does not need.
    fn least_recent_slot(&self, keep: &[SlotKey]) -> usize {
        (0..self.slots.len())
            .filter(|&i| self.slots[i].key.is_none_or(|k| !keep.contains(&k)))
            .min_by_key(|&i| self.slots[i].last_used)
            .unwrap_or(0)
    }

    fn upload_tables(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        slot: usize,
        tables: &OctaveTables,
    ) {
        let values: Vec<f32> = tables.values.iter().map(|&v| v as f32).collect();
        let slot = slot as u64;
        let (perm, gradients, value_buffer) = (
            self.perm.clone(),
            self.gradients.clone(),
            self.values.clone(),
        );
        self.write(
            encoder,
            &perm,
            slot * PERM_BYTES,
            bytemuck::cast_slice(&crate::tables::perm_windows(&tables.perm)),
        );
        let grads = bytemuck::cast_slice(&tables.gradients);
        self.write(encoder, &gradients, slot * GRADIENT_BYTES, grads);
        self.write(
            encoder,
            &value_buffer,
            slot * VALUE_BYTES,
            bytemuck::cast_slice(&values),
        );
        self.stats.table_uploads += 1;
    }

    fn write(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::Buffer,
        at: u64,
        bytes: &[u8],
    ) {
        // Every write here is a whole, non-empty table or struct (a multiple of 4 bytes).
        if let Some(size) = NonZeroU64::new(bytes.len() as u64) {
            self.belt
                .write_buffer(encoder, target, at, size)
                .copy_from_slice(bytes);
        }
    }
}
