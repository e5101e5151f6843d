//! One world (CONVENTIONS §1): every way of rendering a world texel gives the same value. At
//! dyadic and non-dyadic frequencies (1/32, 0.0371, 0.1, 1/3) and offsets 0, 1e9 and -1e12,
//! for a flat spec and for a graph with warps, rotations and translations, a chunk at lods 0-3
//! equals the image rendered at the chunk's offset (every 2^L-th texel of it at lod L), a window
//! of a larger image, and `sample_texels` at the texels' root points: bit for bit on the f64
//! twin, and bit for bit on the SIMD lanes (which step the same exact coordinates); on the GPU
//! chunk, image and window agree bit for bit too, within the bound of the twin.

use gpu_noise::graph::GraphBuilder;
use gpu_noise::{Chunk, Fractal, Job, Kind, NoiseSpec, Size, cpu, simd, spec::LatticeKind};

const FREQUENCIES: [f64; 4] = [1.0 / 32.0, 0.0371, 0.1, 1.0 / 3.0];
const OFFSETS: [f64; 3] = [0.0, 1e9, -1e12];
/// Chunk (1, 2) of 8 texels: 9 x 9 texels, 2^lod world texels apart.
const CHUNK: ([i64; 3], u32) = ([1, 2, 0], 8);

/// A flat world: 3 octaves of hash-lattice Perlin fBm (hash: no 256-cell repeats far out).
fn flat(frequency: f64, offset: f64) -> Job {
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.frequency = frequency;
    spec.fractal = Fractal::Fbm;
    spec.octaves = 3;
    spec.lattice = LatticeKind::Hash;
    spec.seed = 42;
    spec.size = Size::new(1, 1, 1);
    spec.offset = [offset, -offset, 0.0, 0.0];
    spec.validate().expect("a valid flat world")
}

/// A graph world: simplex and Perlin at the frequency, under a progressive warp, a rotation
/// and a translation (every frame: skewed, rotated, displaced).
fn graph(frequency: f64, offset: f64) -> Job {
    let mut g = GraphBuilder::new(2);
    g.lattice(LatticeKind::Hash);
    g.node("p", "perlin").set("frequency", frequency);
    g.node("s", "simplex")
        .set("frequency", frequency)
        .set("seed", 3u64);
    g.node("f", "fbm").input("source", "p").set("octaves", 2u32);
    g.node("w", "warp")
        .input("source", "f")
        .inputs("by", &["s", "s"])
        .set("amplitude", 3.0)
        .set("iterations", 2u32)
        .set("mode", "progressive");
    g.node("r", "rotate")
        .input("source", "w")
        .set("degrees", 30.0);
    g.node("t", "translate")
        .input("source", "r")
        .set("by", [0.5, -7.25]);
    g.node("out", "add").inputs("inputs", &["t", "s"]);
    g.output("out");
    let graph = g.build().expect("a valid graph");
    graph
        .prepare(Size::new(1, 1, 1), [offset, -offset, 0.0, 0.0])
        .expect("a graph world")
}

/// `world` moved by `by` texels and resized: an image of the same world.
fn image(world: &Job, by: [i64; 2], size: u32) -> Job {
    let o = world.offset();
    let moved = [o[0] + by[0] as f64, o[1] + by[1] as f64, 0.0, 0.0];
    let job = world.with_offset(moved).expect("the moved image");
    job.chunk(&Chunk::new([0, 0, 0], size - 1, 0))
        .expect("an image of `size` texels")
}

/// The twin's and the lanes' values of a job.
fn values(job: &Job) -> (Vec<f64>, Vec<f32>) {
    let twin = cpu::render_f64(job).expect("the twin renders");
    let lanes = simd::render_f32(job).expect("the lanes render");
    (twin, lanes)
}

/// Every texel of `chunk` (side n, 2^lod apart) equals texel (i, j) 2^lod of `image`.
fn same_texels(chunk: &Job, image: &Job, lod: u32, what: &str) {
    let (ct, cl) = values(chunk);
    let (it, il) = values(image);
    let n = chunk.size().width as usize;
    let side = image.size().width as usize;
    let step = 1usize << lod;
    for j in 0..n {
        for i in 0..n {
            let (c, m) = (j * n + i, j * step * side + i * step);
            assert_eq!(
                ct[c].to_bits(),
                it[m].to_bits(),
                "{what}: twin at ({i}, {j})"
            );
            assert_eq!(
                cl[c].to_bits(),
                il[m].to_bits(),
                "{what}: lanes at ({i}, {j})"
            );
        }
    }
}

fn one_world(name: &str, make: fn(f64, f64) -> Job) {
    for frequency in FREQUENCIES {
        for offset in OFFSETS {
            let world = make(frequency, offset);
            for lod in 0..=3u32 {
                let what = format!("{name} at frequency {frequency}, offset {offset}, lod {lod}");
                let chunk = world
                    .chunk(&Chunk::new(CHUNK.0, CHUNK.1, lod))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let span = i64::from(CHUNK.1) << lod;
                let first = [CHUNK.0[0] * span, CHUNK.0[1] * span];
                // The image at the chunk's offset, lod 0: every 2^lod-th texel is the chunk's.
                let at_offset = image(&world, first, CHUNK.1 * (1 << lod) + 1);
                same_texels(
                    &chunk,
                    &at_offset,
                    lod,
                    &format!("{what}, image at its offset"),
                );
                if lod == 0 {
                    // A window of a larger image: the chunk's texels inside one at the world's
                    // own offset.
                    let larger = image(&world, [0, 0], 3 * CHUNK.1 + 1);
                    let (lt, _) = values(&larger);
                    let (ct, _) = values(&chunk);
                    let side = larger.size().width as usize;
                    for (c, v) in ct.iter().enumerate() {
                        let (i, j) = (c % 9, c / 9);
                        let at = (first[1] as usize + j) * side + first[0] as usize + i;
                        assert_eq!(
                            v.to_bits(),
                            lt[at].to_bits(),
                            "{what}: window at ({i}, {j})"
                        );
                    }
                }
                // `sample_texels` at each texel's root point (exact in f64 here).
                let o = world.offset();
                let points: Vec<[f64; 4]> = (0..81)
                    .map(|c| {
                        let (i, j) = ((c % 9) as i64, (c / 9) as i64);
                        let x = o[0] + (first[0] + (i << lod)) as f64;
                        let y = o[1] + (first[1] + (j << lod)) as f64;
                        [x, y, 0.0, 0.0]
                    })
                    .collect();
                let sampled = cpu::sample_texels(&world, &points);
                let (ct, _) = values(&chunk);
                for (c, (s, v)) in sampled.iter().zip(&ct).enumerate() {
                    assert_eq!(s.to_bits(), v.to_bits(), "{what}: sample at texel {c}");
                }
            }
        }
    }
}

#[test]
fn a_flat_world_is_one_function_of_the_world_texel() {
    one_world("flat", flat);
}

#[test]
fn a_graph_world_is_one_function_of_the_world_texel() {
    one_world("graph", graph);
}

/// The same world on the GPU: a chunk at lods 0-3 equals the image rendered at the chunk's
/// offset (every 2^L-th texel) and the window of a larger image read back alone (a tile of a
/// tile set), bit for bit, since all three step the same exact coordinates through the same
/// kernel; and the chunk is within the job's bound of the twin.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn the_gpu_renders_one_world_too() {
    use gpu_noise::Window;
    let mut r = crate::support::renderer();
    for (name, make) in [("flat", flat as fn(f64, f64) -> Job), ("graph", graph)] {
        for frequency in FREQUENCIES {
            for offset in OFFSETS {
                let world = make(frequency, offset);
                for lod in 0..=3u32 {
                    let what = format!("{name} at {frequency}, offset {offset}, lod {lod} (GPU)");
                    let chunk = world.chunk(&Chunk::new(CHUNK.0, CHUNK.1, lod)).unwrap();
                    let span = i64::from(CHUNK.1) << lod;
                    let first = [CHUNK.0[0] * span, CHUNK.0[1] * span];
                    let at_offset = image(&world, first, CHUNK.1 * (1 << lod) + 1);
                    let c = r.read(&chunk, Window::full(chunk.size())).unwrap();
                    let m = r.read(&at_offset, Window::full(at_offset.size())).unwrap();
                    let (n, side, step) = (9, at_offset.size().width as usize, 1usize << lod);
                    for (k, v) in c.iter().enumerate().take(n * n) {
                        let (i, j) = (k % n, k / n);
                        let at = j * step * side + i * step;
                        assert_eq!(v.to_bits(), m[at].to_bits(), "{what}: texel ({i}, {j})");
                    }
                    let twin = cpu::render_f64(&chunk).unwrap();
                    let bound = chunk.gpu_error_bound().value;
                    for (k, (g, t)) in c.iter().zip(&twin).enumerate() {
                        assert!(
                            (f64::from(*g) - t).abs() <= bound,
                            "{what}: texel {k} vs twin"
                        );
                    }
                    if lod == 0 {
                        let larger = image(&world, [0, 0], 3 * CHUNK.1 + 1);
                        let origin = [first[0] as u32, first[1] as u32, 0];
                        let window = Window::new(origin, chunk.size());
                        let tile = r.read(&larger, window).unwrap();
                        assert!(
                            tile.iter().zip(&c).all(|(a, b)| a.to_bits() == b.to_bits()),
                            "{what}: the window of a larger image differs"
                        );
                    }
                }
            }
        }
    }
}
