//! The renderer's own buffers besides the uniforms: output values and points for host readback,
//! heightmap words, the colormap table and the min/max reduction. The growable ones are replaced
//! by larger ones on demand (their bind groups are then made anew).

use crate::colormap::COLORMAP_LEN;

/// Bytes of the reduction's partial results: REDUCE_GROUPS pairs of f32.
pub(crate) const PARTIAL_RANGE_BYTES: u64 = crate::wgsl::sources::REDUCE_GROUPS as u64 * 8;

/// The growable buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Growable {
    /// f32 results for readback (`out_values`).
    Values,
    /// Packed 16-bit heightmap words (`out_words`).
    Words,
    /// Points for `sample_points`.
    Points,
}

pub(crate) struct Scratch {
    pub values: Option<wgpu::Buffer>,
    pub words: Option<wgpu::Buffer>,
    pub points: Option<wgpu::Buffer>,
    pub colormap: wgpu::Buffer,
    pub colormap_written: Option<[u32; COLORMAP_LEN]>,
    pub partial_ranges: wgpu::Buffer,
    pub range: wgpu::Buffer,
}

fn create(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage,
        mapped_at_creation: false,
    })
}

impl Scratch {
    pub fn new(device: &wgpu::Device) -> Self {
        use wgpu::BufferUsages as U;
        Self {
            values: None,
            words: None,
            points: None,
            colormap: create(
                device,
                "colormap",
                COLORMAP_LEN as u64 * 4,
                U::STORAGE | U::COPY_DST,
            ),
            colormap_written: None,
            partial_ranges: create(device, "partial ranges", PARTIAL_RANGE_BYTES, U::STORAGE),
            range: create(device, "range", 8, U::STORAGE | U::COPY_SRC),
        }
    }

    /// Buffers made by [`new`](Self::new).
    pub fn buffers_created(&self) -> u64 {
        3
    }

    /// The growable buffer, at least `bytes` long; the bool says whether it was created now.
    pub fn ensure(
        &mut self,
        device: &wgpu::Device,
        kind: Growable,
        bytes: u64,
    ) -> (wgpu::Buffer, bool) {
        use wgpu::BufferUsages as U;
        let (slot, label, usage) = match kind {
            Growable::Values => (&mut self.values, "values", U::STORAGE | U::COPY_SRC),
            Growable::Words => (&mut self.words, "heightmap words", U::STORAGE | U::COPY_SRC),
            Growable::Points => (&mut self.points, "points", U::STORAGE | U::COPY_DST),
        };
        match slot {
            Some(b) if b.size() >= bytes => (b.clone(), false),
            _ => {
                let b = create(device, label, bytes.max(16).next_multiple_of(256), usage);
                *slot = Some(b.clone());
                (b, true)
            }
        }
    }
}
