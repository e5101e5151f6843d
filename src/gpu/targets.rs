//! The caller's render targets and the checks that make a wrong usage, format or size a typed
//! [`Error::InvalidTarget`] before anything is recorded, never a wgpu validation panic.

use super::pipelines::Entry;
use crate::colormap::Colormap;
use crate::error::{Error, Result};
use crate::spec::Size;

/// Where [`Renderer::record`](super::Renderer::record) writes a job's whole image.
#[derive(Clone, Copy, Debug)]
pub enum Target<'a> {
    /// A storage buffer from byte `offset` (a multiple of the device's
    /// `min_storage_buffer_offset_alignment`, 256 on most devices): one f32 per texel, x
    /// fastest, then y, then z (CONVENTIONS §1); four (`[value, d/dx, d/dy, d/dz]`) for a job
    /// with gradients. `BufferUsages::STORAGE`.
    Buffer {
        /// The buffer.
        buffer: &'a wgpu::Buffer,
        /// Its first byte written.
        offset: u64,
    },
    /// A texture of the image's size:
    /// - `R32Float` (2D, 2D array with one layer per z, 3D): raw values; needs
    ///   `STORAGE_BINDING`, and for 3D `COPY_DST` too, on every backend (wgpu's GL backend binds
    ///   a 3D storage image one slice at a time, so there the volume is rendered into a buffer
    ///   and copied, and a program written on Vulkan must run on GL as well).
    /// - `Rgba8Unorm` (2D): values through `output.range` and `output.colormap`, or for a job
    ///   with gradients a tangent-space normal map (`output.normal_strength`, CONVENTIONS §12);
    ///   needs `STORAGE_BINDING`.
    /// - `R16Unorm` (2D, 2D array, 3D): levels through `output.range`, packed into a buffer
    ///   and copied, as terrain engines take heightmaps; needs `COPY_DST` and the device
    ///   feature `TEXTURE_FORMAT_16BIT_NORM`.
    Texture {
        /// The texture.
        texture: &'a wgpu::Texture,
        /// Levels, colormap and normal strength.
        output: &'a TextureOutput,
    },
}

/// How noise values map to levels in normalized targets (`Rgba8Unorm`, `R16Unorm`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Range {
    /// The fractal's nominal range: [-1, 1], or [0, 1] for turbulence.
    #[default]
    Nominal,
    /// Values `lo..hi` map to levels 0..max; values beyond clamp.
    Fixed(f64, f64),
    /// The image's own min and max, found by a reduction on the GPU (two extra passes); read
    /// them back with [`LowLevelRenderer::read_auto_range`](crate::low_level::gpu::LowLevelRenderer::read_auto_range).
    Auto,
}

impl Range {
    /// The fixed (lo, hi) this range means for an image whose nominal range is `nominal`;
    /// `None` for `Auto`.
    pub fn fixed(self, nominal: (f64, f64)) -> Option<(f64, f64)> {
        match self {
            Range::Nominal => Some(nominal),
            Range::Fixed(lo, hi) => Some((lo, hi)),
            Range::Auto => None,
        }
    }

    /// Checks that a fixed range is finite in f32 and not empty.
    pub fn check(self) -> Result<()> {
        if let Range::Fixed(lo, hi) = self {
            let f32_max = f64::from(f32::MAX);
            if !(lo.abs() <= f32_max && hi.abs() <= f32_max && lo < hi) {
                return Err(Error::output(
                    "range",
                    format!("needs finite lo < hi within f32 (|v| <= 3.4e38), got {lo}, {hi}"),
                ));
            }
        }
        Ok(())
    }
}

/// Options for normalized texture targets; ignored by `R32Float` targets, which take raw values.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureOutput {
    /// How values map to levels.
    pub range: Range,
    /// How levels become colors in `Rgba8Unorm` targets (gray by default).
    pub colormap: Colormap,
    /// Normal maps (a job with gradients into `Rgba8Unorm`): heights are the value times this
    /// many texels, > 0 (default 8).
    pub normal_strength: f32,
}

impl Default for TextureOutput {
    fn default() -> Self {
        Self {
            range: Range::Nominal,
            colormap: Colormap::Gray,
            normal_strength: DEFAULT_NORMAL_STRENGTH,
        }
    }
}

/// Normal maps' default height scale: the noise value times this many texels.
pub const DEFAULT_NORMAL_STRENGTH: f32 = 8.0;

/// What kind of texture a target is, which decides the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TextureKind {
    /// Raw values through a storage texture (entry point for its dimension).
    R32(Entry),
    /// Colormapped through a storage texture.
    Rgba8,
    /// Packed into a buffer, then copied (R16Unorm is not a storage format in WebGPU).
    R16,
}

/// The usages a texture target needs, the same on every backend. 3D R32Float targets need
/// COPY_DST beside STORAGE_BINDING: wgpu's GL backend binds a 3D storage image one slice only,
/// so there they are filled by copy, and a program written on Vulkan must run on GL too.
pub(crate) fn needed_usage(kind: TextureKind) -> wgpu::TextureUsages {
    use wgpu::TextureUsages as U;
    match kind {
        TextureKind::R16 => U::COPY_DST,
        TextureKind::R32(Entry::R32Texture3d) => U::STORAGE_BINDING | U::COPY_DST,
        _ => U::STORAGE_BINDING,
    }
}

/// Flags as `A | B` (`none` when empty), from `iter_names()`: wgpu's `Debug` prints
/// `TextureUsages(A | B)`, which reads badly in a message.
pub(crate) fn flag_names<T>(names: impl Iterator<Item = (&'static str, T)>) -> String {
    let names: Vec<&str> = names.map(|(name, _)| name).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(" | ")
    }
}

/// Checks a caller's storage buffer for `texels` f32 values at `offset`.
pub(crate) fn check_buffer(
    buffer: &wgpu::Buffer,
    offset: u64,
    texels: u64,
    limits: &wgpu::Limits,
) -> Result<()> {
    let bad = |why: String| Err(Error::target("buffer", why));
    if !buffer.usage().contains(wgpu::BufferUsages::STORAGE) {
        return bad(format!(
            "needs usage STORAGE, has {}",
            flag_names(buffer.usage().iter_names())
        ));
    }
    let align = u64::from(limits.min_storage_buffer_offset_alignment);
    if !offset.is_multiple_of(align) {
        return bad(format!(
            "offset {offset} must be a multiple of min_storage_buffer_offset_alignment ({align})"
        ));
    }
    let bytes = texels * 4;
    if offset.saturating_add(bytes) > buffer.size() {
        return bad(format!(
            "needs {bytes} bytes ({texels} f32) from offset {offset}, but the buffer has {}",
            buffer.size()
        ));
    }
    let max = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    if bytes > max {
        return bad(format!(
            "{bytes} bytes is more than one storage binding may hold on this device ({max}); \
             render a smaller image, or read it in bands with Renderer::read"
        ));
    }
    Ok(())
}

/// Classifies a caller's texture and checks its usage and extent against the spec's size.
pub(crate) fn check_texture(
    texture: &wgpu::Texture,
    size: Size,
    features: wgpu::Features,
) -> Result<TextureKind> {
    use wgpu::TextureDimension as D;
    use wgpu::TextureFormat as F;
    let bad = |why: String| Err(Error::target("texture", why));
    let (w, h, layers) = (
        texture.width(),
        texture.height(),
        texture.depth_or_array_layers(),
    );
    if (w, h, layers) != (size.width, size.height, size.depth) {
        return bad(format!(
            "is {w}x{h}x{layers} but the image's size is {}x{}x{}; they must be equal",
            size.width, size.height, size.depth
        ));
    }
    if texture.sample_count() != 1 {
        return bad("must not be multisampled".into());
    }
    let kind = match (texture.format(), texture.dimension()) {
        (F::R32Float, D::D2) if layers == 1 => TextureKind::R32(Entry::R32Texture2d),
        (F::R32Float, D::D2) => TextureKind::R32(Entry::R32Texture2dArray),
        (F::R32Float, D::D3) => TextureKind::R32(Entry::R32Texture3d),
        (F::Rgba8Unorm, D::D2) if layers == 1 => TextureKind::Rgba8,
        (F::R16Unorm, D::D2 | D::D3) => TextureKind::R16,
        (format, dim) => {
            return bad(format!(
                "{format:?} {dim:?} is not a target: use R32Float (2D, 2D array, 3D), \
                 Rgba8Unorm (2D) or R16Unorm (2D, 2D array, 3D)"
            ));
        }
    };
    let needed = needed_usage(kind);
    if !texture.usage().contains(needed) {
        return bad(format!(
            "a {:?} {:?} target needs usage {}, has {}",
            texture.format(),
            texture.dimension(),
            flag_names(needed.iter_names()),
            flag_names(texture.usage().iter_names())
        ));
    }
    if kind == TextureKind::R16 && !features.contains(wgpu::Features::TEXTURE_FORMAT_16BIT_NORM) {
        return Err(Error::Unsupported(
            "R16Unorm textures need Features::TEXTURE_FORMAT_16BIT_NORM".into(),
        ));
    }
    Ok(kind)
}
