//! Where the noise library's tables are bound (group NOISE_GROUP, bindings 1-3: permutation
//! windows, gradients, values) and the accessors every kind reads them through: `perm_word`,
//! `table_gradient`, `table_value` (CONVENTIONS §13, "Tables").
//!
//! Read-only storage is what every device serves and what a caller's own shader binds
//! ([`NoiseBindings`](crate::gpu::NoiseBindings), [`GraphBindings`](crate::gpu::GraphBindings)).
//! A renderer on a CPU adapter binds them as uniform buffers instead where they fit: llvmpipe
//! (lavapipe, and llvmpipe through GL) loads a storage buffer one lane at a time in a loop with
//! a branch per lane, and a uniform buffer with one gather. At 2048^2 on lavapipe that took the
//! table lattice's Perlin 3D from 113 to 197 Msamples/s and simplex 3D from 78 to 156. A GPU's
//! uniform path serves addresses that agree across a warp, and a table's differ per texel, so
//! hardware adapters keep storage.

use crate::tables::{OctaveTables, PERM_LEN, TABLE_SIZE};

/// How the tables are bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSpace {
    /// Read-only storage buffers of any number of slots.
    Storage,
    /// Uniform buffers of a fixed number of slots: WGSL's uniform arrays have a length, and
    /// an element stride of 16 bytes, so the permutation and values are packed four to a
    /// `vec4`.
    Uniform,
}

/// Bytes of one slot's tables: permutation windows (u32), gradients (`vec4<f32>`), values (f32).
pub const SLOT_BYTES: [u64; 3] = [
    PERM_LEN as u64 * 4,
    TABLE_SIZE as u64 * 16,
    TABLE_SIZE as u64 * 4,
];

/// Uniform buffers the library's group declares in uniform space beyond storage: the three
/// tables.
pub const UNIFORM_TABLE_BINDINGS: u32 = 3;

impl TableSpace {
    /// The largest binding `slots` slots take (the gradients).
    pub fn largest_binding(slots: u32) -> u64 {
        u64::from(slots) * SLOT_BYTES[1]
    }

    /// The space a renderer prefers on an adapter of `device_type`: uniform on a CPU, storage
    /// on anything else.
    pub fn preferred(device_type: wgpu::DeviceType) -> Self {
        if device_type == wgpu::DeviceType::Cpu {
            TableSpace::Uniform
        } else {
            TableSpace::Storage
        }
    }

    /// Whether `slots` slots in this space fit `limits` beside the two uniform buffers every
    /// kernel binds already (its parameters and the library's or a graph's state): storage
    /// always (the library checks its own limits), uniform where the largest table and three
    /// more uniform bindings do.
    pub fn fits(self, limits: &wgpu::Limits, slots: u32) -> bool {
        match self {
            TableSpace::Storage => true,
            TableSpace::Uniform => {
                limits.max_uniform_buffer_binding_size >= Self::largest_binding(slots)
                    && limits.max_uniform_buffers_per_shader_stage >= 2 + UNIFORM_TABLE_BINDINGS
            }
        }
    }

    /// `self` where `slots` slots fit it, else storage.
    pub fn or_storage(self, limits: &wgpu::Limits, slots: u32) -> Self {
        if self.fits(limits, slots) {
            self
        } else {
            TableSpace::Storage
        }
    }

    /// The WGSL of the tables' bindings and their accessors, `slots` slots in uniform space
    /// (any number in storage). Unprefixed, in the library's names.
    pub(crate) fn declarations(self, slots: u32) -> String {
        match self {
            TableSpace::Storage => STORAGE_TABLES.to_string(),
            TableSpace::Uniform => {
                let slots = slots.max(1) as usize;
                format!(
                    "const TABLE_SLOTS: u32 = {slots}u;\n\
                     @group(NOISE_GROUP) @binding(1) var<uniform> noise_perm: array<vec4<u32>, {}>;\n\
                     @group(NOISE_GROUP) @binding(2) var<uniform> noise_gradients: array<vec4<f32>, {}>;\n\
                     @group(NOISE_GROUP) @binding(3) var<uniform> noise_values: array<vec4<f32>, {}>;\n\
                     {UNIFORM_ACCESSORS}",
                    slots * PERM_LEN / 4,
                    slots * TABLE_SIZE,
                    slots * TABLE_SIZE / 4,
                )
            }
        }
    }
}

/// The tables as the library reads them, slot after slot: permutation windows (u32), gradients
/// (vec4<f32>), values (f32); one zero entry each for a plan without noise (bindings cannot be
/// empty). In uniform space each is zero-padded to `slots` slots, the arrays' declared length.
pub(crate) fn table_bytes(
    tables: &[OctaveTables],
    (space, slots): (TableSpace, u32),
) -> [Vec<u8>; 3] {
    let mut bytes = storage_table_bytes(tables);
    if space == TableSpace::Uniform {
        for (table, slot_bytes) in bytes.iter_mut().zip(SLOT_BYTES) {
            let len = (u64::from(slots.max(1)) * slot_bytes) as usize;
            table.resize(len.max(table.len()), 0);
        }
    }
    bytes
}

pub(crate) fn storage_table_bytes(tables: &[OctaveTables]) -> [Vec<u8>; 3] {
    let (mut perm, mut gradients, mut values) = (Vec::new(), Vec::new(), Vec::new());
    for t in tables {
        perm.extend(crate::tables::perm_windows(&t.perm));
        gradients.extend_from_slice(&t.gradients);
        values.extend(t.values.iter().map(|&v| v as f32));
    }
    if perm.is_empty() {
        (perm, gradients, values) = (vec![0], vec![[0.0; 4]], vec![0.0]);
    }
    [
        bytemuck::cast_slice(&perm).to_vec(),
        bytemuck::cast_slice(&gradients).to_vec(),
        bytemuck::cast_slice(&values).to_vec(),
    ]
}

/// The tables as one read-only storage buffer of words, as the shader export binds them
/// (CONVENTIONS §15): every slot's permutation windows, then every slot's gradients (four
/// words each, f32 bits), then every slot's values (f32 bits); `slots` slots. Unprefixed.
pub(crate) fn words_declarations(slots: u32) -> String {
    format!(
        "const TABLE_SLOTS: u32 = {slots}u;
// The tables of TABLE_SLOTS slots in one buffer of words (src/wgsl/tables.rs, table_words).
@group(NOISE_GROUP) @binding(1) var<storage, read> noise_tables: array<u32>;

fn perm_word(lat: Lattice, i: u32) -> u32 {{
    return noise_tables[lat.slot * PERM_LEN + i];
}}

fn table_gradient(lat: Lattice, i: u32) -> vec4<f32> {{
    let k = TABLE_SLOTS * PERM_LEN + 4u * (lat.slot * TABLE_SIZE + i);
    let w = vec4<u32>(noise_tables[k], noise_tables[k + 1u], noise_tables[k + 2u], noise_tables[k + 3u]);
    return bitcast<vec4<f32>>(w);
}}

fn table_value(lat: Lattice, i: u32) -> f32 {{
    return bitcast<f32>(noise_tables[TABLE_SLOTS * (PERM_LEN + 4u * TABLE_SIZE) + lat.slot * TABLE_SIZE + i]);
}}
"
    )
}

/// The words [`words_declarations`] reads: the three storage tables one after the other.
pub(crate) fn table_words(tables: &[OctaveTables]) -> Vec<u32> {
    let bytes = storage_table_bytes(tables).concat();
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// Storage: runtime-sized arrays, one entry per element.
const STORAGE_TABLES: &str = "\
// The tables of every slot, slot after slot (src/wgsl/tables.rs: read-only storage here).
@group(NOISE_GROUP) @binding(1) var<storage, read> noise_perm: array<u32>;
@group(NOISE_GROUP) @binding(2) var<storage, read> noise_gradients: array<vec4<f32>>;
@group(NOISE_GROUP) @binding(3) var<storage, read> noise_values: array<f32>;

// Word i (< PERM_LEN) of the permutation windows of the lattice's slot (tables::perm_windows).
fn perm_word(lat: Lattice, i: u32) -> u32 {
    return noise_perm[lat.slot * PERM_LEN + i];
}

// Gradient i (< TABLE_SIZE) of the lattice's slot.
fn table_gradient(lat: Lattice, i: u32) -> vec4<f32> {
    return noise_gradients[lat.slot * TABLE_SIZE + i];
}

// Value i (< TABLE_SIZE) of the lattice's slot.
fn table_value(lat: Lattice, i: u32) -> f32 {
    return noise_values[lat.slot * TABLE_SIZE + i];
}
";

/// Uniform: the same entries, the permutation and values four to a `vec4`.
const UNIFORM_ACCESSORS: &str = "\
// The tables of TABLE_SLOTS slots as uniform buffers (src/wgsl/tables.rs), the permutation
// windows and values four to a vec4 (a uniform array's stride is 16 bytes): the same entries.
fn perm_word(lat: Lattice, i: u32) -> u32 {
    let k = lat.slot * PERM_LEN + i;
    return noise_perm[k / 4u][k % 4u];
}

fn table_gradient(lat: Lattice, i: u32) -> vec4<f32> {
    return noise_gradients[lat.slot * TABLE_SIZE + i];
}

fn table_value(lat: Lattice, i: u32) -> f32 {
    let k = lat.slot * TABLE_SIZE + i;
    return noise_values[k / 4u][k % 4u];
}
";
