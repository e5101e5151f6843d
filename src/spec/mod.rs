//! What to render: [`NoiseSpec`] (a flat spec: one kind, its fractal sum, its image) and the
//! enums its fields take. A spec is plain data; [`NoiseSpec::validate`] checks every field
//! (CONVENTIONS §3-§5) and makes the [`Job`](crate::Job) every backend runs. The world's
//! frames (§1) and the limits are in [`low_level`](crate::low_level).

pub(crate) mod frames;
mod kind_params;
pub(crate) mod sizes;
pub(crate) mod tiling;
pub(crate) mod validate;
pub(crate) mod weights;

pub(crate) use crate::kinds::MAX_OCTAVES;
pub use crate::kinds::own_fields::*;
pub use crate::kinds::{
    CellReturn, Distance, Fractal, Interp, Kind, KindFields, LatticeKind, ParseNameError,
};
pub(crate) use sizes::{MAX_COORD, MAX_SIDE, MAX_TEXELS, MAX_WORLD_TEXELS};
pub(crate) use weights::octave_weights;

/// Image or volume size in texels; `depth` > 1 makes a volume of 3D or 4D noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Size {
    /// Texels per row (x).
    pub width: u32,
    /// Rows per slice (y).
    pub height: u32,
    /// Slices (z); 1 for an image.
    pub depth: u32,
}

impl Size {
    /// A size of `width` x `height` x `depth` texels.
    pub fn new(width: u32, height: u32, depth: u32) -> Self {
        Self {
            width,
            height,
            depth,
        }
    }

    /// `width * height * depth`.
    pub fn texels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.depth)
    }

    /// Rows over all slices: `height * depth`.
    pub fn rows(&self) -> u64 {
        u64::from(self.height) * u64::from(self.depth)
    }
}

/// Everything that determines an image, bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseSpec {
    /// The noise kind.
    pub kind: Kind,
    /// Dimensions of the noise domain, 1..=4 (see [`Kind::max_dims`]).
    pub dims: u32,
    /// Seed of the lattice tables; 0 is Ken Perlin's permutation.
    pub seed: u64,
    /// Lattice cells per texel (CONVENTIONS §1); default 1/32.
    pub frequency: f64,
    /// Added to the texel coordinates before scaling, in texel units.
    pub offset: [f64; 4],
    /// Interpolation between lattice corners.
    pub interp: Interp,
    /// Fractal sum over octaves.
    pub fractal: Fractal,
    /// Octaves, 1..=16 (more than 1 needs a fractal).
    pub octaves: u32,
    /// Frequency factor between octaves.
    pub lacunarity: f64,
    /// Amplitude factor between octaves.
    pub persistence: f64,
    /// Repeat exactly with the image size (CONVENTIONS §5).
    pub tile: bool,
    /// How cells become random numbers: [`LatticeKind::DEFAULT`] unless set (CONVENTIONS §2).
    pub lattice: LatticeKind,
    /// Image or volume size in texels.
    pub size: Size,
    /// The kinds' own parameters (cellular's jitter, metric and return; the impulse kinds'
    /// density and Gabor's kernel), one set per family: `kind_fields.cellular.jitter`. Only
    /// `kind`'s own are read; another kind's must stay at its default (validation says so).
    pub kind_fields: KindFields,
}

impl NoiseSpec {
    /// A spec with the conventions' defaults: seed 0, frequency 1/32, one octave, 256x256.
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
            lattice: LatticeKind::default(),
            size: Size::new(256, 256, 1),
            kind_fields: KindFields::defaults(kind),
        }
    }

    /// The largest |coordinate| any sample reaches at octave 0.
    pub fn max_abs_coord(&self) -> f64 {
        let extent = [self.size.width, self.size.height, self.size.depth, 1];
        (0..self.dims.clamp(1, 4) as usize)
            .map(|a| {
                let lo = self.offset[a];
                let hi = self.offset[a] + f64::from(extent[a].max(1) - 1);
                self.frequency * lo.abs().max(hi.abs())
            })
            .fold(0.0, f64::max)
    }

    /// `lacunarity^(octaves - 1)`: how much finer the last octave samples than the first.
    pub fn last_octave_scale(&self) -> f64 {
        self.lacunarity.powi(self.octaves.saturating_sub(1) as i32)
    }

    /// The largest |coordinate| any sample reaches at any octave (octave 0 when lacunarity < 1).
    pub fn max_reach(&self) -> f64 {
        self.max_abs_coord() * self.last_octave_scale().max(1.0)
    }

    /// Whether the spec has analytic derivatives (gradient and normal outputs): an error naming
    /// `kind` for cellular, sparse convolution and Gabor, `interp` for `nearest` steps.
    pub fn check_derivatives(&self) -> crate::Result<()> {
        if !self.kind.has_derivatives() {
            return Err(crate::Error::invalid(
                "kind",
                format!(
                    "{} noise has no analytic derivatives; perlin, gradient, value and simplex do",
                    self.kind
                ),
            ));
        }
        if self.interp == Interp::Nearest && self.kind.interpolates() {
            return Err(crate::Error::invalid(
                "interp",
                "nearest steps have no derivatives; use linear, cosine, cubic, quintic or \
                 catmull-rom",
            ));
        }
        Ok(())
    }
}
