//! Command-line arguments. Every render flag has a JSON field of the same name (`SpecFile`).

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use gpu_noise::spec::ParseNameError;
use gpu_noise::{Fractal, Kind, spec::Interp, spec::LatticeKind};

use crate::backend::BackendChoice;
use crate::kind_args::KindArgs;

pub use gpu_noise::low_level::spec_file::Channels;

use gpu_noise::low_level::spec_file::SpecFile;

/// A parser for one of a spec enum's kebab-case names, listing them in `--help`.
fn names<T>(names: &'static [&'static str]) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr<Err = ParseNameError> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).try_map(|s| s.parse::<T>())
}

#[derive(Parser)]
#[command(
    name = "gpu-noise",
    version,
    about = "Procedural noise on the GPU (WGSL compute via wgpu), verified against an f64 CPU twin"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Render an image or volume to .png (8/16-bit gray or colormapped RGB), .f32 or .npy,
    /// streamed in bands
    Render(RenderArgs),
    /// Read points (noise space, one per line, coordinates separated by spaces) from stdin and
    /// print one value per line
    Sample(SampleArgs),
    /// Render on the GPU and the CPU reference; print max_abs_err, rmse, bound, worst texel;
    /// exit 1 if the bound is exceeded
    Verify(VerifyArgs),
    /// List GPU adapters, software or hardware, and the limits that matter
    Info,
    /// Measure Msamples/s of the GPU (kernel only, with readback) and the CPU backend
    Bench(BenchArgs),
    /// Write the noise as a shader for another engine: WGSL, GLSL, HLSL, MSL or SPIR-V, a module
    /// to include (gn_graph_value) or, with --kernel, a complete compute shader
    Shader(ShaderArgs),
}

/// The noise: what every command that evaluates noise takes.
#[derive(Args, Clone, Debug, Default)]
#[command(allow_negative_numbers = true)]
pub struct NoiseArgs {
    /// JSON file with the same fields as these flags; flags override it
    #[arg(long, value_name = "FILE.json")]
    pub spec: Option<PathBuf>,
    /// Noise kind [default: perlin]
    #[arg(long, value_parser = names::<Kind>(Kind::NAMES))]
    pub kind: Option<Kind>,
    /// Dimensions of the noise, 1..=4 (gradient: 1..=3) [default: 2]
    #[arg(long)]
    pub dims: Option<u32>,
    /// Seed; 0 is Ken Perlin's permutation [default: 0]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Lattice cells per texel [default: 0.03125 = 1/32]
    #[arg(long, allow_hyphen_values = true, value_parser = finite_f64)]
    pub frequency: Option<f64>,
    /// Offset in texels before scaling [default: 0]
    #[arg(long, value_name = "x,y[,z[,w]]", value_parser = parse_offset, allow_hyphen_values = true)]
    pub offset: Option<Coords>,
    /// Size in texels: N (a square; a cube for 3 and 4 dims), WxH, or WxHxD for a volume of
    /// 3D/4D noise [default: 512x512]
    #[arg(long, value_name = "N|WxH|WxHxD", value_parser = parse_size)]
    pub size: Option<Extent>,
    /// Interpolation; catmull-rom is for value noise only
    /// [default: quintic for perlin and value, cubic for gradient]
    #[arg(long, value_parser = names::<Interp>(Interp::NAMES))]
    pub interp: Option<Interp>,
    /// Fractal sum over octaves [default: none]
    #[arg(long, value_parser = names::<Fractal>(Fractal::NAMES))]
    pub fractal: Option<Fractal>,
    /// Octaves, 1..=16 (more than 1 needs --fractal) [default: 1]
    #[arg(long)]
    pub octaves: Option<u32>,
    /// Frequency factor between octaves, > 0 [default: 2]
    #[arg(long, allow_hyphen_values = true, value_parser = finite_f64)]
    pub lacunarity: Option<f64>,
    /// Amplitude factor between octaves, > 0 [default: 0.5]
    #[arg(long, allow_hyphen_values = true, value_parser = finite_f64)]
    pub persistence: Option<f64>,
    /// Make the image repeat exactly (frequency * size must be whole cells)
    #[arg(long)]
    pub tile: bool,
    /// Lattice: an integer hash of the full cell coordinates, `prime` (FastNoise2's prime
    /// products: the fastest; Perlin noise on it repeats every 2^19 cells) or `hash`
    /// (xxHash32: fully mixed, no period shorter than 2^32 cells), or `table`, the seed's
    /// permutation (repeats every 256 cells; seed 0 is Ken Perlin's reference) [default: prime]
    #[arg(long, value_parser = names::<LatticeKind>(LatticeKind::NAMES))]
    pub lattice: Option<LatticeKind>,
    /// The kinds' own parameters (`--jitter`, `--gabor-bandwidth`...), from the node table
    #[command(flatten)]
    pub kind_params: KindArgs,
}

#[derive(Args)]
#[command(allow_negative_numbers = true)]
pub struct RenderArgs {
    #[command(flatten)]
    pub noise: NoiseArgs,
    /// A noise graph (JSON, docs/CONVENTIONS.md §13) instead of one kind: its nodes carry the
    /// noise's parameters; flags give the image (size, offset, output, levels) and may
    /// override its seed and lattice
    #[arg(long, value_name = "FILE.json")]
    pub graph: Option<PathBuf>,
    /// Output file; the extension picks the format: .png, .exr, .tif, .f32, .npy, .csv; or a
    /// Zarr v3 store, a folder NAME.zarr (chunks of --tiles N texels, default 1024)
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// What each texel holds: its value; `gradient`, the value and its partial derivatives
    /// along the image axes (.npy, a last axis of components); `normal`, a tangent-space
    /// normal map (RGB .png, OpenGL +Y up). Derivatives: perlin, gradient, value, simplex
    /// [default: value]
    #[arg(long, value_enum)]
    pub channels: Option<Channels>,
    /// Normal maps: heights are the noise value times this many texels, > 0 [default: 8]
    #[arg(long, allow_hyphen_values = true, value_parser = finite_f32)]
    pub normal_strength: Option<f32>,
    /// PNG bit depth: 8 or 16 [default: 8]
    #[arg(long)]
    pub bits: Option<u8>,
    /// PNG mapping: values lo..hi become black..white, or `auto`: the image's own least and
    /// greatest values (one more pass over the image first; not for tile sets, which must
    /// agree) [default: -1,1; 0,1 for turbulence]
    #[arg(long, value_name = "lo,hi|auto", value_parser = parse_range, allow_hyphen_values = true)]
    pub range: Option<RangeArg>,
    /// RGB PNG through gray|terrain|viridis|magma, or stops value:#rrggbb,value:#rrggbb,...
    #[arg(long, value_name = "NAME|STOPS", allow_hyphen_values = true)]
    pub colormap: Option<String>,
    /// auto: a hardware GPU if any, else CPU; gpu: any adapter; cpu: the f64 reference
    #[arg(long, value_enum)]
    pub backend: Option<BackendChoice>,
    /// Print the effective, validated spec as JSON (to stdout); renders too when -o is given
    #[arg(long)]
    pub print_spec: bool,
    /// Errors only: no progress bar, no engine notice, no summary line
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Write a tile set: square tiles of N texels into the folder -o DIR/, as DIR/{x}_{y}.png
    /// (or --tile-format) with DIR/index.json; with -o NAME.zarr, the Zarr chunks' side
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub tiles: Option<u32>,
    /// Render only tiles (or Zarr chunks) X0..X1 (columns) and Y0..Y1 (rows), half-open like
    /// Rust ranges: 2..3,1..2 is the one tile x = 2, y = 1 [default: every tile]
    #[arg(long, value_name = "X0..X1,Y0..Y1", value_parser = parse_tile_range)]
    pub tile_range: Option<[std::ops::Range<u32>; 2]>,
    /// Tile file format: png, exr, tif, f32 or npy [default: png]
    #[arg(long, value_name = "EXT")]
    pub tile_format: Option<String>,
}

#[derive(Args)]
pub struct SampleArgs {
    #[command(flatten)]
    pub noise: NoiseArgs,
    /// A noise graph (JSON, docs/CONVENTIONS.md §13): points are its root points (texel
    /// units), evaluated by the f64 twin
    #[arg(long, value_name = "FILE.json")]
    pub graph: Option<PathBuf>,
    /// cpu prints the f64 reference (17 significant digits); gpu prints the GPU's f32
    #[arg(long, value_enum, default_value = "cpu")]
    pub backend: BackendChoice,
}

#[derive(Args)]
pub struct ShaderArgs {
    #[command(flatten)]
    pub noise: NoiseArgs,
    /// A noise graph (JSON, docs/CONVENTIONS.md §13) instead of one kind; flags give the image
    /// (size, offset) and may override seed and lattice
    #[arg(long, value_name = "FILE.json")]
    pub graph: Option<PathBuf>,
    /// The shading language (docs/CONVENTIONS.md §15)
    #[arg(long, value_enum)]
    pub lang: ShaderLangArg,
    /// A complete compute shader (the crate's render_buffer kernel: parameters at set 0,
    /// binding 0; f32 output at binding 1) instead of a module of functions to include
    #[arg(long)]
    pub kernel: bool,
    /// Begin a WGSL module with `#define_import_path NAME`, for naga_oil's #import (Bevy)
    #[arg(long, value_name = "NAME")]
    pub import_path: Option<String>,
    /// Where the lattice's tables go, a file of little-endian u32 words the shader reads from a
    /// storage buffer [default: beside -o, as <output>.tables]
    #[arg(long, value_name = "FILE")]
    pub tables: Option<PathBuf>,
    /// The module's binding of the tables, at set 0 [default: 2]
    #[arg(long, value_name = "N")]
    pub tables_binding: Option<u32>,
    /// Write the shader here instead of stdout
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `shader --lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ShaderLangArg {
    /// WGSL (wgpu, Bevy, the browser)
    Wgsl,
    /// GLSL 450 for Vulkan (Godot 4's RenderingDevice)
    Glsl,
    /// HLSL, shader model 5.1 (Unity compute shaders, Unreal)
    Hlsl,
    /// Metal Shading Language 2.1
    Msl,
    /// SPIR-V 1.0, kernel only
    Spirv,
}

impl ShaderLangArg {
    pub fn lang(self) -> gpu_noise::gpu::shader_export::ShaderLang {
        use gpu_noise::gpu::shader_export::ShaderLang;
        match self {
            ShaderLangArg::Wgsl => ShaderLang::Wgsl,
            ShaderLangArg::Glsl => ShaderLang::Glsl,
            ShaderLangArg::Hlsl => ShaderLang::Hlsl,
            ShaderLangArg::Msl => ShaderLang::Msl,
            ShaderLangArg::Spirv => ShaderLang::Spirv,
        }
    }
}

#[derive(Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub noise: NoiseArgs,
    /// A noise graph (JSON, docs/CONVENTIONS.md §13) instead of one kind, held to its
    /// propagated bound; flags give the image (size, offset) and may override seed and lattice
    #[arg(long, value_name = "FILE.json")]
    pub graph: Option<PathBuf>,
    /// The f32 engine checked against the f64 reference
    #[arg(long, value_enum, default_value_t = VerifyBackend::Gpu)]
    pub backend: VerifyBackend,
}

/// What `verify` holds to the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VerifyBackend {
    /// The GPU (any adapter, software ones included)
    Gpu,
    /// The SIMD CPU backend, on the widest instruction set this CPU has
    Simd,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Grids, comma-separated: 512, 2048, 8192 (squares), 256^3 (a volume, 3D workloads only)
    /// [default: all four]
    #[arg(long, value_delimiter = ',', value_parser = crate::workloads::parse_grid)]
    pub grid: Vec<crate::workloads::Grid>,
    /// Workloads, comma-separated: perlin-2d, perlin-3d, perlin-2d-fbm6, perlin-2d-fbm8,
    /// perlin-3d-fbm6, value-2d, simplex-2d, cellular-2d, sparse-convolution-2d, gabor-2d [default: all]
    #[arg(long, value_delimiter = ',', value_parser = crate::workloads::parse_workload)]
    pub workload: Vec<crate::workloads::Workload>,
    /// Lattices, comma-separated: table, hash, prime; each workload runs on each [default: prime]
    #[arg(long, value_delimiter = ',', value_parser = names::<LatticeKind>(LatticeKind::NAMES))]
    pub lattice: Vec<LatticeKind>,
    /// Time the GPU alone: no CPU engines (for a hardware GPU, whose host CPU is not the one
    /// the CPU figures are about); with --graph, the fused and node-by-node kernels only
    #[arg(long, conflicts_with = "fastnoise2")]
    pub gpu_only: bool,
    /// Timed rounds per case (the median is reported), 1..=1000
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// The SIMD engines' instruction set: avx512, avx2 or baseline (SSE2 on x86-64) [default:
    /// the widest this CPU runs]; an error where the CPU lacks it
    #[arg(long, value_parser = crate::workloads::instruction_set(), conflicts_with_all = ["fastnoise2", "gpu_only"])]
    pub isa: Option<gpu_noise::simd::InstructionSet>,
    /// Side of the square grid of the webgl-noise comparison and the real-time loop, 64..=8192
    #[arg(long, default_value_t = 2048)]
    pub side: u32,
    /// Also write the results as JSON to FILE (- for standard output)
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also plot Msamples/s against grid size for the first workload to FILE.png
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// The npm package glsl-noise (webgl-noise's functions), unpacked
    /// [default: bench/peers/node_modules/glsl-noise, from `npm ci --prefix bench/peers`]
    #[arg(long, value_name = "DIR")]
    pub webgl_noise: Option<PathBuf>,
    /// Skip the comparison with webgl-noise (it needs the npm package)
    #[arg(long)]
    pub no_webgl_noise: bool,
    /// Instead of the workloads: the gain from fusing one graph (JSON, CONVENTIONS §13) on a
    /// --side grid: the fused kernel against the same steps one dispatch each, and the CPU twin
    #[arg(long, value_name = "FILE.json", conflicts_with_all = WORKLOAD_TABLE_FLAGS)]
    pub graph: Option<PathBuf>,
    /// Instead of the workloads: the SIMD backend against FastNoise2 (v1.x) on the speed
    /// issue's workloads, 1 and 2 threads, AVX-512 and AVX2; LIB is FastNoise2's shared library
    /// (libFastNoise.so, FastNoise2 built as a shared library; README "Beside FastNoise2")
    #[arg(long, value_name = "LIB", conflicts_with = "graph", conflicts_with_all = WORKLOAD_TABLE_FLAGS)]
    pub fastnoise2: Option<PathBuf>,
    /// With --fastnoise2: only the workloads whose name contains TEXT (e.g. perlin-3d, terrain)
    #[arg(long, value_name = "TEXT", requires = "fastnoise2")]
    pub case: Option<String>,
}

/// The flags of the workload table, which `--graph` and `--fastnoise2` replace (refused
/// beside them rather than ignored).
const WORKLOAD_TABLE_FLAGS: [&str; 7] = [
    "grid",
    "workload",
    "lattice",
    "json",
    "plot",
    "webgl_noise",
    "no_webgl_noise",
];

impl NoiseArgs {
    /// The flags as a spec layer (absent flags are `None`).
    pub fn layer(&self) -> SpecFile {
        SpecFile {
            kind: self.kind,
            dims: self.dims,
            seed: self.seed,
            frequency: self.frequency,
            offset: self.offset.clone().map(|c| c.0),
            size: self.size.clone().map(|e| e.0),
            interp: self.interp,
            fractal: self.fractal,
            octaves: self.octaves,
            lacunarity: self.lacunarity,
            persistence: self.persistence,
            tile: self.tile.then_some(true),
            lattice: self.lattice,
            kind_params: self.kind_params.0.clone(),
            ..SpecFile::default()
        }
    }
}

fn parse_numbers<T: std::str::FromStr>(
    text: &str,
    sep: char,
    what: &str,
) -> Result<Vec<T>, String> {
    text.split(sep)
        .map(|part| {
            part.trim()
                .parse::<T>()
                .map_err(|_| format!("{part:?} is not a valid {what} in {text:?}"))
        })
        .collect()
}

/// A finite f64: text that overflows (`1e999`) or spells infinity or NaN is refused quoting
/// the text, rather than checked later as "inf".
fn finite_f64(text: &str) -> Result<f64, String> {
    finite(text, "f64 reaches 1.8e308")
}

/// A finite f32, as [`finite_f64`].
fn finite_f32(text: &str) -> Result<f32, String> {
    finite(text, "f32 reaches 3.4e38")
}

fn finite<T: std::str::FromStr + num_traits::Float>(text: &str, reach: &str) -> Result<T, String> {
    let x: T = (text.trim().parse()).map_err(|_| format!("{text:?} is not a number"))?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{text:?} is not a finite number ({reach})"))
    }
}

/// Finite numbers separated by `sep`, each refused quoting its text (and the whole).
fn parse_floats(text: &str, sep: char) -> Result<Vec<f64>, String> {
    (text.split(sep))
        .map(|part| finite_f64(part).map_err(|e| format!("{e} in {text:?}")))
        .collect()
}

/// `x,y[,z[,w]]` (a newtype so clap takes it as one value), and what was rounded on the way.
#[derive(Clone, Debug)]
pub struct Coords(pub Vec<f64>, pub Vec<String>);

/// `W`, `WxH` or `WxHxD`.
#[derive(Clone, Debug)]
pub struct Extent(pub Vec<u32>);

fn parse_offset(text: &str) -> Result<Coords, String> {
    let v = parse_floats(text, ',')?;
    if v.len() > 4 {
        return Err(format!(
            "give 1 to 4 comma-separated numbers (x,y,z,w), got {}",
            v.len()
        ));
    }
    Ok(Coords(v, rounded_integers(text)))
}

/// Whole numbers in `text` (comma-separated) that no f64 holds (past 2^53), each with the
/// f64 it becomes: offsets are f64, and a texel position that moves silently would put an
/// image somewhere else than asked.
fn rounded_integers(text: &str) -> Vec<String> {
    (text.split(','))
        .filter_map(|part| {
            let part = part.trim();
            let exact: i128 = part.parse().ok()?;
            let x: f64 = part.parse().ok()?;
            (x as i128 != exact).then(|| {
                format!(
                    "{part} is no f64 (whole numbers are exact up to 2^53); it was rounded to {}",
                    x as i128
                )
            })
        })
        .collect()
}

fn parse_size(text: &str) -> Result<Extent, String> {
    let v = parse_numbers::<u32>(&text.to_ascii_lowercase(), 'x', "whole number")?;
    if v.is_empty() || v.len() > 3 {
        return Err("give W, WxH or WxHxD, e.g. 512x512".into());
    }
    Ok(Extent(v))
}

/// A tile index: a whole number up to u32's maximum, with a message saying which it is not.
fn tile_index(text: &str) -> Result<u32, String> {
    let text = text.trim();
    match text.parse::<u32>() {
        Ok(n) => Ok(n),
        Err(_) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => Err(format!(
            "{text} is larger than any tile index (at most {})",
            u32::MAX
        )),
        Err(_) => Err(format!("{text:?} is not a whole number")),
    }
}

pub fn parse_tile_range(text: &str) -> Result<[std::ops::Range<u32>; 2], String> {
    let axis = |part: &str| -> Result<std::ops::Range<u32>, String> {
        let (a, b) = part
            .split_once("..")
            .ok_or_else(|| format!("{part:?} is not a range like 0..4"))?;
        let (a, b) = (tile_index(a)?, tile_index(b)?);
        if a >= b {
            return Err(format!(
                "{part:?} holds no tile: ranges are half-open like Rust's, a..b holds a up to \
                 b - 1 (the one tile {a} is {a}..{})",
                u64::from(a) + 1
            ));
        }
        Ok(a..b)
    };
    match text.split(',').collect::<Vec<_>>().as_slice() {
        [x, y] => Ok([axis(x)?, axis(y)?]),
        _ => Err("give X0..X1,Y0..Y1, e.g. 0..4,2..3".into()),
    }
}

/// `--range`: given numbers, or the image's own extremes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RangeArg {
    Auto,
    Values([f64; 2]),
}

impl RangeArg {
    /// The numbers, when given.
    pub fn values(self) -> Option<[f64; 2]> {
        match self {
            RangeArg::Values(v) => Some(v),
            RangeArg::Auto => None,
        }
    }
}

fn parse_range(text: &str) -> Result<RangeArg, String> {
    if text.trim() == "auto" {
        return Ok(RangeArg::Auto);
    }
    match parse_floats(text, ',')?.as_slice() {
        [lo, hi] => Ok(RangeArg::Values([*lo, *hi])),
        _ => Err("give two numbers lo,hi (e.g. -1,1) or auto".into()),
    }
}
