//! Chunks of a streamed world (`Job::chunk`): neighbours share their border texels bit for
//! bit, a chunk at level L holds every 2^L-th texel of level 0, chunks are the world's own
//! texels, and they stay within the bound of the twin far from the origin.

use gpu_noise::low_level::tolerance::compare;
use gpu_noise::{Chunk, Error, Fractal, Job, Kind, NoiseSpec, Renderer, cpu, spec::LatticeKind};

use crate::support::renderer;
use gpu_noise::Window;

const N: u32 = 16;

fn world(kind: Kind, dims: u32) -> Job {
    let mut s = NoiseSpec::new(kind, dims);
    s.fractal = Fractal::Ridged;
    s.octaves = 5;
    s.frequency = 0.0371;
    s.lattice = LatticeKind::Hash;
    s.offset = [0.5, -0.25, 3.0, 7.0];
    s.validate().unwrap()
}

/// A chunk's texels from the GPU (as f32) and from the twin (rounded to f32), row-major.
fn both(r: &mut Renderer, w: &Job, c: Chunk) -> (Vec<f32>, Vec<f32>) {
    let prep = w.chunk(&c).unwrap();
    let gpu = r.read(&prep, Window::full(prep.size())).unwrap();
    let cpu = cpu::render_f32(&prep).unwrap();
    (gpu, cpu)
}

fn at(v: &[f32], i: u32, j: u32) -> u32 {
    v[(j * (N + 1) + i) as usize].to_bits()
}

/// Chunks 1e9 texels out (and beyond 2^31 chunks): every pair of neighbours at lod 0 and 2
/// shares its border columns and rows, bit for bit, on the GPU and on the CPU.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn neighbouring_chunks_share_their_borders_bit_for_bit() {
    let mut r = renderer();
    let w = world(Kind::Perlin, 2);
    for (base, lod) in [([62_500_000i64, -62_500_001], 0), ([3_000_000_000, 5], 2)] {
        let get = |r: &mut Renderer, dx: i64, dy: i64| {
            both(r, &w, Chunk::new([base[0] + dx, base[1] + dy, 0], N, lod))
        };
        let (g00, c00) = get(&mut r, 0, 0);
        let (g10, c10) = get(&mut r, 1, 0);
        let (g01, c01) = get(&mut r, 0, 1);
        for k in 0..=N {
            assert_eq!(at(&g00, N, k), at(&g10, 0, k), "GPU column seam, lod {lod}");
            assert_eq!(at(&c00, N, k), at(&c10, 0, k), "CPU column seam, lod {lod}");
            assert_eq!(at(&g00, k, N), at(&g01, k, 0), "GPU row seam, lod {lod}");
            assert_eq!(at(&c00, k, N), at(&c01, k, 0), "CPU row seam, lod {lod}");
        }
        let cmp = compare(&g00, &c00.iter().map(|&v| f64::from(v)).collect::<Vec<_>>());
        assert!(cmp.max_abs_err <= w.gpu_error_bound().value, "{cmp:?}");
    }
}

/// Chunk (cx, cy) at lod 1 holds every other texel of the four lod-0 chunks it covers.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_chunk_at_level_l_holds_every_2_pow_l_th_texel_of_level_0() {
    let mut r = renderer();
    let w = world(Kind::Simplex, 2); // the skewed frame moves too
    let (cx, cy) = (-40_000_001i64, 12_345);
    let (coarse_g, coarse_c) = both(&mut r, &w, Chunk::new([cx, cy, 0], N, 1));
    for (qx, qy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let (fine_g, fine_c) = both(&mut r, &w, Chunk::new([2 * cx + qx, 2 * cy + qy, 0], N, 0));
        for j in (0..=N).step_by(2) {
            for i in (0..=N).step_by(2) {
                let (ci, cj) = ((qx as u32 * N + i) / 2, (qy as u32 * N + j) / 2);
                assert_eq!(at(&coarse_g, ci, cj), at(&fine_g, i, j), "GPU ({i}, {j})");
                assert_eq!(at(&coarse_c, ci, cj), at(&fine_c, i, j), "CPU ({i}, {j})");
            }
        }
    }
}

/// Chunks are the world's texels: chunk (1, 0) of size 16 is texels 16..=32 of the image.
#[test]
fn chunks_are_the_world_images_own_texels() {
    let mut s = NoiseSpec::new(Kind::Value, 3);
    s.size = gpu_noise::Size::new(33, 17, 1);
    s.offset = [1e12, -3.5, 2.0, 0.0];
    let image = s.validate().unwrap();
    let whole = cpu::render_f64(&image).unwrap();
    let chunk = image.chunk(&Chunk::new([1, 0, 0], N, 0)).unwrap();
    let part = cpu::render_f64(&chunk).unwrap();
    for j in 0..=N {
        for i in 0..=N {
            let texel = whole[(j * 33 + N + i) as usize];
            assert_eq!(part[(j * (N + 1) + i) as usize], texel, "({i}, {j})");
        }
    }
}

/// Volume chunks of 3D noise, far out, against the twin; cellular's search crosses chunk
/// borders like any other.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn far_volume_and_cellular_chunks_match_the_twin() {
    let mut r = renderer();
    for (kind, chunk) in [
        (Kind::Perlin, Chunk::volume([1 << 40, -(1 << 40), 3], 8, 0)),
        (Kind::Cellular, Chunk::new([-(1 << 33), 1 << 33, 0], N, 3)),
    ] {
        let dims = if chunk.volume { 3 } else { 2 };
        let w = world(kind, dims);
        let prep = w.chunk(&chunk).unwrap();
        let gpu = r.read(&prep, Window::full(prep.size())).unwrap();
        let cmp = compare(&gpu, &cpu::render_f64(&prep).unwrap());
        assert!(
            cmp.max_abs_err <= w.gpu_error_bound().value,
            "{kind:?}: {cmp:?}"
        );
    }
}

#[test]
fn malformed_or_unreachable_chunks_are_errors_naming_the_chunk() {
    let w = world(Kind::Perlin, 2);
    let field = |c: Chunk| match w.chunk(&c) {
        Err(Error::InvalidChunk { field, reason }) => (field, reason),
        other => panic!("{other:?}"),
    };
    assert_eq!(field(Chunk::new([0; 3], 0, 0)).0, "size");
    let (name, reason) = field(Chunk::volume([0; 3], 8, 0));
    assert!(
        name == "volume" && reason.contains("3 or 4 dims"),
        "{reason}"
    );
    let (name, reason) = field(Chunk::new([0; 3], 8, 33));
    assert!(name == "lod" && reason.contains("0..=32"), "{reason}");
    let (name, reason) = field(Chunk::new([i64::MAX / 4, 0, 0], 64, 0));
    assert_eq!(name, "coords");
    assert!(reason.contains("2^62"), "{reason}");
    // A chunk stays placed: moving it means taking another chunk of the moved world.
    let mut c = w.chunk(&Chunk::new([1, 2, 0], 8, 0)).unwrap();
    assert!(c.set_offset([1.0, 2.0, 0.0, 0.0]).is_err());
}
