//! The kebab-case names of the spec's enums, as the CLI, spec files and messages spell them.

use super::{CellReturn, Distance, Fractal, Interp, Kind, LatticeKind};

/// A name that is none of an enum's values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{got:?} is not one of {}", expected.join(", "))]
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

named_enum!(Kind {
    Perlin => "perlin",
    Gradient => "gradient",
    Value => "value",
    Simplex => "simplex",
    Cellular => "cellular",
    SparseConvolution => "sparse-convolution",
    Gabor => "gabor",
});

named_enum!(LatticeKind {
    Table => "table",
    Hash => "hash",
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
