//! The three lattices (CONVENTIONS §2): the permutation table repeats every 256 cells; the hash
//! lattice (xxHash32 of the full cell coordinates) does not, is uniform and avalanches; the
//! prime lattice (FastNoise2's prime products) does not repeat either and is uniform; the hash
//! lattices' values are the same bits on the CPU and the GPU. (Every kind on both hash lattices
//! against the twin on the GPU and the SIMD lanes: `gpu_vs_cpu::hashed_lattice_cases`.)

use gpu_noise::low_level::hash::{cell_hash, hash_bits, prime_hash};
use gpu_noise::low_level::tables::SplitMix64;
use gpu_noise::{Fractal, Kind, NoiseSpec, Size, cpu, spec::LatticeKind};

use crate::support::{renderer, spec};
use gpu_noise::Window;

/// Every kind that hashes lattice cells, at its usual dims.
const KINDS: [(Kind, u32); 7] = [
    (Kind::Perlin, 2),
    (Kind::Gradient, 2),
    (Kind::Value, 2),
    (Kind::Simplex, 2),
    (Kind::Cellular, 2),
    (Kind::SparseConvolution, 2),
    (Kind::Gabor, 2),
];

#[test]
fn the_cell_hash_is_xxhash32_of_the_coordinates() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..200 {
        let seed = rng.next_u64() as u32;
        let cells = [0; 4].map(|_: u32| rng.next_u64() as u32);
        for dims in 1..=3 {
            let bytes: Vec<u8> = cells[..dims].iter().flat_map(|c| c.to_le_bytes()).collect();
            let reference = xxhash_rust::xxh32::xxh32(&bytes, seed);
            assert_eq!(cell_hash(seed, cells, dims), reference, "{dims}D");
        }
        let n = rng.next_u64() as u32;
        let reference = xxhash_rust::xxh32::xxh32(&n.to_le_bytes(), seed);
        assert_eq!(hash_bits(seed, n), reference);
    }
}

/// The prime lattice's hash as CONVENTIONS §2 states it, written out with FastNoise2's
/// published constants (`Primes::X..W` and `HashMultiplier::A` of its `Utils.inl`, v1.1.1).
#[test]
fn the_prime_hash_is_fastnoise2s_primes_with_a_logical_fold() {
    let primes: [u32; 4] = [0xF797C5C7, 0x6C060C89, 0x465FD04F, 0xF7A62279];
    let mut rng = SplitMix64::new(11);
    for _ in 0..200 {
        let seed = rng.next_u64() as u32;
        let cells = [0; 4].map(|_: u32| rng.next_u64() as u32);
        for dims in 1..=4 {
            let mut acc = seed;
            for a in 0..dims {
                acc ^= cells[a].wrapping_mul(primes[a]);
            }
            let h = acc.wrapping_mul(0xB7E0A5F5);
            assert_eq!(prime_hash(seed, cells, dims), h ^ (h >> 15), "{dims}D");
        }
    }
}

/// Every axis of the prime lattice is a bijection of its cell (odd primes and multiplier, and
/// an xorshift), so a row of cells never repeats before 2^32: 2^20 consecutive cells far out
/// on each axis give 2^20 different hashes.
#[test]
fn the_prime_hash_does_not_repeat_along_an_axis() {
    for axis in 0..4 {
        let mut seen: Vec<u32> = (0..1u32 << 20)
            .map(|n| {
                let mut cells: [u32; 4] = [7, 0x8000_0000, 12345, 3];
                cells[axis] = cells[axis].wrapping_add(n.wrapping_mul(3));
                prime_hash(42, cells, 4)
            })
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 1 << 20, "axis {axis}");
    }
}

/// 64 buckets by the top 6 and by the low 6 bits (perlin reads `h & 15`) over a 256 x 256 block
/// of cells, and over a line of cells 2^31 apart: chi-square below the 0.1% critical value
/// (103.4 for 63 degrees of freedom), for both hash lattices.
#[test]
fn the_hashes_are_uniform_over_buckets() {
    let chi2 = |hashes: &[u32], bucket: &dyn Fn(u32) -> usize| {
        let mut counts = [0f64; 64];
        for &h in hashes {
            counts[bucket(h)] += 1.0;
        }
        let expected = hashes.len() as f64 / 64.0;
        counts
            .iter()
            .map(|c| (c - expected).powi(2) / expected)
            .sum::<f64>()
    };
    type Hash = fn(u32, [u32; 4], usize) -> u32;
    let hashes: [(&str, Hash); 2] = [("hash", cell_hash), ("prime", prime_hash)];
    for (name, hash) in hashes {
        let block: Vec<u32> = (0..65536u32)
            .map(|n| hash(12345, [n % 256, n / 256, 0, 0], 2))
            .collect();
        let far: Vec<u32> = (0..65536u32)
            .map(|n| hash(99, [n.wrapping_mul(0x8000_0001), 7, 0, 0], 2))
            .collect();
        for (line, hashes) in [("block", &block), ("far", &far)] {
            let top = chi2(hashes, &|h| (h >> 26) as usize);
            let low = chi2(hashes, &|h| (h & 63) as usize);
            assert!(top < 103.4 && low < 103.4, "{name} {line}: {top} {low}");
        }
    }
}

/// Flipping any one input bit (of any coordinate or the seed) flips each output bit with
/// probability 1/2: measured over 2000 random inputs, within 0.44..0.56 for every pair.
#[test]
fn the_hash_avalanches() {
    let mut rng = SplitMix64::new(3);
    let inputs: Vec<(u32, [u32; 4])> = (0..2000)
        .map(|_| {
            let seed = rng.next_u64() as u32;
            (seed, [0; 4].map(|_: u32| rng.next_u64() as u32))
        })
        .collect();
    for word in 0..4 {
        for bit in 0..32 {
            let mut flips = [0u32; 32];
            for (seed, cells) in &inputs {
                let (mut s2, mut c2) = (*seed, *cells);
                if word == 3 {
                    s2 ^= 1 << bit;
                } else {
                    c2[word] ^= 1 << bit;
                }
                let diff = cell_hash(*seed, *cells, 3) ^ cell_hash(s2, c2, 3);
                for (out, f) in flips.iter_mut().enumerate() {
                    *f += (diff >> out) & 1;
                }
            }
            for (out, f) in flips.iter().enumerate() {
                let p = f64::from(*f) / inputs.len() as f64;
                assert!(
                    (0.44..=0.56).contains(&p),
                    "input word {word} bit {bit} -> output bit {out}: {p}"
                );
            }
        }
    }
}

/// Two windows 256 cells apart: equal bit for bit with the table (its period), different with
/// either hash, for every kind that hashes cells.
#[test]
fn windows_256_cells_apart_repeat_with_the_table_and_differ_with_the_hashes() {
    for (kind, dims) in KINDS {
        for lattice in [LatticeKind::Table, LatticeKind::Hash, LatticeKind::Prime] {
            let mut s = NoiseSpec::new(kind, dims);
            s.size = Size::new(24, 16, 1);
            s.frequency = 0.25;
            s.lattice = lattice;
            s.offset = [1000.0, -36.0, 0.0, 0.0];
            let near = cpu::render_f64(&s.validate().unwrap()).unwrap();
            // 256 cells = 1024 texels at 1/4 cell per texel. Simplex's lattice is skewed by
            // F (x + y), so it moves by (+256, -256) cells, which keeps x + y and the skew.
            let shift = if kind == Kind::Simplex {
                [1024.0, -1024.0]
            } else {
                [1024.0, 0.0]
            };
            s.offset[0] += shift[0];
            s.offset[1] += shift[1];
            let far = cpu::render_f64(&s.validate().unwrap()).unwrap();
            match lattice {
                LatticeKind::Table => assert_eq!(near, far, "{kind:?} table"),
                LatticeKind::Hash | LatticeKind::Prime => {
                    let same = near.iter().zip(&far).filter(|(a, b)| a == b).count();
                    assert!(
                        same < near.len() / 10,
                        "{kind:?} {lattice}: {same} equal texels"
                    );
                }
            }
        }
    }
}

/// Value noise at lattice points is the lattice value itself: with the hash lattice, the GPU's
/// f32 and the CPU's f64 are the same number, bit for bit, at 1e12 as at 0.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn hash_lattice_values_are_bit_identical_on_cpu_and_gpu() {
    let mut r = renderer();
    let cases = [
        (LatticeKind::Hash, 1, 0.0),
        (LatticeKind::Hash, 2, 1e12),
        (LatticeKind::Hash, 3, -5e11),
        (LatticeKind::Hash, 4, 1e12),
        (LatticeKind::Prime, 2, -1e12),
        (LatticeKind::Prime, 3, 5e11),
    ];
    for (lattice, dims, far) in cases {
        let mut s = spec(Kind::Value, dims, 32, if dims == 1 { 1 } else { 8 });
        s.lattice = lattice;
        s.frequency = 1.0;
        s.offset = [far, -far, 3.0, far];
        let prep = s.validate().unwrap();
        let gpu = r.read(&prep, Window::full(prep.size())).unwrap();
        let cpu = cpu::render_f64(&prep).unwrap();
        for (g, c) in gpu.iter().zip(&cpu) {
            assert_eq!(g.to_bits(), (*c as f32).to_bits(), "{dims}D");
            assert_eq!(f64::from(*g), *c, "{dims}D: the value is exact in f32");
        }
    }
}

/// Tiling wraps cells before hashing, so a tiled hash-lattice image repeats with its size.
#[test]
fn tiled_hash_lattice_images_repeat_with_their_size() {
    for (kind, dims, lattice) in [
        (Kind::Perlin, 2, LatticeKind::Hash),
        (Kind::Cellular, 2, LatticeKind::Hash),
        (Kind::Value, 3, LatticeKind::Hash),
        (Kind::Perlin, 3, LatticeKind::Prime),
    ] {
        let mut s = NoiseSpec::new(kind, dims);
        s.size = Size::new(32, 16, 1);
        s.frequency = 0.25;
        s.tile = true;
        s.lattice = lattice;
        let first = cpu::render_f64(&s.validate().unwrap()).unwrap();
        s.offset = [32.0 * 3.0, -16.0, 0.0, 0.0];
        let moved = cpu::render_f64(&s.validate().unwrap()).unwrap();
        assert_eq!(first, moved, "{kind:?}");
    }
}

/// The row renderer (perlin 1D-3D) hashes each cell once per run of texels; it stays
/// bit-identical to the per-texel twin on the hash lattice.
#[test]
fn the_row_renderer_is_bit_identical_for_every_kind() {
    // Every kind but Perlin 1D-3D steps the exact point along the row and calls the octave.
    for (kind, dims) in [
        (Kind::Gradient, 3),
        (Kind::Value, 2),
        (Kind::Simplex, 3),
        (Kind::Simplex, 4),
        (Kind::Perlin, 4),
        (Kind::Cellular, 2),
        (Kind::SparseConvolution, 3),
        (Kind::Gabor, 2),
    ] {
        let mut s = NoiseSpec::new(kind, dims);
        s.size = Size::new(24, 4, 1);
        // Value noise tiles (whole periods: 24 x 4 texels at 0.25 = 6 x 1 cells, then 12 x 2).
        s.tile = kind == Kind::Value;
        s.frequency = if s.tile { 0.25 } else { 0.37 };
        s.fractal = Fractal::Fbm;
        s.octaves = 2;
        s.offset = [-3e7 + 0.25, 11.5, -2.0, 7.0];
        let prep = s.validate().unwrap();
        let rows = cpu::render_f64(&prep).unwrap();
        for (n, v) in rows.iter().enumerate() {
            let (i, j) = ((n % 24) as u32, (n / 24) as u32);
            let texel = cpu::noise_at_texel(&prep, [i, j, 0]);
            assert_eq!(v.to_bits(), texel.to_bits(), "{kind} {dims}D texel {n}");
        }
    }
}

#[test]
fn the_row_renderer_is_bit_identical_on_the_hash_lattices() {
    for (dims, lattice) in (1..=3).flat_map(|d| [(d, LatticeKind::Hash), (d, LatticeKind::Prime)]) {
        let mut s = NoiseSpec::new(Kind::Perlin, dims);
        s.size = Size::new(40, if dims == 1 { 1 } else { 3 }, 1);
        s.lattice = lattice;
        s.frequency = 0.3;
        s.fractal = Fractal::Ridged;
        s.octaves = 3;
        s.offset = [5e9, -7.5, 2.0, 0.0];
        let prep = s.validate().unwrap();
        let rows = cpu::render_f64(&prep).unwrap();
        for (n, v) in rows.iter().enumerate() {
            let (i, j) = ((n % 40) as u32, (n / 40) as u32);
            assert_eq!(
                *v,
                cpu::noise_at_texel(&prep, [i, j, 0]),
                "{dims}D {lattice} texel {n}"
            );
        }
    }
}
