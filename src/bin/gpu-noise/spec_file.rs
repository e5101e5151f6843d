//! The JSON form of a render: one field per CLI flag, same names. `--spec FILE` reads it
//! (at most [`MAX_SPEC_BYTES`]), flags override it, and `render --print-spec` writes the
//! effective, validated one back.

use std::io::Read;
use std::path::Path;

use gpu_noise::{Error, Fractal, Interp, Kind, NoiseSpec, Result, Size};
use serde::{Deserialize, Serialize};

use crate::backend::BackendChoice;

/// A spec file is a small JSON object; anything larger is refused before it is parsed.
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// Default image side when no size is given: 512x512 (512 for 1D noise).
pub const DEFAULT_SIDE: u32 = 512;

/// Every field optional; absent fields take the defaults (or the values of a lower layer).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dims: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frequency: Option<f64>,
    /// `[x, y, z, w]`, as many as `dims` (CLI: `x,y[,z[,w]]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<Vec<f64>>,
    /// `[N]`, `[W, H]` or `[W, H, D]` (CLI: `N`, `WxH` or `WxHxD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interp: Option<Interp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fractal: Option<Fractal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub octaves: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lacunarity: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persistence: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bits: Option<u8>,
    /// Output mapping `[lo, hi]` (CLI: `lo,hi`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
    /// `gray|terrain|viridis|magma` or `value:#rrggbb,...` stops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colormap: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<BackendChoice>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

fn spec_error(reason: String) -> Error {
    Error::InvalidSpec {
        field: "spec",
        reason,
    }
}

impl SpecFile {
    /// Reads a spec file of at most [`MAX_SPEC_BYTES`].
    pub fn read(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path)
            .map_err(|e| spec_error(format!("{}: {e}", path.display())))?;
        let mut bytes = Vec::new();
        file.take(MAX_SPEC_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| spec_error(format!("{}: {e}", path.display())))?;
        if bytes.len() as u64 > MAX_SPEC_BYTES {
            return Err(spec_error(format!(
                "{} is larger than {} KiB; a spec is a small JSON object",
                path.display(),
                MAX_SPEC_BYTES / 1024
            )));
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| spec_error(format!("{} is not UTF-8 text", path.display())))?;
        Self::from_json(&text)
    }

    /// Parses a spec; unknown fields, `null` values and bad JSON are errors naming `--spec`.
    pub fn from_json(text: &str) -> Result<Self> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| spec_error(e.to_string()))?;
        let Some(object) = value.as_object() else {
            return Err(spec_error("the spec must be a JSON object {...}".into()));
        };
        if let Some((field, _)) = object.iter().find(|(_, v)| v.is_null()) {
            return Err(spec_error(format!(
                "field `{field}` is null; give a value or leave the field out"
            )));
        }
        serde_json::from_value(value).map_err(|e| spec_error(e.to_string()))
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        // Serializing plain data with finite numbers into a String cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// This layer with every field that `over` sets replaced by `over`'s.
    pub fn overlay(self, over: SpecFile) -> SpecFile {
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
            bits: over.bits.or(self.bits),
            range: over.range.or(self.range),
            colormap: over.colormap.or(self.colormap),
            backend: over.backend.or(self.backend),
            output: over.output.or(self.output),
        }
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
        Ok(spec)
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
            interp: Some(spec.interp),
            fractal: Some(spec.fractal),
            octaves: Some(spec.octaves),
            lacunarity: Some(spec.lacunarity),
            persistence: Some(spec.persistence),
            tile: Some(spec.tile),
            bits: self.bits,
            range: self.range,
            colormap: self.colormap.clone(),
            backend: Some(self.backend.unwrap_or_default()),
            output: self.output.clone(),
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
