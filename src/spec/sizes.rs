//! The sizes a spec may describe (re-exported with every other limit in
//! [`low_level::limits`](crate::low_level::limits)).

/// Largest image side: texel indices times the octave steps stay within the GPU's 32-bit words.
pub const MAX_SIDE: u32 = 1 << 24;
/// Largest image held in memory at once (4 GiB of f32): whole-image renders to a `Vec` or a
/// GPU buffer. Larger images stream in bands (export) or render as windows (tile sets).
pub const MAX_TEXELS: u64 = 1 << 30;
/// Largest world a spec may describe (windows and bands of it render one at a time).
pub const MAX_WORLD_TEXELS: u64 = 1 << 40;
/// Every lattice coordinate, at every octave and texel (skewed for simplex), stays below this
/// many cells: 2^62, so cells fit in 62 bits (CONVENTIONS §1).
pub const MAX_COORD: f64 = crate::fixed::MAX_CELL;
