//! What the bench runs: workloads (a noise, and fastnoise-lite's nearest equivalent where it
//! has one) over grids (squares and a volume).

use clap::builder::{PossibleValuesParser, TypedValueParser};
use fastnoise_lite::{CellularDistanceFunction, CellularReturnType, FastNoiseLite};
use fastnoise_lite::{FractalType, NoiseType};
use gpu_noise::simd::InstructionSet;
use gpu_noise::{Fractal, Kind, NoiseSpec, Size, spec::Interp, spec::LatticeKind};

/// Lattice cells per texel in every workload (the CLI's default).
pub const FREQUENCY: f64 = 1.0 / 32.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Workload {
    pub name: &'static str,
    pub kind: Kind,
    pub dims: u32,
    pub octaves: u32,
    pub interp: Interp,
    /// The lattice (`bench --lattice`; the CLI's default, `LatticeKind::DEFAULT`, unless asked).
    pub lattice: LatticeKind,
    /// fastnoise-lite's nearest noise, if it has one.
    pub peer: Option<NoiseType>,
}

const fn workload(name: &'static str, kind: Kind, dims: u32, octaves: u32) -> Workload {
    Workload {
        name,
        kind,
        dims,
        octaves,
        interp: Interp::Quintic,
        lattice: LatticeKind::DEFAULT,
        peer: None,
    }
}

/// 2D fBm with 6 octaves (also the real-time loop's noise).
pub const PERLIN_2D_FBM6: Workload = with_peer(
    workload("perlin-2d-fbm6", Kind::Perlin, 2, 6),
    NoiseType::Perlin,
);

/// Every workload the issue names, in the order the report lists them.
pub const WORKLOADS: [Workload; 10] = [
    with_peer(workload("perlin-2d", Kind::Perlin, 2, 1), NoiseType::Perlin),
    with_peer(workload("perlin-3d", Kind::Perlin, 3, 1), NoiseType::Perlin),
    with_peer(
        workload("perlin-2d-fbm6", Kind::Perlin, 2, 6),
        NoiseType::Perlin,
    ),
    // The speed issue's GPU figure: 2D fBm of 8 octaves at 8192^2.
    with_peer(
        workload("perlin-2d-fbm8", Kind::Perlin, 2, 8),
        NoiseType::Perlin,
    ),
    with_peer(
        workload("perlin-3d-fbm6", Kind::Perlin, 3, 6),
        NoiseType::Perlin,
    ),
    with_peer(workload("value-2d", Kind::Value, 2, 1), NoiseType::Value),
    with_peer(
        workload("simplex-2d", Kind::Simplex, 2, 1),
        NoiseType::OpenSimplex2,
    ),
    with_peer(
        workload("cellular-2d", Kind::Cellular, 2, 1),
        NoiseType::Cellular,
    ),
    workload("sparse-convolution-2d", Kind::SparseConvolution, 2, 1),
    workload("gabor-2d", Kind::Gabor, 2, 1),
];

const fn with_peer(w: Workload, peer: NoiseType) -> Workload {
    Workload {
        peer: Some(peer),
        ..w
    }
}

impl Workload {
    pub fn by_name(name: &str) -> Option<Workload> {
        WORKLOADS.iter().copied().find(|w| w.name == name)
    }

    /// The spec over `grid`; a 2D workload over a volume grid samples its first slice's size.
    pub fn spec(&self, grid: Grid) -> NoiseSpec {
        let mut spec = NoiseSpec::new(self.kind, self.dims);
        spec.size = grid.size();
        spec.frequency = FREQUENCY;
        spec.interp = self.interp;
        spec.lattice = self.lattice;
        if self.octaves > 1 {
            spec.fractal = Fractal::Fbm;
            spec.octaves = self.octaves;
        }
        spec
    }

    /// fastnoise-lite set up for the same points (pre-scaled, so its frequency is 1).
    pub fn fastnoise(&self) -> Option<FastNoiseLite> {
        let mut n = FastNoiseLite::with_seed(0);
        n.set_noise_type(Some(self.peer?));
        n.set_frequency(Some(1.0));
        if self.octaves > 1 {
            n.set_fractal_type(Some(FractalType::FBm));
            n.set_fractal_octaves(Some(self.octaves as i32));
        }
        n.set_cellular_distance_function(Some(CellularDistanceFunction::Euclidean));
        n.set_cellular_return_type(Some(CellularReturnType::Distance));
        Some(n)
    }

    /// Texels x octaves.
    pub fn samples(&self, grid: Grid) -> f64 {
        grid.size().texels() as f64 * f64::from(self.octaves)
    }
}

/// A grid of texels: a square image or a cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grid {
    Square(u32),
    Cube(u32),
}

pub const GRIDS: [Grid; 4] = [
    Grid::Square(512),
    Grid::Square(2048),
    Grid::Square(8192),
    Grid::Cube(256),
];

impl Grid {
    pub fn size(self) -> Size {
        match self {
            Grid::Square(n) => Size::new(n, n, 1),
            Grid::Cube(n) => Size::new(n, n, n),
        }
    }

    pub fn name(self) -> String {
        match self {
            Grid::Square(n) => format!("{n}^2"),
            Grid::Cube(n) => format!("{n}^3"),
        }
    }

    /// `512`, `2048`, `8192` or `256^3`.
    pub fn parse(text: &str) -> Result<Grid, String> {
        GRIDS
            .into_iter()
            .find(|g| g.name() == text || g.name() == format!("{text}^2"))
            .ok_or_else(|| {
                let names: Vec<String> = GRIDS.iter().map(|g| g.name()).collect();
                format!("unknown grid {text:?}; one of {}", names.join(", "))
            })
    }
}

/// `--grid`'s parser (clap).
pub fn parse_grid(text: &str) -> std::result::Result<Grid, String> {
    Grid::parse(text)
}

/// `--workload`'s parser (clap): a name from [`WORKLOADS`].
pub fn parse_workload(text: &str) -> std::result::Result<Workload, String> {
    Workload::by_name(text).ok_or_else(|| {
        let names: Vec<&str> = WORKLOADS.iter().map(|w| w.name).collect();
        format!("unknown workload {text:?}; one of {}", names.join(", "))
    })
}

/// `--isa`'s parser: an instruction set by its name.
pub fn instruction_set() -> impl TypedValueParser<Value = InstructionSet> {
    const NAMES: [&str; 3] = ["avx512", "avx2", "baseline"];
    PossibleValuesParser::new(NAMES).map(|s| {
        (InstructionSet::ALL.into_iter())
            .find(|isa| isa.name() == s)
            .unwrap_or(InstructionSet::Baseline)
    })
}
