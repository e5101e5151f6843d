//! What to render: [`NoiseSpec`] and its validation (REFERENCE §1, §3–§5).
//!
//! A spec is plain data; [`NoiseSpec::validate`] turns it into a [`Prepared`] spec carrying the
//! per-octave tables and tiling periods that both backends read.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::tables::{OctaveTables, octave_tables};

/// Largest octave count (REFERENCE §4); the GPU params hold this many tiling periods.
pub const MAX_OCTAVES: u32 = 16;
/// Texel indices become f32 on the GPU; they stay exact below 2^24.
pub const MAX_SIDE: u32 = 1 << 24;
/// Largest image in texels (4 GiB of f32).
pub const MAX_TEXELS: u64 = 1 << 30;
/// Lattice cells are i32 on the GPU; keep every sample point well inside that range.
pub const MAX_COORD: f64 = (1u64 << 30) as f64;

/// Noise kinds (REFERENCE §3). The discriminant is the code the shader switches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
#[repr(u32)]
pub enum Kind {
    /// Ken Perlin's improved noise (2002), 1D-4D.
    Perlin = 0,
    /// Classic gradient noise with seed-drawn unit gradients, 1D-3D.
    Gradient = 1,
    /// Value noise: interpolated lattice values, 1D-4D.
    Value = 2,
}

/// Interpolation between lattice corners (REFERENCE §3). Discriminant = shader code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
#[repr(u32)]
pub enum Interp {
    Nearest = 0,
    Linear = 1,
    Cosine = 2,
    Cubic = 3,
    Quintic = 4,
    /// Four lattice values per axis; value noise only.
    CatmullRom = 5,
}

/// Fractal sum over octaves (REFERENCE §4). Discriminant = shader code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
#[repr(u32)]
pub enum Fractal {
    None = 0,
    Fbm = 1,
    Turbulence = 2,
    Ridged = 3,
    Billow = 4,
}

impl Kind {
    /// The interpolation a kind uses unless told otherwise: Perlin's quintic fade for `perlin`,
    /// the 1985 cubic for `gradient`, quintic for `value`.
    pub fn default_interp(self) -> Interp {
        match self {
            Kind::Perlin | Kind::Value => Interp::Quintic,
            Kind::Gradient => Interp::Cubic,
        }
    }

    pub fn max_dims(self) -> u32 {
        match self {
            Kind::Gradient => 3,
            Kind::Perlin | Kind::Value => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Perlin => "perlin",
            Kind::Gradient => "gradient",
            Kind::Value => "value",
        }
    }
}

impl Fractal {
    /// The range the output nominally spans; PNG export maps it to black..white by default.
    pub fn nominal_range(self) -> (f64, f64) {
        match self {
            Fractal::Turbulence => (0.0, 1.0),
            _ => (-1.0, 1.0),
        }
    }
}

/// Image or volume size in texels; `depth` > 1 makes a volume of 3D or 4D noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Size {
    pub width: u32,
    pub height: u32,
    pub depth: u32,
}

impl Size {
    pub fn new(width: u32, height: u32, depth: u32) -> Self {
        Self {
            width,
            height,
            depth,
        }
    }

    pub fn texels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.depth)
    }
}

/// Everything that determines an image, bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseSpec {
    pub kind: Kind,
    pub dims: u32,
    pub seed: u64,
    /// Lattice cells per texel (REFERENCE §1); default 1/32.
    pub frequency: f64,
    /// Added to the texel coordinates before scaling, in texel units.
    pub offset: [f64; 4],
    pub interp: Interp,
    pub fractal: Fractal,
    pub octaves: u32,
    pub lacunarity: f64,
    pub persistence: f64,
    pub tile: bool,
    pub size: Size,
}

impl NoiseSpec {
    /// A spec with REFERENCE's defaults: seed 0, frequency 1/32, one octave, 256x256.
    pub fn new(kind: Kind, dims: u32) -> Self {
        Self {
            kind,
            dims,
            seed: 0,
            frequency: 1.0 / 32.0,
            offset: [0.0; 4],
            interp: kind.default_interp(),
            fractal: Fractal::None,
            octaves: 1,
            lacunarity: 2.0,
            persistence: 0.5,
            tile: false,
            size: Size::new(256, 256, 1),
        }
    }

    /// The largest |coordinate| any sample reaches at octave 0.
    pub fn max_abs_coord(&self) -> f64 {
        let extent = [self.size.width, self.size.height, self.size.depth, 1];
        (0..self.dims as usize)
            .map(|a| {
                let lo = self.offset[a];
                let hi = self.offset[a] + f64::from(extent[a] - 1);
                self.frequency * lo.abs().max(hi.abs())
            })
            .fold(0.0, f64::max)
    }

    /// Checks every field and builds the per-octave tables and tiling periods.
    pub fn validate(&self) -> Result<Prepared> {
        self.check_fields()?;
        let periods = self.tiling_periods()?;
        Ok(Prepared {
            spec: self.clone(),
            tables: octave_tables(self.seed, self.dims, self.octaves),
            periods,
        })
    }

    fn check_fields(&self) -> Result<()> {
        let max_dims = self.kind.max_dims();
        if !(1..=max_dims).contains(&self.dims) {
            return Err(Error::invalid(
                "--dims",
                format!(
                    "{} noise supports 1..={max_dims}, got {}",
                    self.kind.name(),
                    self.dims
                ),
            ));
        }
        if self.interp == Interp::CatmullRom && self.kind != Kind::Value {
            return Err(Error::invalid(
                "--interp",
                "catmull-rom is for value noise only; use nearest|linear|cosine|cubic|quintic",
            ));
        }
        if !(1..=MAX_OCTAVES).contains(&self.octaves) {
            return Err(Error::invalid(
                "--octaves",
                format!("must be in 1..={MAX_OCTAVES}, got {}", self.octaves),
            ));
        }
        if self.octaves > 1 && self.fractal == Fractal::None {
            return Err(Error::invalid(
                "--octaves",
                "more than 1 octave needs --fractal fbm|turbulence|ridged|billow",
            ));
        }
        positive_finite("--lacunarity", self.lacunarity)?;
        positive_finite("--persistence", self.persistence)?;
        positive_finite("--frequency", self.frequency)?;
        if self.offset.iter().any(|v| !v.is_finite()) {
            return Err(Error::invalid(
                "--offset",
                "every coordinate must be a finite number",
            ));
        }
        let s = self.size;
        for (side, name) in [(s.width, "width"), (s.height, "height"), (s.depth, "depth")] {
            if !(1..=MAX_SIDE).contains(&side) {
                return Err(Error::invalid(
                    "--size",
                    format!("{name} must be in 1..={MAX_SIDE}, got {side}"),
                ));
            }
        }
        if s.texels() > MAX_TEXELS {
            return Err(Error::invalid(
                "--size",
                format!(
                    "{} texels is more than the limit of {MAX_TEXELS}",
                    s.texels()
                ),
            ));
        }
        if s.depth > 1 && self.dims < 3 {
            return Err(Error::invalid(
                "--size",
                format!(
                    "a volume (WxHxD) needs --dims 3 or 4, got --dims {}",
                    self.dims
                ),
            ));
        }
        let top = self.max_abs_coord() * self.lacunarity.powi(self.octaves as i32 - 1);
        if top.is_nan() || top >= MAX_COORD {
            return Err(Error::invalid(
                "--frequency",
                format!(
                    "samples reach |p| = {top:e} at the last octave; frequency, offset, size and \
                     lacunarity must keep |p| below 2^30"
                ),
            ));
        }
        Ok(())
    }

    /// Per-octave period in lattice cells for each axis, 0 where the axis does not wrap.
    fn tiling_periods(&self) -> Result<Vec<[i64; 4]>> {
        let mut periods = vec![[0i64; 4]; self.octaves as usize];
        if !self.tile {
            return Ok(periods);
        }
        let s = self.size;
        // Only axes the image spans repeat; a 2D slice of 3D noise does not wrap in z.
        let spans = [s.width, s.height, s.depth];
        let tiled_axes = match self.dims {
            1 => 1,
            2 => 2,
            _ if s.depth > 1 => 3,
            _ => 2,
        };
        for axis in 0..tiled_axes {
            let cells0 = self.frequency * f64::from(spans[axis]);
            for (k, octave) in periods.iter_mut().enumerate() {
                let cells = cells0 * self.lacunarity.powi(k as i32);
                let whole = cells.round();
                if whole < 1.0 || (cells - whole).abs() > 1e-9 * whole {
                    return Err(Error::invalid(
                        "--tile",
                        format!(
                            "the period along {} is frequency * {} = {cells} cells at octave {k}; \
                             it must be a whole number >= 1 at every octave (e.g. --frequency \
                             {})",
                            ["x", "y", "z"][axis],
                            spans[axis],
                            (cells0.round().max(1.0)) / f64::from(spans[axis]),
                        ),
                    ));
                }
                octave[axis] = whole as i64;
            }
        }
        Ok(periods)
    }
}

fn positive_finite(field: &'static str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(Error::invalid(
            field,
            format!("must be a finite number > 0, got {v}"),
        ))
    }
}

/// A validated spec with the data both backends need.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub spec: NoiseSpec,
    /// One set of tables per octave (seed + k).
    pub tables: Vec<OctaveTables>,
    /// Tiling period per octave and axis in cells; 0 = no wrap.
    pub periods: Vec<[i64; 4]>,
}
