//! `gpu-noise bench --fastnoise2 LIB`: gpu-noise's SIMD backend against FastNoise2 (Auburn,
//! v1.x, loaded from the user's own build of it) on the workloads of the speed issue, thread
//! for thread (1 and 2 threads), on AVX-512 and AVX2, the engines interleaved round by round.
//! Both write into memory they were given, so allocation is timed for neither.
//! Msamples/s = texels x noise samples per texel.

mod api;

use std::path::Path;
use std::time::{Duration, Instant};

use gpu_noise::simd::{self, InstructionSet};
use gpu_noise::spec::LatticeKind;
use gpu_noise::{Error, Fractal, Graph, Job, Kind, NoiseSpec, Result, Size, Window};

use super::rounds::{interleaved, median_f64, speedup};
use crate::workloads::FREQUENCY;
use api::{FastNoise2, FeatureSet, Node};

/// The terrain tree of the speed issue, as gpu-noise's example graph.
const TERRAIN: &str = include_str!("../../../../../examples/graphs/terrain.json");

/// One workload: our job, and the FastNoise2 tree that samples the same noises as often.
struct Case {
    name: &'static str,
    side: u32,
    dims: u32,
    /// Noise samples per texel.
    samples: u32,
    jobs: Jobs,
    tree: Tree,
}

fn flat(kind: Kind, dims: u32, octaves: u32, side: u32) -> Result<Jobs> {
    each_lattice(|lattice| {
        let mut spec = NoiseSpec::new(kind, dims);
        spec.size = Size::new(side, side, 1);
        spec.frequency = FREQUENCY;
        spec.lattice = lattice;
        if octaves > 1 {
            spec.fractal = Fractal::Fbm;
            spec.octaves = octaves;
        }
        spec.validate()
    })
}

/// Our job on each lattice: the permutation table (Ken Perlin's), xxHash32 and the prime
/// lattice (the default: FastNoise2's own kind of hash).
type Jobs = [Job; 3];
const LATTICES: [LatticeKind; 3] = [LatticeKind::Table, LatticeKind::Hash, LatticeKind::Prime];

fn each_lattice(job: impl Fn(LatticeKind) -> Result<Job>) -> Result<Jobs> {
    Ok([job(LATTICES[0])?, job(LATTICES[1])?, job(LATTICES[2])?])
}

/// The terrain example on each lattice.
fn terrain_jobs() -> Result<Jobs> {
    each_lattice(|lattice| {
        let mut graph: serde_json::Value =
            serde_json::from_str(TERRAIN).map_err(|e| bench_error(&e.to_string()))?;
        graph["lattice"] = serde_json::Value::from(lattice.name());
        Graph::from_json(&graph.to_string())?.prepare(Size::new(1024, 1024, 1), [0.0; 4])
    })
}

/// FastNoise2's tree for a feature set.
type Tree = fn(&FastNoise2, FeatureSet) -> std::result::Result<Node<'_>, String>;

/// A flat workload: `kind` in `dims` with `octaves` of fBm over a `side`^2 image (a slice in
/// 3D), one sample per octave.
fn flat_case(
    name: &'static str,
    (kind, dims, octaves): (Kind, u32, u32),
    side: u32,
    tree: Tree,
) -> Result<Case> {
    Ok(Case {
        name,
        side,
        dims,
        samples: octaves,
        jobs: flat(kind, dims, octaves, side)?,
        tree,
    })
}

fn cases() -> Result<Vec<Case>> {
    Ok(vec![
        flat_case(
            "perlin-3d, 1 octave (a slice)",
            (Kind::Perlin, 3, 1),
            4096,
            |fn2, f| scaled(fn2, "Perlin", f),
        )?,
        flat_case(
            "perlin-2d fBm, 6 octaves",
            (Kind::Perlin, 2, 6),
            2048,
            |fn2, f| fbm(fn2, scaled(fn2, "Perlin", f)?, 6, f),
        )?,
        flat_case(
            "simplex-2d fBm, 6 octaves",
            (Kind::Simplex, 2, 6),
            2048,
            |fn2, f| fbm(fn2, scaled(fn2, "Simplex", f)?, 6, f),
        )?,
        flat_case("value-2d", (Kind::Value, 2, 1), 2048, |fn2, f| {
            scaled(fn2, "Value", f)
        })?,
        flat_case("cellular-2d F1", (Kind::Cellular, 2, 1), 2048, cellular)?,
        Case {
            name: "terrain graph (12 samples)",
            side: 1024,
            dims: 2,
            samples: 12,
            jobs: terrain_jobs()?,
            tree: terrain_tree,
        },
    ])
}

/// A noise node at our frequency (FastNoise2's feature scale is its reciprocal, in texels).
fn scaled<'a>(
    fn2: &'a FastNoise2,
    name: &str,
    f: FeatureSet,
) -> std::result::Result<Node<'a>, String> {
    let n = fn2.node(name, f)?;
    n.float("Feature Scale", (1.0 / FREQUENCY) as f32)?;
    Ok(n)
}

fn fbm<'a>(
    fn2: &'a FastNoise2,
    source: Node<'a>,
    octaves: i32,
    f: FeatureSet,
) -> std::result::Result<Node<'a>, String> {
    let n = fn2.node("FractalFBm", f)?;
    n.input("Source", &source)?.int("Octaves", octaves)?;
    Ok(n)
}

/// F1, Euclidean, as gpu-noise's cellular default.
fn cellular(fn2: &FastNoise2, f: FeatureSet) -> std::result::Result<Node<'_>, String> {
    let n = scaled(fn2, "CellularDistance", f)?;
    n.option("Distance Function", "Euclidean")?
        .int("Distance Index 0", 0)?
        .option("Return Type", "Index0")?;
    Ok(n)
}

/// examples/graphs/terrain.json in FastNoise2's nodes: continents (Perlin fBm, 5 octaves,
/// cached as it is read twice), mountains (ridged Perlin, 5 octaves, under a simplex domain
/// warp of amplitude 24), a Hermite fade between them over continents in [0, 0.4] (our
/// smoothstep, remap and blend), and a terrace of 5 steps.
fn terrain_tree(fn2: &FastNoise2, f: FeatureSet) -> std::result::Result<Node<'_>, String> {
    let continent_noise = fn2.node("Perlin", f)?;
    continent_noise.float("Feature Scale", 250.0)?;
    let continents = fbm(fn2, continent_noise, 5, f)?;
    let cached = fn2.node("GeneratorCache", f)?;
    cached.input("Source", &continents)?;
    let ridge_noise = fn2.node("Perlin", f)?;
    ridge_noise.float("Feature Scale", 100.0)?;
    let ridges = fn2.node("FractalRidged", f)?;
    ridges.input("Source", &ridge_noise)?.int("Octaves", 5)?;
    let mountains = fn2.node("DomainWarpSimplex", f)?;
    mountains
        .input("Source", &ridges)?
        .float("Feature Scale", 100.0)?
        .hybrid("Warp Amplitude", 24.0)?;
    let land = fn2.node("Fade", f)?;
    land.input("A", &cached)?
        .input("B", &mountains)?
        .input("Fade", &cached)?
        .hybrid("Fade Min", 0.0)?
        .hybrid("Fade Max", 0.4)?
        .option("Interpolation", "Hermite")?;
    let terrain = fn2.node("Terrace", f)?;
    terrain.input("Source", &land)?.float("Step Count", 5.0)?;
    Ok(terrain)
}

/// Which engine a timed run is, on which instruction set and thread count.
struct Label {
    isa: InstructionSet,
    threads: usize,
}

/// Timed runs per instruction set and thread count: ours on each lattice, then FastNoise2.
const PER: usize = LATTICES.len() + 1;

type Run<'a> = Box<dyn FnMut() -> Result<Duration> + 'a>;

/// Prints the comparison table for the FastNoise2 library at `path`, on the workloads whose
/// name contains `only` where given.
pub fn table(path: &Path, repeat: u32, only: Option<&str>) -> Result<()> {
    let cases: Vec<Case> = (cases()?.into_iter())
        .filter(|c| only.is_none_or(|text| c.name.contains(text)))
        .collect();
    if cases.is_empty() {
        return Err(Error::InvalidSpec {
            field: "case",
            reason: format!("no workload's name contains {:?}", only.unwrap_or_default()),
        });
    }
    let fn2 = FastNoise2::load(path).map_err(|e| bench_error(&e))?;
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .map(|&n| rayon::ThreadPoolBuilder::new().num_threads(n).build())
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| Error::Unsupported(format!("a thread pool: {e}")))?;
    let isas: Vec<InstructionSet> = [InstructionSet::Avx512, InstructionSet::Avx2]
        .into_iter()
        .filter(|i| i.available())
        .collect();
    outln!(
        "gpu-noise SIMD vs FastNoise2 ({}), Msamples/s, median of {repeat} interleaved rounds",
        path.display()
    )?;
    let ours = LATTICES.map(|l| {
        let mark = if l == LatticeKind::DEFAULT { "*" } else { "" };
        format!("ours:{l}{mark}")
    });
    outln!(
        "{:<30} {:>7} {:>3}  {:>10} {:>9} {:>11} {:>11}  {:>12}  FastNoise2 ran on",
        "workload",
        "ISA",
        "thr",
        ours[0],
        ours[1],
        ours[2],
        "FastNoise2",
        "ratio*"
    )?;
    for case in cases {
        compare(&case, &fn2, &isas, &pools, repeat)?;
    }
    outln!(
        "* the default lattice ({}); ratio: its rate over FastNoise2's (the median of the \
         per-round ratios), and the faster lattice's where another is faster",
        LatticeKind::DEFAULT
    )?;
    Ok(())
}

fn compare(
    case: &Case,
    fn2: &FastNoise2,
    isas: &[InstructionSet],
    pools: &[rayon::ThreadPool],
    repeat: u32,
) -> Result<()> {
    let texels = u64::from(case.side) * u64::from(case.side);
    let mut trees = Vec::new();
    for &isa in isas {
        let tree = (case.tree)(fn2, feature_set(isa)).map_err(|e| bench_error(&e))?;
        trees.push((isa, tree));
    }
    let mut outputs = vec![vec![0.0f32; texels as usize]; PER * isas.len() * pools.len()];
    let mut labels = Vec::new();
    let mut runs: Vec<Run> = Vec::new();
    let mut slots = outputs.iter_mut();
    for (isa, tree) in &trees {
        for (threads, pool) in [1, 2].into_iter().zip(pools) {
            labels.push(Label { isa: *isa, threads });
            for job in &case.jobs {
                let out = slots
                    .next()
                    .expect("PER outputs per instruction set and pool");
                let window = Window::full(job.size());
                runs.push(Box::new(move || {
                    timed(|| {
                        pool.install(|| {
                            simd::render_window_into_on(*isa, job, window, out, &|_, _| {})
                        })
                    })
                }));
            }
            let out = slots
                .next()
                .expect("PER outputs per instruction set and pool");
            runs.push(Box::new(move || {
                timed(|| {
                    fastnoise2_rows(tree, case, out, threads);
                    Ok(())
                })
            }));
        }
    }
    let times = {
        let mut refs: Vec<&mut dyn FnMut() -> Result<Duration>> =
            runs.iter_mut().map(|r| &mut **r as _).collect();
        interleaved(repeat, &mut refs)?
    };
    drop(runs);
    check_outputs(case, &outputs, PER)?;
    print_rows(case, &labels, &times, &trees)?;
    Ok(())
}

/// One line per instruction set and thread count: our rates on each lattice, FastNoise2's, and
/// the ratio of the default lattice to it (the median of the per-round ratios), then our
/// faster lattice's where that is another.
fn print_rows(
    case: &Case,
    labels: &[Label],
    times: &[Vec<Duration>],
    trees: &[(InstructionSet, Node)],
) -> Result<()> {
    let texels = u64::from(case.side) * u64::from(case.side);
    let samples = texels as f64 * f64::from(case.samples);
    let rate =
        |t: &[Duration]| samples / median_f64(t.iter().map(Duration::as_secs_f64).collect()) / 1e6;
    for (label, t) in labels.iter().zip(times.chunks(PER)) {
        let ran_on = trees
            .iter()
            .find(|(isa, _)| *isa == label.isa)
            .map_or("", |(_, tree)| tree.active_feature_set());
        let best = (0..LATTICES.len())
            .max_by(|&a, &b| rate(&t[a]).total_cmp(&rate(&t[b])))
            .unwrap_or(0);
        let default = (LATTICES.iter())
            .position(|&l| l == LatticeKind::DEFAULT)
            .unwrap_or(0);
        let peer = &t[LATTICES.len()];
        let faster = if best == default {
            String::new()
        } else {
            format!(", {} {:.2}x", LATTICES[best], speedup(&t[best], peer))
        };
        outln!(
            "{:<30} {:>7} {:>3}  {:>10.0} {:>9.0} {:>11.0} {:>11.0}  {:>5.2}x{faster:<7}  {ran_on}",
            case.name,
            label.isa.name(),
            label.threads,
            rate(&t[0]),
            rate(&t[1]),
            rate(&t[2]),
            rate(peer),
            speedup(&t[default], peer),
        )?;
    }
    Ok(())
}

/// Runs `tree` over the case's grid on `threads` threads, each a band of rows.
fn fastnoise2_rows(tree: &Node, case: &Case, out: &mut [f32], threads: usize) {
    let width = case.side as usize;
    let band_rows = (case.side as usize).div_ceil(threads);
    std::thread::scope(|s| {
        for (b, band) in out.chunks_mut(band_rows * width).enumerate() {
            s.spawn(move || tree.rows(case.dims, band, width, b * band_rows, 0));
        }
    });
}

fn timed(f: impl FnOnce() -> Result<()>) -> Result<Duration> {
    let start = Instant::now();
    f()?;
    Ok(start.elapsed())
}

/// Refuses a comparison where an engine wrote a flat image (a tree set up wrong would be fast
/// and meaningless).
fn check_outputs(case: &Case, outputs: &[Vec<f32>], per: usize) -> Result<()> {
    for (i, out) in outputs.iter().enumerate() {
        let (lo, hi) = out
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        // NaN spans fail too.
        if (hi - lo).partial_cmp(&0.1) != Some(std::cmp::Ordering::Greater) {
            let engine = if i % per < per - 1 {
                "gpu-noise"
            } else {
                "FastNoise2"
            };
            return Err(bench_error(&format!(
                "{engine} wrote values in [{lo}, {hi}] for {}: not a noise image",
                case.name
            )));
        }
    }
    Ok(())
}

fn feature_set(isa: InstructionSet) -> FeatureSet {
    match isa {
        InstructionSet::Avx512 => FeatureSet::Avx512,
        _ => FeatureSet::Avx2,
    }
}

fn bench_error(reason: &str) -> Error {
    Error::InvalidSpec {
        field: "fastnoise2",
        reason: reason.to_string(),
    }
}
