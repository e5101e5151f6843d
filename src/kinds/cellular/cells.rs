//! Where cellular noise's cells come from, for its kernel over [`Wide`] (lanes.rs): vector
//! hashes of the lanes' cells on an untiled hash lattice ([`HashedCells`]: a row's cells
//! stepped in registers, or the lanes' points), or the lanes' points lane by lane
//! ([`LaneCells`]: tiled, or the permutation table).

use crate::kinds::lattice::lane_hash::{
    LaneLattice as Lattice, lattice_hash, lattice_value, perm_at,
};
use crate::kinds::lattice::lanes::{LANES, Points, cell_offset, lattice_cell};
use crate::kinds::lattice::wide::Wide;
use crate::kinds::lattice::wide::hash::{
    WideLattice, cell_hash, hash_eat, hash_finish, hash_unit, hash_value, prime_finish,
};
use crate::tables::{LATTICE_PRIMES, PRIME_5};

/// Where a block's cells come from: the hash of each lane's cell moved by an offset, a
/// feature point's unit offset from a hash, and a cell's lattice value.
pub trait Cells<W: Wide> {
    /// The hash of each lane's cell moved by `o`.
    fn hash(&self, s: W, o: [i32; 3]) -> W::U;
    /// The unit offset in [0, 1) of the feature point of the cell with hash `h` on axis `a`.
    fn unit(&self, s: W, h: W::U, a: usize) -> W::F;
    /// The lattice value of the cell with hash `h` (the cell-value return).
    fn value(&self, s: W, h: W::U) -> W::F;
}

/// `hash_unit` of `lattice_bits(h, a)`: 24 more bits of the cell's hash, as a unit float.
#[inline(always)]
fn feature_unit<W: Wide>(s: W, prime: bool, h: W::U, a: usize) -> W::F {
    let bits = if prime {
        prime_finish(s, s.xor_u(h, s.splat_u(LATTICE_PRIMES[a & 3])))
    } else {
        let start = s.add_u(h, s.splat_u(PRIME_5.wrapping_add(4)));
        hash_finish(s, hash_eat(s, start, s.splat_u(a as u32)))
    };
    hash_unit(s, bits)
}

/// The cells of an untiled hash lattice in registers: each lane's cells at offset 0
/// (xxHash32's) or their products with the lattice's primes (the prime lattice's, which step
/// with the offset: `(c + o) P = c P + o P`, exact modulo 2^32).
pub struct HashedCells<W: Wide, const D: usize, const PRIME: bool> {
    seed: u32,
    base: [W::U; 3],
}

impl<W: Wide, const D: usize, const PRIME: bool> HashedCells<W, D, PRIME> {
    /// The cells `cells[..D]` under the lattice's seed.
    #[inline(always)]
    pub fn new(s: W, seed: u32, mut cells: [W::U; 3]) -> Self {
        if PRIME {
            for a in 0..D {
                cells[a] = s.mul_u(cells[a], s.splat_u(LATTICE_PRIMES[a]));
            }
        }
        HashedCells { seed, base: cells }
    }
}

impl<W: Wide, const D: usize, const PRIME: bool> Cells<W> for HashedCells<W, D, PRIME> {
    #[inline(always)]
    fn hash(&self, s: W, o: [i32; 3]) -> W::U {
        let mut cells = [s.splat_u(0); 4];
        for a in 0..D {
            let step = if PRIME {
                (o[a] as u32).wrapping_mul(LATTICE_PRIMES[a])
            } else {
                o[a] as u32
            };
            cells[a] = s.add_u(self.base[a], s.splat_u(step));
        }
        if PRIME {
            // `prime_hash` with the products already taken.
            let mut acc = s.splat_u(self.seed);
            for cell in &cells[..D] {
                acc = s.xor_u(acc, *cell);
            }
            return prime_finish(s, acc);
        }
        let lat = WideLattice {
            hash_seed: self.seed,
            prime: false,
        };
        cell_hash::<W, D>(s, lat, cells)
    }
    #[inline(always)]
    fn unit(&self, s: W, h: W::U, a: usize) -> W::F {
        feature_unit(s, PRIME, h, a)
    }
    #[inline(always)]
    fn value(&self, s: W, h: W::U) -> W::F {
        hash_value(s, h)
    }
}

/// The lanes' points lane by lane: cells wrapped where the lattice tiles (`TILED`), any
/// lattice; the permutation table's feature points and values read per lane.
pub struct LaneCells<'a, const D: usize, const TILED: bool> {
    pub lat: &'a Lattice<'a>,
    pub p: &'a Points,
}

impl<W: Wide, const D: usize, const TILED: bool> Cells<W> for LaneCells<'_, D, TILED> {
    #[inline(always)]
    fn hash(&self, s: W, o: [i32; 3]) -> W::U {
        let mut h = [0u32; LANES];
        for l in 0..LANES {
            let mut cells = [0u32; 4];
            for a in 0..D {
                let cell = cell_offset(self.p.axis[a].cell[l], o[a]);
                cells[a] = if TILED {
                    lattice_cell(cell, self.lat.period[a])
                } else {
                    cell
                };
            }
            h[l] = lattice_hash(self.lat, cells, D);
        }
        s.load_u(&h)
    }
    #[inline(always)]
    fn unit(&self, s: W, h: W::U, a: usize) -> W::F {
        if self.lat.hashed {
            return feature_unit(s, self.lat.prime, h, a);
        }
        // The table: the value at `P[h + a]`, moved from [-1, 1) to [0, 1).
        let mut hashes = [0u32; LANES];
        s.store_u(&mut hashes, h);
        let mut u = [0.0f32; LANES];
        for l in 0..LANES {
            let at = perm_at(self.lat, hashes[l].wrapping_add(a as u32)) as usize;
            u[l] = (self.lat.values[at & 255] + 1.0) * 0.5;
        }
        s.load(&u)
    }
    #[inline(always)]
    fn value(&self, s: W, h: W::U) -> W::F {
        if self.lat.hashed {
            return hash_value(s, h);
        }
        let mut hashes = [0u32; LANES];
        s.store_u(&mut hashes, h);
        let mut v = [0.0f32; LANES];
        for l in 0..LANES {
            v[l] = lattice_value(self.lat, hashes[l]);
        }
        s.load(&v)
    }
}
