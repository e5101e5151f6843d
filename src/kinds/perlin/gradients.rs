//! Perlin's fixed gradients in f32, from the hash's bits (CONVENTIONS §3), as perlin.wgsl
//! computes them: const fns, and the tables the kernels pick from by a permute of the hash's
//! low bits (as FastNoise2 picks its gradients), built from the same functions.

use crate::tables::{C1, C3, PERLIN4_GRADIENTS, S1, S3};

/// `(1 + (h & 7)) / 8`, negated where `h & 8` is set, times `x`.
#[inline(always)]
pub const fn grad1(hash: u32, x: f32) -> f32 {
    let h = hash & 15;
    let g = (1 + (h & 7)) as f32 * 0.125;
    if h & 8 == 0 { g * x } else { -g * x }
}

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

/// `grad1` at 1 for every hash 0..16 (its slope: `grad1(h, x)` is this times x, exactly).
pub const GRAD1: [f32; 16] = {
    let mut t = [0.0; 16];
    let mut h = 0;
    while h < 16 {
        t[h] = grad1(h as u32, 1.0);
        h += 1;
    }
    t
};

/// Component `c` of `grad2_vector` at every hash 0..16.
const fn grad2_table(c: usize) -> [f32; 16] {
    let mut t = [0.0; 16];
    let mut h = 0;
    while h < 16 {
        t[h] = grad2_vector(h as u32)[c];
        h += 1;
    }
    t
}

/// `grad3` at the unit vector of axis `a`, at every hash 0..16: Ken Perlin's gradient's
/// component along the axis (0 or +-1).
const fn grad3_table(a: usize) -> [f32; 16] {
    let mut t = [0.0; 16];
    let mut h = 0;
    while h < 16 {
        let e = [
            (a == 0) as u8 as f32,
            (a == 1) as u8 as f32,
            (a == 2) as u8 as f32,
        ];
        t[h] = grad3(h as u32, e[0], e[1], e[2]);
        h += 1;
    }
    t
}

/// Component `c` of the 32 4D gradients, rounded to f32 as the GPU's are.
const fn grad4_table(c: usize) -> [f32; 32] {
    let mut t = [0.0; 32];
    let mut h = 0;
    while h < 32 {
        t[h] = PERLIN4_GRADIENTS[h][c] as f32;
        h += 1;
    }
    t
}

/// The 2D gradients by component, at every hash 0..16.
pub const GRAD2: [[f32; 16]; 2] = [grad2_table(0), grad2_table(1)];
/// Ken Perlin's 3D gradients by component, at every hash 0..16.
pub const GRAD3: [[f32; 16]; 3] = [grad3_table(0), grad3_table(1), grad3_table(2)];
/// The 4D gradients by component, at every hash 0..32.
pub const GRAD4: [[f32; 32]; 4] = [
    grad4_table(0),
    grad4_table(1),
    grad4_table(2),
    grad4_table(3),
];
