//! The two lattices (CONVENTIONS §2): the permutation table repeats every 256 cells; the hash
//! lattice (xxHash32 of the full cell coordinates) does not, is uniform and avalanches, and its
//! lattice values are the same bits on the CPU and the GPU.

use gpu_noise::low_level::hash::{cell_hash, hash_bits};
use gpu_noise::low_level::tables::SplitMix64;
use gpu_noise::low_level::tolerance::{compare, gpu_error_bound};
use gpu_noise::{Fractal, Kind, NoiseSpec, Size, cpu, spec::Interp, spec::LatticeKind};

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

/// 64 buckets by the top 6 and by the low 6 bits (perlin reads `h & 15`) over a 256 x 256 block
/// of cells, and over a line of cells 2^31 apart: chi-square below the 0.1% critical value
/// (103.4 for 63 degrees of freedom).
#[test]
fn the_hash_is_uniform_over_buckets() {
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
    let block: Vec<u32> = (0..65536u32)
        .map(|n| cell_hash(12345, [n % 256, n / 256, 0, 0], 2))
        .collect();
    let far: Vec<u32> = (0..65536u32)
        .map(|n| cell_hash(99, [n.wrapping_mul(0x8000_0001), 7, 0, 0], 2))
        .collect();
    for hashes in [&block, &far] {
        assert!(chi2(hashes, &|h| (h >> 26) as usize) < 103.4);
        assert!(chi2(hashes, &|h| (h & 63) as usize) < 103.4);
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
/// the hash, for every kind that hashes cells.
#[test]
fn windows_256_cells_apart_repeat_with_the_table_and_differ_with_the_hash() {
    for (kind, dims) in KINDS {
        for lattice in [LatticeKind::Table, LatticeKind::Hash] {
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
                LatticeKind::Hash => {
                    let same = near.iter().zip(&far).filter(|(a, b)| a == b).count();
                    assert!(same < near.len() / 10, "{kind:?} hash: {same} equal texels");
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
    for (dims, far) in [(1, 0.0), (2, 1e12), (3, -5e11), (4, 1e12)] {
        let mut s = spec(Kind::Value, dims, 32, if dims == 1 { 1 } else { 8 });
        s.lattice = LatticeKind::Hash;
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

/// Every kind on the hash lattice, on the GPU against the twin: each hashing code path once
/// (the cell hash in 1D-4D, simplex's own corner hashes, feature points, impulse states,
/// Catmull-Rom's 4^dims cells), with a fractal, and tiling where the kind tiles. (Each case is
/// a pipeline that compiles cold in CI, so paths rather than every kind x dims.)
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn every_kind_on_the_hash_lattice_matches_the_twin_on_the_gpu() {
    let mut r = renderer();
    let cases = [
        (Kind::Perlin, 1, Interp::Quintic),
        (Kind::Perlin, 4, Interp::Quintic),
        (Kind::Gradient, 3, Interp::Cubic),
        (Kind::Value, 2, Interp::Quintic),
        (Kind::Value, 3, Interp::CatmullRom),
        (Kind::Simplex, 2, Interp::Quintic),
        (Kind::Simplex, 4, Interp::Quintic),
        (Kind::Cellular, 3, Interp::Quintic),
        (Kind::SparseConvolution, 2, Interp::Quintic),
        (Kind::Gabor, 2, Interp::Quintic),
    ];
    for (kind, dims, interp) in cases {
        let mut s = spec(kind, dims, 16, if dims == 1 { 1 } else { 12 });
        s.lattice = LatticeKind::Hash;
        s.interp = interp;
        s.frequency = 0.25;
        s.fractal = Fractal::Fbm;
        s.octaves = 2;
        s.tile = kind.tiles();
        s.offset = [-8.0, 4.0, 0.0, 0.0];
        let prep = s
            .validate()
            .unwrap_or_else(|e| panic!("{kind:?} {dims}d: {e}"));
        let gpu = r.read(&prep, Window::full(prep.size())).unwrap();
        let cmp = compare(&gpu, &cpu::render_f64(&prep).unwrap());
        let bound = gpu_error_bound(&s).value;
        assert!(cmp.max_abs_err <= bound, "{kind:?} {dims}d: {cmp:?}");
    }
}

/// Tiling wraps cells before hashing, so a tiled hash-lattice image repeats with its size.
#[test]
fn tiled_hash_lattice_images_repeat_with_their_size() {
    for (kind, dims) in [(Kind::Perlin, 2), (Kind::Cellular, 2), (Kind::Value, 3)] {
        let mut s = NoiseSpec::new(kind, dims);
        s.size = Size::new(32, 16, 1);
        s.frequency = 0.25;
        s.tile = true;
        s.lattice = LatticeKind::Hash;
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
fn the_row_renderer_is_bit_identical_on_the_hash_lattice() {
    for dims in 1..=3 {
        let mut s = NoiseSpec::new(Kind::Perlin, dims);
        s.size = Size::new(40, if dims == 1 { 1 } else { 3 }, 1);
        s.lattice = LatticeKind::Hash;
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
                "{dims}D texel {n}"
            );
        }
    }
}
