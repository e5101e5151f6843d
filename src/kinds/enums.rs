//! The enums of the kinds and their sums (interpolation, fractal sum, cellular's metric and
//! return, the lattice), with the kebab-case names the CLI, spec files, graphs and messages
//! spell. Each discriminant is the code the WGSL switches on (generated constants, CONVENTIONS
//! §14).

/// Cellular noise's distance metric. Discriminant = shader code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
#[repr(u32)]
pub enum Distance {
    /// Straight-line distance.
    Euclidean = 0,
    /// Its square (cheaper, rounder cells' profile).
    EuclideanSquared = 1,
    /// Sum of the axis distances.
    Manhattan = 2,
    /// Largest axis distance.
    Chebyshev = 3,
}

/// What cellular noise returns. Discriminant = shader code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
#[repr(u32)]
pub enum CellReturn {
    /// Distance to the nearest feature point.
    F1 = 0,
    /// Distance to the second nearest.
    F2 = 1,
    /// F2 - F1: cell borders.
    #[cfg_attr(feature = "serde", serde(rename = "f2-f1"))]
    F2MinusF1 = 2,
    /// F1 * F2.
    #[cfg_attr(feature = "serde", serde(rename = "f1*f2"))]
    F1TimesF2 = 3,
    /// A random value per cell (of the nearest feature point): flat cells.
    CellValue = 4,
}

/// How lattice cells become random numbers (CONVENTIONS §2). Discriminant = shader code.
/// The default is [`LatticeKind::DEFAULT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
#[repr(u32)]
pub enum LatticeKind {
    /// The seed's 256-entry permutation (seed 0 is Ken Perlin's): the lattice repeats every
    /// 256 cells on each axis.
    Table = 0,
    /// An integer hash of the full cell coordinates and the seed (xxHash32 on 32-bit words):
    /// no period shorter than 2^32 cells per axis.
    Hash = 1,
    /// FastNoise2's hash (`HashPrimes`) of the full cell coordinates and the seed: one prime
    /// product per axis, xored, then one multiply. No period shorter than 2^32 cells per axis,
    /// about a quarter of xxHash32's multiplies, weaker mixing: the low bits of its hash repeat
    /// (CONVENTIONS §2), so Perlin noise on it repeats every 2^19 cells.
    Prime = 2,
}

impl LatticeKind {
    /// What a spec, graph, flag or call that names no lattice gets (the one place the default
    /// is set): the prime hash, the fastest lattice with no visible pattern; the table, Ken
    /// Perlin's reference, is one `lattice = table` away (README "Lattices").
    pub const DEFAULT: LatticeKind = LatticeKind::Prime;
}

impl Default for LatticeKind {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Interpolation between lattice corners (CONVENTIONS §3). Discriminant = shader code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
#[repr(u32)]
pub enum Interp {
    /// A step at t = 0.5.
    Nearest = 0,
    /// `t`.
    Linear = 1,
    /// `(1 - cos(pi t)) / 2`.
    Cosine = 2,
    /// `3t^2 - 2t^3`.
    Cubic = 3,
    /// `6t^5 - 15t^4 + 10t^3` (Perlin's fade).
    Quintic = 4,
    /// Four lattice values per axis; value noise only.
    CatmullRom = 5,
}

/// Fractal sum over octaves (CONVENTIONS §4). Discriminant = shader code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
#[repr(u32)]
pub enum Fractal {
    /// One octave.
    None = 0,
    /// Fractional Brownian motion: the weighted mean of the octaves.
    Fbm = 1,
    /// The weighted mean of |octave|, in [0, 1].
    Turbulence = 2,
    /// `2 * mean((1 - |octave|)^2) - 1`.
    Ridged = 3,
    /// The weighted mean of `2|octave| - 1`.
    Billow = 4,
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

/// A name that is none of an enum's values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} is not one of {}", crate::text::quoted(got), expected.join(", "))]
pub struct ParseNameError {
    /// The text given.
    pub got: String,
    /// Every accepted name.
    pub expected: &'static [&'static str],
}

macro_rules! named_enum {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in code order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];
            /// Every name, in code order.
            pub const NAMES: &'static [&'static str] = &[$($name),+];
            /// The variants' Rust names, in code order: the WGSL codes' names
            /// (`CatmullRom` -> `INTERP_CATMULL_ROM`, generated by `wgsl::constants`).
            pub(crate) const VARIANT_NAMES: &'static [&'static str] = &[$(stringify!($variant)),+];

            /// The kebab-case name (`catmull-rom`).
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl std::str::FromStr for $ty {
            type Err = ParseNameError;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                match text {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(ParseNameError {
                        got: text.to_string(),
                        expected: Self::NAMES,
                    }),
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum!(LatticeKind {
    Table => "table",
    Hash => "hash",
    Prime => "prime",
});

named_enum!(Distance {
    Euclidean => "euclidean",
    EuclideanSquared => "euclidean-squared",
    Manhattan => "manhattan",
    Chebyshev => "chebyshev",
});

named_enum!(CellReturn {
    F1 => "f1",
    F2 => "f2",
    F2MinusF1 => "f2-f1",
    F1TimesF2 => "f1*f2",
    CellValue => "cell-value",
});

named_enum!(Interp {
    Nearest => "nearest",
    Linear => "linear",
    Cosine => "cosine",
    Cubic => "cubic",
    Quintic => "quintic",
    CatmullRom => "catmull-rom",
});

named_enum!(Fractal {
    None => "none",
    Fbm => "fbm",
    Turbulence => "turbulence",
    Ridged => "ridged",
    Billow => "billow",
});

pub(crate) use named_enum;
