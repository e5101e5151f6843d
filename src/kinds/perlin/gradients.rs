//! Perlin's fixed gradients in f32, from the hash's bits (CONVENTIONS §3), as perlin.wgsl
//! computes them: const fns, so `wide.rs` builds its permute tables from the same functions
//! the lanes call.

use crate::tables::{C1, C3, S1, S3};

/// The unit vector at angle `2 pi ((h & 15) + 0.5) / 16`, from the hash's bits as perlin.wgsl
/// computes it: entry `h & 3` of the first quadrant turned `(h >> 2) & 3` quarter turns
/// (selects, not a table read; a test checks it against the table).
#[inline(always)]
pub const fn grad2_vector(hash: u32) -> [f32; 2] {
    let (c1, s1, c3, s3) = (C1 as f32, S1 as f32, C3 as f32, S3 as f32);
    let j = hash & 3;
    let u = if j < 2 {
        if j == 0 { c1 } else { c3 }
    } else if j == 2 {
        s3
    } else {
        s1
    };
    let v = if j < 2 {
        if j == 0 { s1 } else { s3 }
    } else if j == 2 {
        c3
    } else {
        c1
    };
    let q = (hash >> 2) & 3;
    let g = if q & 1 == 1 { [-v, u] } else { [u, v] };
    if q >= 2 { [-g[0], -g[1]] } else { g }
}

/// Ken Perlin's `grad`: `+-u +-v` by the bits of `h & 15`.
#[inline(always)]
pub const fn grad3(hash: u32, x: f32, y: f32, z: f32) -> f32 {
    let h = hash & 15;
    let u = if h < 8 { x } else { y };
    let v = if h < 4 {
        y
    } else if h == 12 || h == 14 {
        x
    } else {
        z
    };
    (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
}
