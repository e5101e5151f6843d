//! The JSON form of a render: one field per CLI flag, same names. `--spec FILE` reads it,
//! flags override it, and `render --print-spec` writes the effective one back.

use serde::{Deserialize, Serialize};

use crate::backend::BackendChoice;
use crate::error::{Error, Result};
use crate::spec::{Fractal, Interp, Kind, NoiseSpec, Size};

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
    /// `[W, H]` or `[W, H, D]` (CLI: `WxH` or `WxHxD`).
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
    /// PNG mapping `[lo, hi]` (CLI: `lo,hi`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<BackendChoice>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

/// Default image size when none is given: 512x512 (512x1 for 1D noise).
pub const DEFAULT_SIDE: u32 = 512;

impl SpecFile {
    /// Reads a spec file; unknown fields and bad JSON are errors naming `--spec`.
    pub fn from_json(text: &str) -> Result<Self> {
        serde_json::from_str(text).map_err(|e| Error::invalid("--spec", e.to_string()))
    }

    pub fn to_json(&self) -> String {
        // Serializing plain data into a String cannot fail.
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
            backend: over.backend.or(self.backend),
            output: over.output.or(self.output),
        }
    }

    /// The noise part, with defaults for absent fields (not yet validated: see
    /// [`NoiseSpec::validate`]).
    pub fn noise_spec(&self) -> Result<NoiseSpec> {
        let kind = self.kind.unwrap_or(Kind::Perlin);
        let dims = self.dims.unwrap_or(2);
        let mut spec = NoiseSpec::new(kind, dims);
        spec.seed = self.seed.unwrap_or(spec.seed);
        spec.frequency = self.frequency.unwrap_or(spec.frequency);
        if let Some(offset) = &self.offset {
            if offset.is_empty() || offset.len() > dims as usize {
                return Err(Error::invalid(
                    "--offset",
                    format!(
                        "give 1..={dims} coordinates for --dims {dims}, got {}",
                        offset.len()
                    ),
                ));
            }
            spec.offset[..offset.len()].copy_from_slice(offset);
        }
        spec.size = match self.size.as_deref() {
            None if dims == 1 => Size::new(DEFAULT_SIDE, 1, 1),
            None => Size::new(DEFAULT_SIDE, DEFAULT_SIDE, 1),
            Some([w]) => Size::new(*w, 1, 1),
            Some([w, h]) => Size::new(*w, *h, 1),
            Some([w, h, d]) => Size::new(*w, *h, *d),
            Some(other) => {
                return Err(Error::invalid(
                    "--size",
                    format!("give W, WxH or WxHxD, got {} numbers", other.len()),
                ));
            }
        };
        spec.interp = self.interp.unwrap_or(kind.default_interp());
        spec.fractal = self.fractal.unwrap_or(Fractal::None);
        spec.octaves = self.octaves.unwrap_or(1);
        spec.lacunarity = self.lacunarity.unwrap_or(spec.lacunarity);
        spec.persistence = self.persistence.unwrap_or(spec.persistence);
        spec.tile = self.tile.unwrap_or(false);
        Ok(spec)
    }

    /// PNG bit depth, 8 unless set.
    pub fn bits(&self) -> u8 {
        self.bits.unwrap_or(8)
    }

    /// PNG mapping range: the fractal's nominal range unless set.
    pub fn range(&self, spec: &NoiseSpec) -> (f64, f64) {
        self.range
            .map(|[lo, hi]| (lo, hi))
            .unwrap_or(spec.fractal.nominal_range())
    }

    /// Every field filled in with what a render of this spec uses.
    pub fn effective(&self) -> Result<SpecFile> {
        let spec = self.noise_spec()?;
        let s = spec.size;
        let (lo, hi) = self.range(&spec);
        Ok(SpecFile {
            kind: Some(spec.kind),
            dims: Some(spec.dims),
            seed: Some(spec.seed),
            frequency: Some(spec.frequency),
            offset: Some(spec.offset[..spec.dims.clamp(1, 4) as usize].to_vec()),
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
            bits: Some(self.bits()),
            range: Some([lo, hi]),
            backend: Some(self.backend.unwrap_or_default()),
            output: self.output.clone(),
        })
    }
}
