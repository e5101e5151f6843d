//! What the kinds share: the twin's lattice (cells, hashes, interpolation; f64), the lanes'
//! lattice (the same in u32 and f32 lanes, 16 texels of a row at a time), the derivatives'
//! shared part, the lanes' kernels per instruction set, the 16-lane vector every f32 kernel
//! is written against (`wide::Wide`: AVX-512, AVX2 or portable) with whole rows in registers
//! on x86-64, the corner hashes of the lanes' points in those vectors (`block_hashes`), and
//! what both precisions share (`real`).

pub(crate) mod block_hashes;
pub(crate) mod dual;
pub(crate) mod hash;
pub(crate) mod kernel;
pub(crate) mod lane_dual;
pub(crate) mod lane_hash;
pub(crate) mod lanes;
pub(crate) mod math;
pub(crate) mod real;
pub(crate) mod twin;
// Elsewhere than on x86-64 the kinds reach `Wide` through the lanes' points alone (the
// portable set); the register rows and what only they call are x86-64's.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) mod wide;
