//! The hash lattice (CONVENTIONS §2): xxHash32 (Yann Collet) of a cell's 32-bit coordinates
//! under the octave's seed, in its small-input form (as Catlike Coding's SmallXXHash, with
//! xxHash32's length term kept); mirrors `shaders/noise/hash.wgsl`. Integer-only, so the CPU
//! and the GPU get the same bits; each step is a bijection of the word it eats, so no axis
//! repeats before 2^32 cells.

use crate::tables::{LATTICE_PRIME_MULTIPLIER, LATTICE_PRIMES, PRIME_2, PRIME_3, PRIME_4, PRIME_5};

/// The accumulator before `words` 32-bit words: `seed + PRIME_5 + 4 words` (xxHash32 for
/// inputs under 16 bytes).
#[inline(always)]
pub fn hash_start(seed: u32, words: u32) -> u32 {
    seed.wrapping_add(PRIME_5).wrapping_add(4 * words)
}

/// Folds one 32-bit word into the accumulator: `rotl(acc + word PRIME_3, 17) PRIME_4`.
#[inline(always)]
pub fn hash_eat(acc: u32, word: u32) -> u32 {
    acc.wrapping_add(word.wrapping_mul(PRIME_3))
        .rotate_left(17)
        .wrapping_mul(PRIME_4)
}

/// xxHash32's avalanche.
#[inline(always)]
pub fn hash_finish(acc: u32) -> u32 {
    let mut h = acc;
    h ^= h >> 15;
    h = h.wrapping_mul(PRIME_2);
    h ^= h >> 13;
    h = h.wrapping_mul(PRIME_3);
    h ^ (h >> 16)
}

/// The hash of a cell's first `dims` coordinates (each modulo 2^32) under `seed`: for 1-3 dims
/// exactly `xxh32` of their little-endian bytes; 4D continues the same small-input steps.
#[inline(always)]
pub fn cell_hash(seed: u32, cells: [u32; 4], dims: usize) -> u32 {
    let mut h = hash_start(seed, dims as u32);
    for &c in &cells[..dims] {
        h = hash_eat(h, c);
    }
    hash_finish(h)
}

/// 32 more bits from a cell's hash: `xxh32` of the word `n` under the seed `h` (feature point
/// axes, and so on).
#[inline(always)]
pub fn hash_bits(h: u32, n: u32) -> u32 {
    hash_finish(hash_eat(hash_start(h, 1), n))
}

/// A value in [-1, 1) from a hash: its top 24 bits times 2^-23, minus 1 (exact in f32 and f64).
#[inline(always)]
pub fn hash_value(h: u32) -> f64 {
    f64::from(h >> 8) * (1.0 / 8_388_608.0) - 1.0
}

/// A unit float in [0, 1) from a hash: its top 24 bits times 2^-24.
#[inline(always)]
pub fn hash_unit(h: u32) -> f64 {
    f64::from(h >> 8) * (1.0 / 16_777_216.0)
}

/// The prime lattice (CONVENTIONS §2, FastNoise2's `HashPrimes`): cell coordinate `c` on axis
/// `a` times that axis's prime. Products of neighbouring cells differ by the prime, so a
/// cell's upper corner costs an add.
#[inline(always)]
pub fn prime_axis(c: u32, a: usize) -> u32 {
    c.wrapping_mul(LATTICE_PRIMES[a])
}

/// The prime lattice's hash of the xor of the seed and a corner's axis products: one multiply,
/// then the high half folded onto the low (the gradient bits).
#[inline(always)]
pub fn prime_finish(acc: u32) -> u32 {
    let h = acc.wrapping_mul(LATTICE_PRIME_MULTIPLIER);
    h ^ (h >> 15)
}

/// The prime lattice's hash of a cell's first `dims` coordinates under `seed`.
#[inline(always)]
pub fn prime_hash(seed: u32, cells: [u32; 4], dims: usize) -> u32 {
    let mut acc = seed;
    for (a, &c) in cells[..dims].iter().enumerate() {
        acc ^= prime_axis(c, a);
    }
    prime_finish(acc)
}

/// 32 more bits from a prime-lattice cell hash `h` (word `n` < 4, feature point axes): the
/// hash of `h` xored with prime n, one multiply where [`hash_bits`] takes four.
#[inline(always)]
pub fn prime_bits(h: u32, n: u32) -> u32 {
    prime_finish(h ^ LATTICE_PRIMES[(n & 3) as usize])
}

/// [`prime_bits`] on the prime lattice, [`hash_bits`] on the hash lattice.
#[inline(always)]
pub fn lattice_bits(prime: bool, h: u32, n: u32) -> u32 {
    if prime {
        prime_bits(h, n)
    } else {
        hash_bits(h, n)
    }
}

/// The hash of a cell on one of the two integer-hash lattices: the prime lattice's where
/// `prime`, else xxHash32's.
#[inline(always)]
pub fn hashed_cell(prime: bool, seed: u32, cells: [u32; 4], dims: usize) -> u32 {
    if prime {
        prime_hash(seed, cells, dims)
    } else {
        cell_hash(seed, cells, dims)
    }
}

/// The prime lattice's hashes of a 2D cell's corners (lower cells `lo`, upper `hi`) in corner
/// order, x fastest: each axis's products once.
#[inline(always)]
pub fn prime_corners2(seed: u32, lo: [u32; 2], hi: [u32; 2]) -> [u32; 4] {
    let x = [seed ^ prime_axis(lo[0], 0), seed ^ prime_axis(hi[0], 0)];
    let y = [prime_axis(lo[1], 1), prime_axis(hi[1], 1)];
    std::array::from_fn(|n| prime_finish(x[n & 1] ^ y[n >> 1]))
}

/// The prime lattice's hashes of a 3D cell's corners in corner order, x fastest.
#[inline(always)]
pub fn prime_corners3(seed: u32, lo: [u32; 3], hi: [u32; 3]) -> [u32; 8] {
    let x = [seed ^ prime_axis(lo[0], 0), seed ^ prime_axis(hi[0], 0)];
    let y = [prime_axis(lo[1], 1), prime_axis(hi[1], 1)];
    let z = [prime_axis(lo[2], 2), prime_axis(hi[2], 2)];
    let xy: [u32; 4] = std::array::from_fn(|n| x[n & 1] ^ y[n >> 1]);
    std::array::from_fn(|n| prime_finish(xy[n & 3] ^ z[n >> 2]))
}
