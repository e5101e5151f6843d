//! The JSON form of a render: one field per `gpu-noise render` flag, same
//! names. The tool reads it with `--spec FILE` (at most [`MAX_SPEC_BYTES`]) under its flags and
//! writes the effective, validated one back with `--print-spec`; the browser previewer
//! (`web/`) shares views in it. One parser for both, so a shared view renders the same.

mod backend_choice;
mod channels;
mod graph_image;
mod kind_params;
mod parse;

pub use backend_choice::BackendChoice;
pub use channels::{Channels, DEFAULT_NORMAL_STRENGTH};
pub use kind_params::{KindParams, to_json};

use crate::graph::kind_fields::{fields_of, set_kind_fields};
use crate::spec::{Interp, LatticeKind};
use crate::{Colormap, Error, Fractal, Kind, NoiseSpec, Result, Size};
use serde::{Deserialize, Serialize};

/// A spec file is a small JSON object; anything larger is refused before it is parsed.
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// Default image side when no size is given: 512x512 (512 for 1D noise).
pub const DEFAULT_SIDE: u32 = 512;

/// The fields of [`SpecFile`] besides the kinds' own parameters, as JSON names (a test keeps
/// this list equal to what the struct writes).
pub const FIELDS: &[&str] = &[
    "kind",
    "dims",
    "seed",
    "frequency",
    "offset",
    "size",
    "interp",
    "fractal",
    "octaves",
    "lacunarity",
    "persistence",
    "tile",
    "lattice",
    "channels",
    "normal_strength",
    "bits",
    "range",
    "colormap",
    "backend",
    "output",
    "tiles",
    "tile_range",
    "tile_format",
    "graph",
    "layout",
];

/// Every field optional; absent fields take the defaults (or the values of a lower layer).
/// (Unknown fields are refused by [`SpecFile::from_json`] against [`FIELDS`], since serde
/// cannot deny them beside the flattened kind parameters.)
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SpecFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The noise kind (default `perlin`).
    pub kind: Option<Kind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// 1 to 4 dimensions (default 2).
    pub dims: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The seed (CONVENTIONS §2).
    pub seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Lattice cells per texel (CONVENTIONS §1).
    pub frequency: Option<f64>,
    /// `[x, y, z, w]`, as many as `dims` (CLI: `x,y[,z[,w]]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<Vec<f64>>,
    /// `[N]`, `[W, H]` or `[W, H, D]` (CLI: `N`, `WxH` or `WxHxD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The interpolation of the kinds that interpolate.
    pub interp: Option<Interp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The fractal sum (default none).
    pub fractal: Option<Fractal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Octaves of the fractal sum.
    pub octaves: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Frequency ratio between octaves.
    pub lacunarity: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Amplitude ratio between octaves.
    pub persistence: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Exact tiling over the image (CONVENTIONS §5).
    pub tile: Option<bool>,
    /// `table` or `hash` (CONVENTIONS §2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lattice: Option<LatticeKind>,
    /// The kinds' own parameters (`jitter`, `gabor_bandwidth`...) under their node-table
    /// names; [`SpecFile::from_json`] collects them.
    #[serde(
        flatten,
        skip_deserializing,
        skip_serializing_if = "KindParams::is_empty"
    )]
    pub kind_params: KindParams,
    /// What each texel holds: the value, its gradient, or a normal map (CONVENTIONS §12).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channels: Option<Channels>,
    /// Normal maps' height scale, > 0 (default [`DEFAULT_NORMAL_STRENGTH`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal_strength: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// 8 or 16 bits per PNG channel.
    pub bits: Option<u8>,
    /// Output mapping `[lo, hi]` (CLI: `lo,hi`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
    /// `gray|terrain|viridis|magma` or `value:#rrggbb,...` stops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colormap: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The engine the tool renders with.
    pub backend: Option<BackendChoice>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The output file (the tool's `-o`).
    pub output: Option<String>,
    /// A tile set's tile side (CLI: `--tiles`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiles: Option<u32>,
    /// `X0..X1,Y0..Y1`, as the CLI writes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile_range: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// A tile set's file format.
    pub tile_format: Option<String>,
    /// A noise graph (CONVENTIONS §13) instead of the single-kind fields, kept as its JSON text
    /// so that its own reader checks it (duplicate keys included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<GraphText>,
    /// Where a graph's nodes sit in the previewer's editor: node name to `[x, y]` on its canvas.
    /// Renders ignore it; a spec the previewer exports carries it, so loading the file (or a
    /// link) brings the layout back. Only a graph's spec takes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<std::collections::BTreeMap<String, [f64; 2]>>,
}

/// A graph's JSON text inside a spec file, written back as JSON (not as a string).
#[derive(Clone, Debug, PartialEq)]
pub struct GraphText(pub String);

impl Serialize for GraphText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::Error as _;
        let raw =
            serde_json::value::RawValue::from_string(self.0.clone()).map_err(S::Error::custom)?;
        raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for GraphText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let raw: Box<serde_json::value::RawValue> = Deserialize::deserialize(d)?;
        Ok(GraphText(raw.get().to_string()))
    }
}

impl SpecFile {
    /// This layer with every field that `over` sets replaced by `over`'s. When `over` changes
    /// the kind, this layer's fields that belonged to the old kind (its own parameters, its
    /// interpolation) are dropped: `--spec cellular.json --kind perlin` is perlin, not perlin
    /// with a jitter nobody gave it.
    pub fn overlay(mut self, over: SpecFile) -> SpecFile {
        if over.kind.is_some_and(|k| Some(k) != self.kind) {
            self.interp = None;
            self.kind_params = KindParams::default();
        }
        SpecFile {
            kind: over.kind.or(self.kind),
            dims: over.dims.or(self.dims),
            seed: over.seed.or(self.seed),
            frequency: over.frequency.or(self.frequency),
            offset: over.offset.or(self.offset),
            size: over.size.or(self.size),
            interp: over.interp.or(self.interp),
            fractal: over.fractal.or(self.fractal),
            octaves: over.octaves.or(self.octaves),
            lacunarity: over.lacunarity.or(self.lacunarity),
            persistence: over.persistence.or(self.persistence),
            tile: over.tile.or(self.tile),
            lattice: over.lattice.or(self.lattice),
            kind_params: self.kind_params.overlay(over.kind_params),
            channels: over.channels.or(self.channels),
            normal_strength: over.normal_strength.or(self.normal_strength),
            bits: over.bits.or(self.bits),
            range: over.range.or(self.range),
            colormap: over.colormap.or(self.colormap),
            backend: over.backend.or(self.backend),
            output: over.output.or(self.output),
            tiles: over.tiles.or(self.tiles),
            tile_range: over.tile_range.or(self.tile_range),
            tile_format: over.tile_format.or(self.tile_format),
            graph: over.graph.or(self.graph),
            layout: over.layout.or(self.layout),
        }
    }

    /// The range of values that spans the levels of an image of `spec` (black to white, or the
    /// colormap's ends) and the colormap, if any: `range` if given, else a custom colormap's
    /// stops, else the spec's nominal range (CONVENTIONS §6).
    pub fn levels(&self, spec: &NoiseSpec) -> Result<((f64, f64), Option<Colormap>)> {
        let colormap: Option<Colormap> = self.colormap.as_deref().map(str::parse).transpose()?;
        let stops = colormap.as_ref().and_then(Colormap::stops_range);
        let range = match self.range {
            Some([lo, hi]) => (lo, hi),
            None => stops.unwrap_or(spec.fractal.nominal_range()),
        };
        Ok((range, colormap))
    }

    /// What each texel holds, after refusing the output fields it would silently ignore:
    /// levels (`bits`, `range`, `colormap`) and tile sets apply to values only, and
    /// `normal_strength` to normal maps only.
    pub fn check_channels(&self) -> Result<Channels> {
        let channels = self.channels.unwrap_or_default();
        let levels = [
            ("bits", self.bits.is_some()),
            ("range", self.range.is_some()),
            ("colormap", self.colormap.is_some()),
            ("tiles", self.tiles.is_some()),
        ];
        if let Some((field, _)) = levels.iter().find(|(_, given)| *given)
            && channels != Channels::Value
        {
            return Err(Error::InvalidSpec {
                field: "channels",
                reason: format!("`{field}` applies to values, not to {channels} outputs"),
            });
        }
        if self.normal_strength.is_some() && channels != Channels::Normal {
            return Err(Error::InvalidSpec {
                field: "normal_strength",
                reason: "applies to normal maps only (`channels` normal)".into(),
            });
        }
        Ok(channels)
    }

    /// A normal map's height scale: `normal_strength`, default [`DEFAULT_NORMAL_STRENGTH`];
    /// an error unless finite and > 0.
    pub fn strength(&self) -> Result<f32> {
        let strength = self.normal_strength.unwrap_or(DEFAULT_NORMAL_STRENGTH);
        if !(strength.is_finite() && strength > 0.0) {
            return Err(Error::InvalidSpec {
                field: "normal_strength",
                reason: format!("must be a finite number > 0, got {strength}"),
            });
        }
        Ok(strength)
    }

    /// The noise part, with defaults for absent fields (not yet validated).
    pub fn noise_spec(&self) -> Result<NoiseSpec> {
        let kind = self.kind.unwrap_or(Kind::Perlin);
        let dims = self.dims.unwrap_or(2);
        let mut spec = NoiseSpec::new(kind, dims);
        spec.seed = self.seed.unwrap_or(spec.seed);
        spec.frequency = self.frequency.unwrap_or(spec.frequency);
        if let Some(offset) = &self.offset {
            if offset.is_empty() || offset.len() > dims.clamp(1, 4) as usize {
                return Err(Error::InvalidSpec {
                    field: "offset",
                    reason: format!(
                        "give 1..={dims} coordinates for {dims} dims, got {}",
                        offset.len()
                    ),
                });
            }
            spec.offset[..offset.len()].copy_from_slice(offset);
        }
        spec.size = size_of(self.size.as_deref(), dims)?;
        spec.interp = self.interp.unwrap_or(kind.default_interp());
        spec.fractal = self.fractal.unwrap_or(Fractal::None);
        spec.octaves = self.octaves.unwrap_or(1);
        spec.lacunarity = self.lacunarity.unwrap_or(spec.lacunarity);
        spec.persistence = self.persistence.unwrap_or(spec.persistence);
        spec.tile = self.tile.unwrap_or(false);
        spec.lattice = self.lattice.unwrap_or_default();
        self.refuse_foreign_fields(kind)?;
        set_kind_fields(&mut spec, &self.kind_params.0)?;
        Ok(spec)
    }

    /// A field given for a kind that does not use it is an error, even at its default value
    /// (it would be silently ignored); `set_kind_fields` does the same for the kinds' own.
    fn refuse_foreign_fields(&self, kind: Kind) -> Result<()> {
        let given = [
            ("interp", self.interp.is_some(), kind.interpolates()),
            ("tile", self.tile == Some(true), kind.tiles()),
        ];
        if self.layout.is_some() && self.graph.is_none() {
            return Err(Error::InvalidSpec {
                field: "layout",
                reason: "places a graph's nodes; this spec has no graph".into(),
            });
        }
        match given.iter().find(|(_, set, applies)| *set && !applies) {
            Some((field, _, _)) => Err(Error::InvalidSpec {
                field,
                reason: format!("does not apply to {kind} noise"),
            }),
            None => Ok(()),
        }
    }

    /// Every noise field filled in with what a render of the validated `spec` uses; output
    /// fields (bits, range, colormap, output) as given, since they depend on the format.
    pub fn effective(&self, spec: &NoiseSpec) -> SpecFile {
        let s = spec.size;
        SpecFile {
            kind: Some(spec.kind),
            dims: Some(spec.dims),
            seed: Some(spec.seed),
            frequency: Some(spec.frequency),
            offset: Some(spec.offset[..spec.dims as usize].to_vec()),
            size: Some(if s.depth > 1 {
                vec![s.width, s.height, s.depth]
            } else {
                vec![s.width, s.height]
            }),
            interp: spec.kind.interpolates().then_some(spec.interp),
            fractal: Some(spec.fractal),
            octaves: Some(spec.octaves),
            lacunarity: Some(spec.lacunarity),
            persistence: Some(spec.persistence),
            tile: spec.kind.tiles().then_some(spec.tile),
            lattice: Some(spec.lattice),
            kind_params: KindParams(
                fields_of(spec.kind)
                    .map(|f| (f.name.to_string(), f.value(spec)))
                    .collect(),
            ),
            channels: self.channels,
            normal_strength: self.normal_strength,
            bits: self.bits,
            range: self.range,
            colormap: self.colormap.clone(),
            backend: Some(self.backend.unwrap_or_default()),
            output: self.output.clone(),
            tiles: self.tiles,
            tile_range: self.tile_range.clone(),
            tile_format: self.tile_format.clone(),
            graph: None,
            layout: None,
        }
    }
}

/// The size a list of numbers means: one number N is N for 1 dim, N x N for 2, and an N^3
/// volume for 3 and 4; absent, 512 (x 512 for 2 or more dims).
fn size_of(numbers: Option<&[u32]>, dims: u32) -> Result<Size> {
    Ok(match numbers {
        None if dims == 1 => Size::new(DEFAULT_SIDE, 1, 1),
        None => Size::new(DEFAULT_SIDE, DEFAULT_SIDE, 1),
        Some([n]) if dims == 1 => Size::new(*n, 1, 1),
        Some([n]) if dims == 2 => Size::new(*n, *n, 1),
        Some([n]) => Size::new(*n, *n, *n),
        Some([w, h]) => Size::new(*w, *h, 1),
        Some([w, h, d]) => Size::new(*w, *h, *d),
        Some(other) => {
            return Err(Error::InvalidSpec {
                field: "size",
                reason: format!("give N, WxH or WxHxD, got {} numbers", other.len()),
            });
        }
    })
}
