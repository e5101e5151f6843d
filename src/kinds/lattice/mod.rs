//! What the kinds share: the twin's lattice (cells, hashes, interpolation; f64), the lanes'
//! lattice (the same in u32 and f32 lanes, 16 texels of a row at a time), the derivatives'
//! shared part, the lanes' kernels per instruction set, whole rows in registers on x86-64
//! (`wide`), and what both precisions share (`real`).

pub(crate) mod corners;
pub(crate) mod dual;
pub(crate) mod hash;
pub(crate) mod kernel;
pub(crate) mod lane_dual;
pub(crate) mod lane_hash;
pub(crate) mod lanes;
pub(crate) mod math;
pub(crate) mod real;
pub(crate) mod twin;
#[cfg(target_arch = "x86_64")]
pub(crate) mod wide;
