//! The parameter table's types: each parameter of a kind or node type with its name, type,
//! default, allowed range and doc, declared once (as FastNoise2's node metadata), and the
//! common fields' single rules (frequency, seed, octaves, lacunarity, persistence), which a flat
//! spec, a graph's nodes, the CLI and spec files all apply.

/// The type and allowed values of a parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamType {
    /// A finite number in `min..=max` (`min` excluded where `min_open`).
    Number {
        /// Used when the parameter is absent.
        default: f64,
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
        /// Whether `min` itself is refused.
        min_open: bool,
    },
    /// A whole number in `min..=max`.
    Whole {
        /// Used when the parameter is absent.
        default: u32,
        /// Smallest allowed value.
        min: u32,
        /// Largest allowed value.
        max: u32,
    },
    /// A seed: a whole number in `0..=2^64-1`, default 0.
    Seed,
    /// One of a list of names.
    Choice {
        /// Used when the parameter is absent.
        default: &'static str,
        /// Every allowed name.
        options: &'static [&'static str],
    },
    /// One number per axis of the graph (`[x, y, ...]`, as many as its dims), or one number
    /// for every axis; each finite with magnitude at most `max`, and nonzero where `nonzero`.
    Vector {
        /// Every axis's value when absent.
        default: f64,
        /// Largest magnitude.
        max: f64,
        /// Whether 0 is refused.
        nonzero: bool,
    },
    /// Three numbers, not all zero (a rotation axis).
    Axis3,
    /// Two finite numbers `[a, b]` with `a != b`.
    Pair {
        /// Used when the parameter is absent.
        default: [f64; 2],
    },
    /// Control points: a list of `[x, y]` pairs (`pairs`) or of numbers, at least `min`, with x
    /// strictly increasing.
    Points {
        /// Whether each point is an `[x, y]` pair.
        pairs: bool,
        /// Fewest points.
        min: usize,
        /// Used when the parameter is absent (numbers; empty = required).
        default: &'static [f64],
    },
    /// Degrees, or `"isotropic"` (Gabor's orientation).
    Orientation {
        /// Degrees used when the parameter is absent.
        default: f64,
    },
    /// `true` or `false`.
    Flag {
        /// Used when the parameter is absent.
        default: bool,
    },
}

/// One parameter of a node type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The JSON key.
    pub name: &'static str,
    /// Type, default and range.
    pub ty: ParamType,
    /// What it means.
    pub doc: &'static str,
}

pub const fn number(
    name: &'static str,
    default: f64,
    min: f64,
    max: f64,
    doc: &'static str,
) -> Param {
    Param {
        name,
        ty: ParamType::Number {
            default,
            min,
            max,
            min_open: false,
        },
        doc,
    }
}

pub const fn positive(name: &'static str, default: f64, max: f64, doc: &'static str) -> Param {
    Param {
        name,
        ty: ParamType::Number {
            default,
            min: 0.0,
            max,
            min_open: true,
        },
        doc,
    }
}

pub const fn whole(
    name: &'static str,
    default: u32,
    min: u32,
    max: u32,
    doc: &'static str,
) -> Param {
    Param {
        name,
        ty: ParamType::Whole { default, min, max },
        doc,
    }
}

pub const fn choice(
    name: &'static str,
    default: &'static str,
    options: &'static [&'static str],
    doc: &'static str,
) -> Param {
    Param {
        name,
        ty: ParamType::Choice { default, options },
        doc,
    }
}

/// Any finite f32-representable number.
/// Largest octave count (CONVENTIONS §4); the GPU state holds this many octaves.
pub const MAX_OCTAVES: u32 = 16;
/// Largest magnitude of a number the GPU holds: f32's.
pub const LIMIT: f64 = f32::MAX as f64;
/// Largest frequency: one texel spans at most 2^30 cells.
pub const MAX_FREQUENCY: f64 = (1u64 << 30) as f64;
/// Largest `lacunarity^(octaves - 1)` (and of its inverse): 2^30, the span of octave
/// frequencies one sum may cover.
pub const MAX_OCTAVE_SCALE: f64 = (1u64 << 30) as f64;

/// `frequency`: lattice cells per unit of the point (per texel at a graph's root).
pub const FREQUENCY: Param = positive(
    "frequency",
    1.0 / 32.0,
    MAX_FREQUENCY,
    "lattice cells per unit of the point (a texel at the graph's root)",
);
/// `seed`: picks the tables.
pub const SEED: Param = Param {
    name: "seed",
    ty: ParamType::Seed,
    doc: "added to the graph's seed (and to each octave's k) to pick the tables",
};
/// `octaves` of a fractal sum.
pub const OCTAVES: Param = whole("octaves", 4, 1, MAX_OCTAVES, "octaves summed");
/// `lacunarity`: the point's scale factor between octaves; `lacunarity^(octaves-1)` stays at
/// most 2^30 ([`check_octave_scale`], with the octaves).
pub const LACUNARITY: Param = positive(
    "lacunarity",
    2.0,
    f64::MAX,
    "scale factor of the point between octaves",
);
/// The rule `lacunarity` and a count of octaves (or warp iterations) share, for flat specs and
/// graph nodes alike: the last octave samples at most 2^30 times finer than the first. The
/// message names no field (the caller's is `lacunarity`).
pub fn check_octave_scale(lacunarity: f64, octaves: u32) -> Result<(), String> {
    let growth = lacunarity.powi(octaves.saturating_sub(1) as i32);
    if growth.le(&MAX_OCTAVE_SCALE) {
        return Ok(());
    }
    Err(format!(
        "lacunarity^(octaves-1) = {growth:e}: the last octave would sample more than 2^30 times \
         finer than the first; lower the lacunarity or the octaves"
    ))
}

/// `persistence`: the amplitude factor between octaves.
pub const PERSISTENCE: Param = positive(
    "persistence",
    0.5,
    f64::MAX,
    "amplitude factor between octaves",
);

impl ParamType {
    /// Whether `x` is an allowed value of a number parameter, else why not (the message names
    /// no field: callers name theirs). Nonzero magnitudes the GPU's f32 would round to 0
    /// (below 1.2e-38) are refused: they would divide by zero there.
    pub fn check_number(&self, x: f64) -> Result<f64, String> {
        let ParamType::Number {
            min, max, min_open, ..
        } = *self
        else {
            return Err("is not a number parameter".into());
        };
        let low_ok = if min_open { x > min } else { x >= min };
        if !(low_ok && x <= max) {
            let (low, got) = (if min_open { "(" } else { "[" }, shown(x));
            if max == f64::MAX {
                let above = if min_open { ">" } else { ">=" };
                return Err(format!(
                    "must be a finite number {above} {}, got {got}",
                    shown(min)
                ));
            }
            return Err(format!(
                "must be in {low}{}, {}], got {got}",
                shown(min),
                shown(max)
            ));
        }
        if x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
            return Err(format!(
                "{x:e} is 0 in the GPU's f32; give 0 or a magnitude of at least 1.2e-38"
            ));
        }
        Ok(x)
    }
    /// The default as the docs and `--help` show it.
    pub fn default_text(&self) -> String {
        match *self {
            ParamType::Number { default, .. } => format!("{default}"),
            ParamType::Whole { default, .. } => format!("{default}"),
            ParamType::Seed => "0".into(),
            ParamType::Choice { default, .. } => default.into(),
            ParamType::Vector { default, .. } => format!("{default} each"),
            ParamType::Axis3 => "[0, 0, 1]".into(),
            ParamType::Pair { default } => format!("[{}, {}]", default[0], default[1]),
            ParamType::Points { default: [], .. } => "required".into(),
            ParamType::Points { default, .. } => format!("{default:?}"),
            ParamType::Orientation { default } => format!("{default}"),
            ParamType::Flag { default } => format!("{default}"),
        }
    }

    /// The allowed values in a few characters (`0..=1`, `(0, 16]`, `f1|f2`), where the type
    /// has a range worth stating.
    pub fn range_text(&self) -> Option<String> {
        match *self {
            ParamType::Number {
                min,
                max,
                min_open: false,
                ..
            } => Some(format!("{}..={}", short(min), short(max))),
            ParamType::Number { min, max, .. } => Some(format!("({}, {}]", short(min), short(max))),
            ParamType::Whole { min, max, .. } => Some(format!("{min}..={max}")),
            ParamType::Choice { options, .. } => Some(options.join("|")),
            _ => None,
        }
    }
}

/// `x` as a message shows it: as written, or in exponent form when very large or small.
fn shown(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e6).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// `x` to at most 4 decimals (0.48825485 as 0.4883), for ranges in help text.
fn short(x: f64) -> String {
    format!("{}", (x * 1e4).round() / 1e4)
}

/// The default of the number parameter `name` in `params`, if there is one.
pub fn number_default(params: &[Param], name: &str) -> Option<f64> {
    params
        .iter()
        .find(|p| p.name == name)
        .and_then(|p| match p.ty {
            ParamType::Number { default, .. } => Some(default),
            _ => None,
        })
}

/// The names of the corner kinds' interpolations (all but Catmull-Rom).
pub const CORNER_INTERPS: &[&str] = super::Interp::NAMES.split_at(5).0;

/// `interp` with its default, over `names`.
pub const fn interp(default: &'static str, names: &'static [&'static str]) -> Param {
    choice("interp", default, names, "interpolation between corners")
}
