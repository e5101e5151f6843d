//! The hash lattices' corner hashes in registers (`hash.rs` and `lane_hash.rs` in vectors):
//! xxHash32's steps and the prime lattice's products, chained corner by corner in the same
//! order, x fastest, for the cells `lo` and `lo + 1` of each axis (untiled).

use super::frame::AxisPoint;
use super::{Wide, unrolled};
use crate::tables::{LATTICE_PRIME_MULTIPLIER, LATTICE_PRIMES, PRIME_2, PRIME_3, PRIME_4, PRIME_5};

/// `hash_eat`: `rotl(acc + word PRIME_3, 17) PRIME_4`.
#[inline(always)]
pub fn hash_eat<W: Wide>(s: W, acc: W::U, word: W::U) -> W::U {
    hash_eat_product(s, acc, s.mul_u(word, s.splat_u(PRIME_3)))
}

/// `hash_eat` of a word whose product `word PRIME_3` is given.
#[inline(always)]
fn hash_eat_product<W: Wide>(s: W, acc: W::U, product: W::U) -> W::U {
    s.mul_u(s.rotl_u::<17>(s.add_u(acc, product)), s.splat_u(PRIME_4))
}

/// What a lattice multiplies axis `a`'s cell by before folding it into a hash: the axis's
/// prime on the prime lattice, `PRIME_3` (`hash_eat`'s) on xxHash32's. A product is linear in
/// the cell, so the upper cell's is the lower one's plus the factor (modulo 2^32): a corner's
/// product is an addition, not another multiply.
#[inline(always)]
fn axis_factor(lat: WideLattice, a: usize) -> u32 {
    if lat.prime {
        LATTICE_PRIMES[a]
    } else {
        PRIME_3
    }
}

/// Each axis's cell times its [`axis_factor`]: what [`corner_hash`] steps from.
#[inline(always)]
pub fn cell_products<W: Wide, const D: usize>(
    s: W,
    lat: WideLattice,
    cells: [W::U; 4],
) -> [W::U; 4] {
    let mut products = [s.splat_u(0); 4];
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            products[a] = s.mul_u(cells[a], s.splat_u(axis_factor(lat, a)));
        }
    });
    products
}

/// A corner's step from a cell along one axis: none, one cell, or one cell in the lanes of a
/// mask (or outside it). Known at compile time where it is a constant, so a corner's offset and
/// product take no operation, or one blend, per axis.
#[derive(Clone, Copy)]
pub enum Step<M> {
    Zero,
    One,
    Where(M),
    Unless(M),
}

impl<M: Copy> Step<M> {
    /// `one` where the step is 1, else `zero`, per lane (`select(mask, if set, if not)`).
    #[inline(always)]
    pub fn pick<T>(self, zero: T, one: T, select: impl FnOnce(M, T, T) -> T) -> T {
        match self {
            Step::Zero => zero,
            Step::One => one,
            Step::Where(m) => select(m, one, zero),
            Step::Unless(m) => select(m, zero, one),
        }
    }
}

/// The hash of the corner `cells + step` (`products` are the cells' [`cell_products`]):
/// [`cell_hash`] of the corner, each axis's product plus its factor where the step is 1.
#[inline(always)]
pub fn corner_hash<W: Wide, const D: usize>(
    s: W,
    lat: WideLattice,
    products: &[W::U; 4],
    step: [Step<W::M>; 4],
) -> W::U {
    let mut words = [s.splat_u(0); 4];
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            let upper = s.add_u(products[a], s.splat_u(axis_factor(lat, a)));
            words[a] = step[a].pick(products[a], upper, |m, t, f| s.select_u(m, t, f));
        }
    });
    if lat.prime {
        let mut acc = s.splat_u(lat.hash_seed);
        unrolled!(a in [0, 1, 2, 3] {
            if a < D {
                acc = s.xor_u(acc, words[a]);
            }
        });
        return prime_finish(s, acc);
    }
    let mut acc = s.splat_u(xxhash_start::<D>(lat.hash_seed));
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            acc = hash_eat_product(s, acc, words[a]);
        }
    });
    hash_finish(s, acc)
}

/// xxHash32's accumulator before the first of `D` words (`hash_start`).
#[inline(always)]
const fn xxhash_start<const D: usize>(seed: u32) -> u32 {
    seed.wrapping_add(PRIME_5).wrapping_add(4 * D as u32)
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

/// The hash of the cells `cells[..D]`: `prime_hash` or `cell_hash` of the lanes (the corner
/// that takes no step from them).
#[inline(always)]
pub fn cell_hash<W: Wide, const D: usize>(s: W, lat: WideLattice, cells: [W::U; 4]) -> W::U {
    let products = cell_products::<W, D>(s, lat, cells);
    corner_hash::<W, D>(s, lat, &products, [Step::Zero; 4])
}

/// A hash lattice's seed and kind, as a kernel reads them.
#[derive(Clone, Copy)]
pub struct WideLattice {
    pub hash_seed: u32,
    /// The prime lattice (else xxHash32's).
    pub prime: bool,
}

/// The hashes of the 2^D corners of each lane's cell (`cells[a]` and `cells[a] + 1` per
/// axis, untiled), corner-major, x fastest; the upper cell's product is the lower one's plus
/// the factor.
#[inline(always)]
pub fn corner_hashes<W: Wide, const D: usize>(
    s: W,
    lat: WideLattice,
    cells: [W::U; D],
) -> [W::U; 16] {
    let mut products = [[s.splat_u(0); 2]; D];
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            let factor = s.splat_u(axis_factor(lat, a));
            let lower = s.mul_u(cells[a], factor);
            products[a] = [lower, s.add_u(lower, factor)];
        }
    });
    corner_hashes_of_products(s, lat, products)
}

/// The hashes of the 2^D corners of each of a row's points (its first D axes' cells), on the
/// prime lattice (`PRIME`) or xxHash32's under `seed`: what a wide row's kernel hashes.
#[inline(always)]
pub fn point_corner_hashes<W: Wide, const D: usize, const PRIME: bool>(
    s: W,
    seed: u32,
    p: &[AxisPoint<W>; 4],
) -> [W::U; 16] {
    let lat = WideLattice {
        hash_seed: seed,
        prime: PRIME,
    };
    let mut cells = [p[0].cell; D];
    for a in 1..D {
        cells[a] = p[a].cell;
    }
    corner_hashes::<W, D>(s, lat, cells)
}

/// The hashes of the 2^D corners between each lane's lower and upper cells (`ends[a]`, wrapped
/// where the axis tiles), corner-major, x fastest (`lattice_hash` of each corner in
/// lane_hash.rs): [`corner_hashes_of_products`] of the ends times their axes' factors.
#[inline(always)]
pub fn corner_hashes_between<W: Wide, const D: usize>(
    s: W,
    lat: WideLattice,
    ends: [[W::U; 2]; D],
) -> [W::U; 16] {
    let mut products = ends;
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            let factor = s.splat_u(axis_factor(lat, a));
            products[a] = [s.mul_u(ends[a][0], factor), s.mul_u(ends[a][1], factor)];
        }
    });
    corner_hashes_of_products(s, lat, products)
}

/// The hashes of the 2^D corners from each axis's lower and upper cell's product with the
/// axis's [`axis_factor`], corner-major, x fastest. Built axis by axis: after axis a, the 2^(a+1) chains share their prefixes, so
/// xxHash32 eats each word once per prefix, and the prime lattice takes each axis's two
/// products once (xor is order-free, so its accumulator is the same as the lanes' sum). Each
/// axis extends the chains `h[..2^a]`: `h[n + 2^a]` with the upper cell, then `h[n]` with
/// the lower. (No helper taking a closure: one was not inlined, and its calls cost the hash
/// lattice nine tenths.)
#[inline(always)]
fn corner_hashes_of_products<W: Wide, const D: usize>(
    s: W,
    lat: WideLattice,
    products: [[W::U; 2]; D],
) -> [W::U; 16] {
    let mut h = [s.splat_u(0); 16];
    if lat.prime {
        h[0] = s.splat_u(lat.hash_seed);
        unrolled!(a in [0, 1, 2, 3] {
            if a < D {
                let ends = products[a];
                let half = 1 << a;
                unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7] {
                    if n < half {
                        h[n + half] = s.xor_u(h[n], ends[1]);
                        h[n] = s.xor_u(h[n], ends[0]);
                    }
                });
            }
        });
        unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            if n < 1 << D {
                h[n] = prime_finish(s, h[n]);
            }
        });
        return h;
    }
    h[0] = s.splat_u(xxhash_start::<D>(lat.hash_seed));
    unrolled!(a in [0, 1, 2, 3] {
        if a < D {
            let half = 1 << a;
            unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7] {
                if n < half {
                    h[n + half] = hash_eat_product(s, h[n], products[a][1]);
                    h[n] = hash_eat_product(s, h[n], products[a][0]);
                }
            });
        }
    });
    unrolled!(n in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        if n < 1 << D {
            h[n] = hash_finish(s, h[n]);
        }
    });
    h
}
