//! [`Prepared`]: a validated spec and everything derived from it, opaque so that it cannot drift
//! from what was validated (a raised `octaves` would make the GPU read past its tables).

use super::frames::OctaveFrame;
use super::{KindParams, NoiseSpec};
use crate::error::{Error, Result};
use crate::tables::OctaveTables;

/// One octave of a fractal sum: its tables, tiling period, scale and weight.
#[derive(Clone, Debug)]
pub struct Octave {
    pub(crate) seed: u64,
    pub(crate) tables: OctaveTables,
    pub(crate) period: [i64; 4],
    pub(crate) scale: f64,
    pub(crate) weight: f64,
    pub(crate) frame: OctaveFrame,
}

impl Octave {
    /// The seed of this octave's tables: `seed + k` (wrapping).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The permutation, gradient and value tables of [`seed`](Self::seed).
    pub fn tables(&self) -> &OctaveTables {
        &self.tables
    }

    /// Tiling period in cells per axis; 0 where the axis does not wrap.
    pub fn period(&self) -> [i64; 4] {
        self.period
    }

    /// `lacunarity^k`: this octave samples `p * scale`.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// `persistence^k / sum_j persistence^j`: the weights of all octaves sum to 1.
    pub fn weight(&self) -> f64 {
        self.weight
    }

    /// Where the image's texels land on this octave's lattice, exactly (CONVENTIONS §1).
    pub fn frame(&self) -> &OctaveFrame {
        &self.frame
    }
}

/// A validated [`NoiseSpec`] with the data both backends need. Build it with
/// [`NoiseSpec::validate`]; change it only through the setters, which validate again.
///
/// Its fields are private, so a validated spec cannot be edited behind the renderer's back:
///
/// ```compile_fail
/// let mut prepared = gpu_noise::NoiseSpec::new(gpu_noise::Kind::Perlin, 2).validate()?;
/// prepared.spec.octaves = 16; // error: field `spec` is private
/// # Ok::<(), gpu_noise::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Prepared {
    pub(super) spec: NoiseSpec,
    pub(super) octaves: Vec<Octave>,
    params: KindParams,
    /// A chunk placed in its world ([`Prepared::chunk`]): its frames are not the spec's own.
    pub(super) placed: bool,
}

impl Prepared {
    pub(super) fn build(spec: NoiseSpec, periods: Vec<[i64; 4]>) -> Result<Self> {
        let octaves = build_octaves(&spec, periods, |_| None)?;
        let params = spec.kind_params();
        Ok(Self {
            spec,
            octaves,
            params,
            placed: false,
        })
    }

    /// The spec as validated.
    pub fn spec(&self) -> &NoiseSpec {
        &self.spec
    }

    /// What the cellular, sparse-convolution and Gabor kinds derive from the spec.
    pub fn kind_params(&self) -> &KindParams {
        &self.params
    }

    /// The octaves, first (coarsest when lacunarity > 1) first.
    pub fn octaves(&self) -> &[Octave] {
        &self.octaves
    }

    /// The values of the noise library's override constants (`GN_NOISE_KIND`, `GN_NOISE_DIMS`,
    /// `GN_NOISE_INTERP`, `GN_NOISE_FRACTAL`, `GN_NOISE_LATTICE`, `GN_NOISE_OCTAVES`,
    /// `GN_NOISE_TILED`, `GN_NOISE_VOLUME`) for this spec: pass them as
    /// `PipelineCompilationOptions::constants` when a pipeline of yours calls
    /// `gn_fractal_noise`. A pipeline serves every spec with the same constants, so moving
    /// the offset or the frequency each frame needs no new one.
    pub fn pipeline_constants(&self) -> [(&'static str, f64); 8] {
        crate::gpu::pipelines::NoiseKey::of(self).constants()
    }

    /// Replaces the spec after validating it, rebuilding only what changed: tables are reused
    /// for octaves whose seed and dims stay the same, so moving the offset or the frequency each
    /// frame costs no table generation. On error `self` is unchanged.
    pub fn set_spec(&mut self, spec: NoiseSpec) -> Result<()> {
        if self.placed {
            return Err(Error::invalid(
                "chunk",
                "a chunk stays placed in its world: change the world's Prepared and take the \
                 chunk again",
            ));
        }
        spec.check_fields()?;
        let periods = spec.tiling_periods()?;
        let same_dims = self.spec.dims == spec.dims;
        let octaves = build_octaves(&spec, periods, |seed| {
            let old = self.octaves.iter().find(|o| same_dims && o.seed == seed)?;
            Some(old.tables.clone())
        })?;
        let params = spec.kind_params();
        *self = Prepared {
            spec,
            octaves,
            params,
            placed: false,
        };
        Ok(())
    }

    /// Moves the sampled window (texel units), e.g. to scroll or animate (time as z or w).
    pub fn set_offset(&mut self, offset: [f64; 4]) -> Result<()> {
        let mut spec = self.spec.clone();
        spec.offset = offset;
        self.set_spec(spec)
    }
}

/// The octaves of `spec`: seed `s + k`, scale `lacunarity^k` by repeated multiplication,
/// normalized weight, frame; `reuse(seed)` may supply tables already built for that seed.
fn build_octaves(
    spec: &NoiseSpec,
    periods: Vec<[i64; 4]>,
    reuse: impl Fn(u64) -> Option<OctaveTables>,
) -> Result<Vec<Octave>> {
    let weights = octave_weights(spec.persistence, spec.octaves);
    let mut scale = 1.0;
    let mut octaves = Vec::with_capacity(periods.len());
    for (k, (period, weight)) in periods.into_iter().zip(weights).enumerate() {
        let seed = spec.seed.wrapping_add(k as u64);
        // Validation keeps every lattice coordinate below 2^62 cells, so this never fails.
        let frame = OctaveFrame::new(spec, scale, period).ok_or_else(|| {
            Error::invalid(
                spec.offset_or_frequency(),
                format!("octave {k}'s lattice coordinates pass 2^62 cells"),
            )
        })?;
        octaves.push(Octave {
            seed,
            tables: reuse(seed).unwrap_or_else(|| OctaveTables::new(seed, spec.dims)),
            period,
            scale,
            weight,
            frame,
        });
        scale *= spec.lacunarity;
    }
    Ok(octaves)
}

/// Octave weights `a_k / sum_j a_j` with `a_k = persistence^k`, computed so that nothing
/// overflows: for persistence > 1 every amplitude is divided by the largest,
/// `persistence^(octaves-1)`, first. The weights are finite, in [0, 1], and sum to 1.
pub fn octave_weights(persistence: f64, octaves: u32) -> Vec<f64> {
    let n = octaves as usize;
    let mut amplitudes = vec![0.0; n];
    if persistence <= 1.0 {
        let mut a = 1.0;
        for slot in amplitudes.iter_mut() {
            *slot = a;
            a *= persistence;
        }
    } else {
        let shrink = 1.0 / persistence;
        let mut a = 1.0;
        for slot in amplitudes.iter_mut().rev() {
            *slot = a;
            a *= shrink;
        }
    }
    let norm: f64 = amplitudes.iter().sum();
    amplitudes.iter().map(|a| a / norm).collect()
}
