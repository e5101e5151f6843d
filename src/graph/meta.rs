//! The table of node types (CONVENTIONS §13): every type's name, inputs and parameters with their
//! defaults, ranges and docs, declared once, in the spirit of FastNoise2's node metadata. Reading
//! graphs (JSON or the builder), validation messages and the documentation's node table all come
//! from here.

use crate::spec::validate::{
    MAX_DENSITY, MAX_FREQUENCY, MAX_GABOR_BANDWIDTH, MAX_GABOR_FREQUENCY, MIN_GABOR_BANDWIDTH,
};
use crate::spec::{CellReturn, Distance, Interp, MAX_OCTAVES};

/// What a node type does, for grouping in docs and editors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// A value from the point alone: a noise kind, a constant, a coordinate.
    Source,
    /// A sum over octaves of its source, each at a finer scale and the next seed.
    Fractal,
    /// Moves the point before its source sees it.
    Domain,
    /// Maps its source's value through a function.
    Modifier,
    /// Combines several values.
    Combiner,
}

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
    Orientation,
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

/// How many nodes an input takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// One node name.
    One,
    /// A list of at least this many node names.
    List(usize),
    /// A list of node names, one per axis of the graph.
    PerAxis,
}

/// One input of a node type: the names of the nodes it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    /// The JSON key.
    pub name: &'static str,
    /// One node or a list.
    pub arity: Arity,
    /// What it is for.
    pub doc: &'static str,
}

/// One node type: its name (the JSON `type`), inputs and parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeType {
    /// The JSON `type`.
    pub name: &'static str,
    /// Its group.
    pub category: Category,
    /// Its inputs, all required.
    pub inputs: &'static [Input],
    /// Its parameters, all optional.
    pub params: &'static [Param],
    /// What it computes (CONVENTIONS §13 has the formulas).
    pub doc: &'static str,
}

impl NodeType {
    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The input called `name`.
    pub fn input(&self, name: &str) -> Option<&'static Input> {
        self.inputs.iter().find(|i| i.name == name)
    }
}

/// The node type called `name`.
pub fn node_type(name: &str) -> Option<&'static NodeType> {
    NODE_TYPES.iter().find(|t| t.name == name)
}

const fn number(name: &'static str, default: f64, min: f64, max: f64, doc: &'static str) -> Param {
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

const fn positive(name: &'static str, default: f64, max: f64, doc: &'static str) -> Param {
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

const fn whole(name: &'static str, default: u32, min: u32, max: u32, doc: &'static str) -> Param {
    Param {
        name,
        ty: ParamType::Whole { default, min, max },
        doc,
    }
}

const fn choice(
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
const LIMIT: f64 = f32::MAX as f64;

const FREQUENCY: Param = positive(
    "frequency",
    1.0 / 32.0,
    MAX_FREQUENCY,
    "lattice cells per unit of the point (a texel at the graph's root)",
);
const SEED: Param = Param {
    name: "seed",
    ty: ParamType::Seed,
    doc: "added to the graph's seed (and to each octave's k) to pick the tables",
};
/// The interpolations of the lattice kinds but value's Catmull-Rom.
const CORNER_INTERPS: &[&str] = Interp::NAMES.split_at(5).0;
const PERLIN_PARAMS: &[Param] = &[
    FREQUENCY,
    SEED,
    choice(
        "interp",
        "quintic",
        CORNER_INTERPS,
        "interpolation between corners",
    ),
];
const GRADIENT_PARAMS: &[Param] = &[
    FREQUENCY,
    SEED,
    choice(
        "interp",
        "cubic",
        CORNER_INTERPS,
        "interpolation between corners",
    ),
];
const VALUE_PARAMS: &[Param] = &[
    FREQUENCY,
    SEED,
    choice(
        "interp",
        "quintic",
        Interp::NAMES,
        "interpolation between corners",
    ),
];
const SIMPLEX_PARAMS: &[Param] = &[FREQUENCY, SEED];
const CELLULAR_PARAMS: &[Param] = &[
    FREQUENCY,
    SEED,
    number(
        "jitter",
        1.0,
        0.0,
        1.0,
        "how far feature points stray from their cell's center",
    ),
    choice(
        "distance",
        "euclidean",
        Distance::NAMES,
        "the distance metric",
    ),
    choice("return", "f1", CellReturn::NAMES, "what the noise returns"),
];
const DENSITY_SPARSE: Param = positive("density", 3.0, MAX_DENSITY, "mean impulses per cell");
const SPARSE_PARAMS: &[Param] = &[FREQUENCY, SEED, DENSITY_SPARSE];
const GABOR_PARAMS: &[Param] = &[
    FREQUENCY,
    SEED,
    positive("density", 8.0, MAX_DENSITY, "mean impulses per cell"),
    positive(
        "gabor_frequency",
        1.5,
        MAX_GABOR_FREQUENCY,
        "the kernel's frequency F0, cycles per cell",
    ),
    Param {
        name: "gabor_orientation",
        ty: ParamType::Orientation,
        doc: "the kernel's direction (45 degrees unless told), or \"isotropic\" for a random one per impulse",
    },
    Param {
        name: "gabor_bandwidth",
        ty: ParamType::Number {
            default: 1.0,
            min: MIN_GABOR_BANDWIDTH,
            max: MAX_GABOR_BANDWIDTH,
            min_open: false,
        },
        doc: "the Gaussian envelope's bandwidth a, per cell (the kernel reaches sqrt(ln 20 / pi) / a cells, at most 2)",
    },
];

const SOURCE: &[Input] = &[Input {
    name: "source",
    arity: Arity::One,
    doc: "the node whose value this one transforms",
}];
const A_B: &[Input] = &[
    Input {
        name: "a",
        arity: Arity::One,
        doc: "the first operand",
    },
    Input {
        name: "b",
        arity: Arity::One,
        doc: "the second operand",
    },
];
const A_B_CONTROL: &[Input] = &[
    A_B[0],
    A_B[1],
    Input {
        name: "control",
        arity: Arity::One,
        doc: "picks between a and b",
    },
];
const INPUTS: &[Input] = &[Input {
    name: "inputs",
    arity: Arity::List(2),
    doc: "two or more operands",
}];
const WARP_INPUTS: &[Input] = &[
    SOURCE[0],
    Input {
        name: "by",
        arity: Arity::PerAxis,
        doc: "one displacement node per axis",
    },
];

const OCTAVES: Param = whole("octaves", 4, 1, MAX_OCTAVES, "octaves summed");
const LACUNARITY: Param = positive(
    "lacunarity",
    2.0,
    1024.0,
    "scale factor of the point between octaves",
);
const FRACTAL_PARAMS: &[Param] = &[
    OCTAVES,
    LACUNARITY,
    positive(
        "persistence",
        0.5,
        1024.0,
        "amplitude factor between octaves",
    ),
];
const RIDGED_MULTI_PARAMS: &[Param] = &[
    OCTAVES,
    LACUNARITY,
    number("h", 1.0, 0.0, 4.0, "octave k weighs lacunarity^(-k h)"),
    number("offset", 1.0, 0.0, 4.0, "ridges are (offset - |n|)^2"),
    number(
        "gain",
        2.0,
        0.0,
        16.0,
        "how strongly one octave's ridge masks the next",
    ),
];

const fn source(name: &'static str, params: &'static [Param], doc: &'static str) -> NodeType {
    NodeType {
        name,
        category: Category::Source,
        inputs: &[],
        params,
        doc,
    }
}

const fn of_source(
    name: &'static str,
    category: Category,
    params: &'static [Param],
    doc: &'static str,
) -> NodeType {
    NodeType {
        name,
        category,
        inputs: SOURCE,
        params,
        doc,
    }
}

const fn combiner(
    name: &'static str,
    inputs: &'static [Input],
    params: &'static [Param],
    doc: &'static str,
) -> NodeType {
    NodeType {
        name,
        category: Category::Combiner,
        inputs,
        params,
        doc,
    }
}

/// Every node type, sources first.
pub static NODE_TYPES: &[NodeType] = &[
    source(
        "perlin",
        PERLIN_PARAMS,
        "Ken Perlin's improved noise (§3), 1D-4D",
    ),
    source(
        "gradient",
        GRADIENT_PARAMS,
        "classic gradient noise (§3), 1D-3D",
    ),
    source("value", VALUE_PARAMS, "value noise (§3), 1D-4D"),
    source("simplex", SIMPLEX_PARAMS, "simplex noise (§8), 2D-4D"),
    source("cellular", CELLULAR_PARAMS, "cellular noise (§9), 2D-3D"),
    source(
        "sparse-convolution",
        SPARSE_PARAMS,
        "sparse convolution noise (§10), 2D-3D",
    ),
    source("gabor", GABOR_PARAMS, "Gabor noise (§11), 2D"),
    source(
        "constant",
        &[number("value", 0.0, -LIMIT, LIMIT, "the value everywhere")],
        "one value everywhere",
    ),
    source(
        "coordinate",
        &[
            choice(
                "axis",
                "x",
                &["x", "y", "z", "w"],
                "which axis of the point",
            ),
            FREQUENCY,
        ],
        "the point's coordinate on one axis times frequency",
    ),
    of_source(
        "fbm",
        Category::Fractal,
        FRACTAL_PARAMS,
        "fractional Brownian motion (§4)",
    ),
    of_source(
        "turbulence",
        Category::Fractal,
        FRACTAL_PARAMS,
        "the mean of |octave| (§4)",
    ),
    of_source(
        "ridged",
        Category::Fractal,
        FRACTAL_PARAMS,
        "2 mean((1 - |octave|)^2) - 1 (§4)",
    ),
    of_source(
        "billow",
        Category::Fractal,
        FRACTAL_PARAMS,
        "the mean of 2|octave| - 1 (§4)",
    ),
    of_source(
        "ridged-multifractal",
        Category::Fractal,
        RIDGED_MULTI_PARAMS,
        "Musgrave's ridged multifractal, normalized to [-1, 1] for offset 1",
    ),
    of_source(
        "translate",
        Category::Domain,
        &[Param {
            name: "by",
            ty: ParamType::Vector {
                default: 0.0,
                max: LIMIT,
                nonzero: false,
            },
            doc: "added to the point",
        }],
        "the source at p + by",
    ),
    of_source(
        "scale",
        Category::Domain,
        &[Param {
            name: "by",
            ty: ParamType::Vector {
                default: 1.0,
                max: MAX_FREQUENCY,
                nonzero: true,
            },
            doc: "multiplies the point, per axis",
        }],
        "the source at by * p",
    ),
    of_source(
        "rotate",
        Category::Domain,
        &[
            number("degrees", 0.0, -360.0, 360.0, "the angle, counterclockwise"),
            Param {
                name: "axis",
                ty: ParamType::Axis3,
                doc: "the axis in 3D and 4D (x, y, z; w stays); 2D turns in the plane",
            },
        ],
        "the source at the point turned about the origin",
    ),
    NodeType {
        name: "warp",
        category: Category::Domain,
        inputs: WARP_INPUTS,
        params: &[
            number(
                "amplitude",
                16.0,
                0.0,
                LIMIT,
                "displacement per unit of `by`",
            ),
            whole("iterations", 1, 1, 8, "displacements summed"),
            choice(
                "mode",
                "independent",
                &["independent", "progressive"],
                "iterations read the original point, or the point moved so far",
            ),
            LACUNARITY,
            positive("gain", 0.5, 1024.0, "amplitude factor between iterations"),
        ],
        doc: "the source at p + amplitude * (by_x(p), by_y(p), ...) (Quilez's domain warp)",
    },
    of_source("abs", Category::Modifier, &[], "|v|"),
    of_source("negate", Category::Modifier, &[], "-v"),
    of_source(
        "clamp",
        Category::Modifier,
        &[
            number("min", -1.0, -LIMIT, LIMIT, "lower bound"),
            number("max", 1.0, -LIMIT, LIMIT, "upper bound, at least min"),
        ],
        "v limited to min..=max",
    ),
    of_source(
        "remap",
        Category::Modifier,
        &[
            Param {
                name: "from",
                ty: ParamType::Pair {
                    default: [-1.0, 1.0],
                },
                doc: "the range [a, b] that maps to `to`",
            },
            Param {
                name: "to",
                ty: ParamType::Pair {
                    default: [0.0, 1.0],
                },
                doc: "where `from` lands",
            },
        ],
        "to.a + (v - from.a) (to.b - to.a) / (from.b - from.a), not clamped",
    ),
    of_source(
        "curve",
        Category::Modifier,
        &[
            Param {
                name: "points",
                ty: ParamType::Points {
                    pairs: true,
                    min: 2,
                    default: &[],
                },
                doc: "control points [x, y], x increasing",
            },
            choice(
                "interp",
                "cubic",
                &["linear", "cubic"],
                "between control points",
            ),
        ],
        "v through a curve that passes every control point, flat beyond the ends",
    ),
    of_source(
        "terrace",
        Category::Modifier,
        &[
            Param {
                name: "points",
                ty: ParamType::Points {
                    pairs: false,
                    min: 2,
                    default: &[-1.0, -0.5, 0.0, 0.5, 1.0],
                },
                doc: "terrace levels, increasing",
            },
            Param {
                name: "invert",
                ty: ParamType::Flag { default: false },
                doc: "steep edges at the top of each step instead of the bottom",
            },
        ],
        "libnoise's Terrace: flat steps at the levels, curved between",
    ),
    of_source(
        "power",
        Category::Modifier,
        &[positive("exponent", 2.0, 64.0, "the power")],
        "sign(v) |v|^exponent",
    ),
    of_source(
        "smoothstep",
        Category::Modifier,
        &[
            number("edge0", -1.0, -LIMIT, LIMIT, "where the output leaves 0"),
            number(
                "edge1",
                1.0,
                -LIMIT,
                LIMIT,
                "where it reaches 1; differs from edge0",
            ),
        ],
        "t^2 (3 - 2t) for t = (v - edge0) / (edge1 - edge0) clamped to [0, 1]",
    ),
    combiner("add", INPUTS, &[], "the sum of the inputs"),
    combiner("subtract", A_B, &[], "a - b"),
    combiner("multiply", INPUTS, &[], "the product of the inputs"),
    combiner("min", INPUTS, &[], "the least input"),
    combiner("max", INPUTS, &[], "the greatest input"),
    combiner(
        "smooth-min",
        A_B,
        &[positive("k", 0.1, LIMIT, "width of the blend")],
        "Quilez's polynomial smooth minimum of a and b",
    ),
    combiner(
        "smooth-max",
        A_B,
        &[positive("k", 0.1, LIMIT, "width of the blend")],
        "-smooth-min(-a, -b)",
    ),
    combiner(
        "blend",
        A_B_CONTROL,
        &[],
        "libnoise's Blend: a + (b - a) (control + 1) / 2",
    ),
    combiner(
        "select",
        A_B_CONTROL,
        &[
            number(
                "threshold",
                0.0,
                -LIMIT,
                LIMIT,
                "b where control >= threshold, else a",
            ),
            number(
                "falloff",
                0.0,
                0.0,
                LIMIT,
                "half-width of the smooth transition",
            ),
        ],
        "libnoise's Select with one threshold: a below, b above, an S-curve between",
    ),
];

/// The node table as Markdown (CONVENTIONS §13 holds it; a test keeps the two equal).
pub fn markdown_table() -> String {
    let mut out = String::from("| type | inputs | parameters (default) | computes |\n");
    out.push_str("| --- | --- | --- | --- |\n");
    for t in NODE_TYPES {
        let inputs: Vec<String> = t.inputs.iter().map(input_text).collect();
        let params: Vec<String> = t.params.iter().map(param_text).collect();
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            t.name,
            or_dash(inputs.join(", ")),
            or_dash(params.join(", ")),
            t.doc.replace('|', "\\|")
        ));
    }
    out
}

fn or_dash(s: String) -> String {
    if s.is_empty() { "-".into() } else { s }
}

fn input_text(input: &Input) -> String {
    match input.arity {
        Arity::One => format!("`{}`", input.name),
        Arity::List(n) => format!("`{}` ({n}+)", input.name),
        Arity::PerAxis => format!("`{}` (one per axis)", input.name),
    }
}

fn param_text(p: &Param) -> String {
    format!("`{}` ({})", p.name, p.ty.default_text())
}

impl ParamType {
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
            ParamType::Orientation => "45".into(),
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

/// `x` to at most 4 decimals (0.48825485 as 0.4883), for ranges in help text.
fn short(x: f64) -> String {
    format!("{}", (x * 1e4).round() / 1e4)
}
