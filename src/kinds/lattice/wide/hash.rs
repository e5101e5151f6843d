//! The hash lattices' corner hashes in registers (`hash.rs` and `lane_hash.rs` in vectors):
//! xxHash32's steps and the prime lattice's products, chained corner by corner in the same
//! order, x fastest, for the cells `lo` and `lo + 1` of each axis (untiled).

use super::Wide;
use crate::tables::{LATTICE_PRIME_MULTIPLIER, LATTICE_PRIMES, PRIME_2, PRIME_3, PRIME_4, PRIME_5};

/// `hash_eat`: `rotl(acc + word PRIME_3, 17) PRIME_4`.
#[inline(always)]
pub fn hash_eat<W: Wide>(s: W, acc: W::U, word: W::U) -> W::U {
    let a = s.add_u(acc, s.mul_u(word, s.splat_u(PRIME_3)));
    s.mul_u(s.rotl_u::<17>(a), s.splat_u(PRIME_4))
}

/// `hash_finish`: xxHash32's avalanche.
#[inline(always)]
pub fn hash_finish<W: Wide>(s: W, acc: W::U) -> W::U {
    let h = s.xor_u(acc, s.shr_u::<15>(acc));
    let h = s.mul_u(h, s.splat_u(PRIME_2));
    let h = s.xor_u(h, s.shr_u::<13>(h));
    let h = s.mul_u(h, s.splat_u(PRIME_3));
    s.xor_u(h, s.shr_u::<16>(h))
}

/// `prime_finish`: one multiply, then the high half folded onto the low.
#[inline(always)]
pub fn prime_finish<W: Wide>(s: W, acc: W::U) -> W::U {
    let h = s.mul_u(acc, s.splat_u(LATTICE_PRIME_MULTIPLIER));
    s.xor_u(h, s.shr_u::<15>(h))
}

/// `lattice_value` on a hash lattice: the top 24 bits times 2^-23, minus 1 (in [-1, 1)).
#[inline(always)]
pub fn hash_value<W: Wide>(s: W, h: W::U) -> W::F {
    let top = s.to_f(s.shr_u::<8>(h));
    s.sub(s.mul(top, s.splat(1.0 / 8_388_608.0)), s.splat(1.0))
}

/// `hash_unit`: the top 24 bits times 2^-24 (in [0, 1)).
#[inline(always)]
pub fn hash_unit<W: Wide>(s: W, h: W::U) -> W::F {
    s.mul(s.to_f(s.shr_u::<8>(h)), s.splat(1.0 / 16_777_216.0))
}

/// The hash of 2D cells `(x, y)`: `prime_hash` or `cell_hash` of the lanes in two dimensions.
#[inline(always)]
pub fn cell_hash2<W: Wide, const PRIME: bool>(s: W, seed: u32, x: W::U, y: W::U) -> W::U {
    if PRIME {
        let acc = s.xor_u(s.mul_u(x, s.splat_u(LATTICE_PRIMES[0])), s.splat_u(seed));
        prime_finish(s, s.xor_u(acc, s.mul_u(y, s.splat_u(LATTICE_PRIMES[1]))))
    } else {
        let start = s.splat_u(seed.wrapping_add(PRIME_5).wrapping_add(8));
        hash_finish(s, hash_eat(s, hash_eat(s, start, x), y))
    }
}

/// A hash lattice's seed and kind, as a kernel reads them.
#[derive(Clone, Copy)]
pub struct WideLattice {
    pub hash_seed: u32,
    /// The prime lattice (else xxHash32's).
    pub prime: bool,
}

/// The hashes of the 2^D corners of each lane's cell (`cells[a]` and `cells[a] + 1` per
/// axis), corner-major, x fastest: `corner_hashes2` and `corner_hashes3` of the lanes.
#[inline(always)]
pub fn corner_hashes<W: Wide, const D: usize>(
    s: W,
    lat: WideLattice,
    cells: [W::U; D],
) -> [W::U; 8] {
    let one = s.splat_u(1);
    // Each axis's two cells, `lo` and `lo + 1` (loops, not closures through `array::map`:
    // those were not inlined into the kernels).
    let mut ends = [[s.splat_u(0); 2]; 3];
    for a in 0..D {
        ends[a] = [cells[a], s.add_u(cells[a], one)];
    }
    let mut h = [s.splat_u(0); 8];
    if lat.prime {
        // Each axis's products; the seed goes in with x.
        let seed = s.splat_u(lat.hash_seed);
        for a in 0..D {
            for e in 0..2 {
                ends[a][e] = s.mul_u(ends[a][e], s.splat_u(LATTICE_PRIMES[a]));
            }
        }
        for e in 0..2 {
            ends[0][e] = s.xor_u(seed, ends[0][e]);
        }
        for n in 0..(1 << D) {
            let acc = s.xor_u(ends[0][n & 1], ends[1][(n >> 1) & 1]);
            h[n] = prime_finish(
                s,
                if D > 2 {
                    s.xor_u(acc, ends[2][n >> 2])
                } else {
                    acc
                },
            );
        }
        return h;
    }
    let start = s.splat_u(
        lat.hash_seed
            .wrapping_add(PRIME_5)
            .wrapping_add(4 * D as u32),
    );
    let x = [
        hash_eat(s, start, ends[0][0]),
        hash_eat(s, start, ends[0][1]),
    ];
    let mut xy = [s.splat_u(0); 4];
    for n in 0..4 {
        xy[n] = hash_eat(s, x[n & 1], ends[1][n >> 1]);
    }
    for n in 0..(1 << D) {
        h[n] = if D > 2 {
            hash_finish(s, hash_eat(s, xy[n & 3], ends[2][n >> 2]))
        } else {
            hash_finish(s, xy[n])
        };
    }
    h
}
