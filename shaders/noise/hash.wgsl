// The hash lattices (CONVENTIONS §2): xxHash32 (Yann Collet) of a cell's 32-bit coordinates
// under the octave's seed, in its small-input form; mirrored by src/cpu/hash.rs. The
// HASH_PRIME_* and LATTICE_PRIME* constants are generated from src/tables.rs.

// The accumulator before `words` 32-bit words: seed + PRIME_5 + 4 words.
fn hash_start(seed: u32, words: u32) -> u32 {
    return seed + HASH_PRIME_5 + 4u * words;
}

// Folds one word into the accumulator: rotl(acc + word PRIME_3, 17) PRIME_4.
fn hash_eat(acc: u32, word: u32) -> u32 {
    let a = acc + word * HASH_PRIME_3;
    return ((a << 17u) | (a >> 15u)) * HASH_PRIME_4;
}

// xxHash32's avalanche.
fn hash_finish(acc: u32) -> u32 {
    var h = acc;
    h ^= h >> 15u;
    h *= HASH_PRIME_2;
    h ^= h >> 13u;
    h *= HASH_PRIME_3;
    return h ^ (h >> 16u);
}

// hash_finish on four accumulators at once.
fn hash_finish4(acc: vec4<u32>) -> vec4<u32> {
    var h = acc;
    h ^= h >> vec4<u32>(15u);
    h *= HASH_PRIME_2;
    h ^= h >> vec4<u32>(13u);
    h *= HASH_PRIME_3;
    return h ^ (h >> vec4<u32>(16u));
}

// The hash of a cell's first `dims` coordinates under `seed`.
fn cell_hash(seed: u32, cells: vec4<u32>, dims: u32) -> u32 {
    var h = hash_start(seed, dims);
    for (var a = 0u; a < dims; a++) {
        h = hash_eat(h, cells[a]);
    }
    return hash_finish(h);
}

// The prime lattice (CONVENTIONS §2, FastNoise2's HashPrimes): one multiply of the xor of the
// seed and the corner's axis products (LATTICE_PRIMES), then the high half folded onto the low.
fn prime_finish(acc: u32) -> u32 {
    let h = acc * LATTICE_PRIME_MULTIPLIER;
    return h ^ (h >> 15u);
}

fn prime_finish4(acc: vec4<u32>) -> vec4<u32> {
    let h = acc * LATTICE_PRIME_MULTIPLIER;
    return h ^ (h >> vec4<u32>(15u));
}

// The prime lattice's hash of a cell's first `dims` coordinates under `seed`.
fn prime_hash(seed: u32, cells: vec4<u32>, dims: u32) -> u32 {
    let p = cells * LATTICE_PRIMES;
    var acc = seed ^ p.x;
    if dims > 1u {
        acc ^= p.y;
    }
    if dims > 2u {
        acc ^= p.z;
    }
    if dims > 3u {
        acc ^= p.w;
    }
    return prime_finish(acc);
}

// 32 more bits from a prime-lattice cell hash h (word n < 4): the hash of h xored with prime n.
fn prime_bits(h: u32, n: u32) -> u32 {
    return prime_finish(h ^ LATTICE_PRIMES[n & 3u]);
}

// The hash of a cell on one of the integer-hash lattices: the prime lattice's or xxHash32's.
fn hashed_cell(prime: bool, seed: u32, cells: vec4<u32>, dims: u32) -> u32 {
    if prime {
        return prime_hash(seed, cells, dims);
    }
    return cell_hash(seed, cells, dims);
}

// 32 more bits from a cell's hash: the hash of the word n under the seed h.
fn hash_bits(h: u32, n: u32) -> u32 {
    return hash_finish(hash_eat(hash_start(h, 1u), n));
}

// A value in [-1, 1): the top 24 bits times 2^-23, minus 1 (exact).
fn hash_value(h: u32) -> f32 {
    return f32(h >> 8u) * (1.0 / 8388608.0) - 1.0;
}

// A unit float in [0, 1): the top 24 bits times 2^-24.
fn hash_unit(h: u32) -> f32 {
    return f32(h >> 8u) * (1.0 / 16777216.0);
}
