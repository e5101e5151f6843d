//! Field checks of [`NoiseSpec::validate`]: every error names the spec field at fault and the
//! allowed range.

use super::{Fractal, Interp, MAX_COORD, MAX_OCTAVES, MAX_SIDE, MAX_WORLD_TEXELS, NoiseSpec};
use crate::error::{Error, Result};
use crate::kinds::param::{FREQUENCY, LACUNARITY, PERSISTENCE, check_octave_scale};

/// Smallest frequency at any octave: 2^-40 cells per texel. Steps are the frequency rounded
/// to 2^-64 (CONVENTIONS §1), so it keeps at least 24 significant bits, an f32's.
pub const MIN_OCTAVE_FREQUENCY: f64 = 1.0 / 1_099_511_627_776.0;
/// Largest |offset|, so the offset is a finite f32 on the GPU.
pub const MAX_OFFSET: f64 = f32::MAX as f64;

impl NoiseSpec {
    pub(crate) fn check_fields(&self) -> Result<()> {
        self.check_kind_and_dims()?;
        (self.kind_fields.check(self.kind))
            .map_err(|(field, reason)| Error::invalid(field, reason))?;
        self.check_octaves()?;
        // One rule per common parameter: the graph's nodes check the same Params.
        for (param, value) in [
            (LACUNARITY, self.lacunarity),
            (PERSISTENCE, self.persistence),
            (FREQUENCY, self.frequency),
        ] {
            (param.ty.check_number(value)).map_err(|reason| Error::invalid(param.name, reason))?;
        }
        // `!(a <= b)` rather than `a > b` so that NaN is refused too.
        if let Some(v) = self.offset.iter().find(|v| !v.abs().le(&MAX_OFFSET)) {
            return Err(Error::invalid(
                "offset",
                format!("every coordinate must be a finite number of magnitude <= 3.4e38, got {v}"),
            ));
        }
        self.check_size()?;
        self.check_reach()
    }

    fn check_kind_and_dims(&self) -> Result<()> {
        let (min_dims, max_dims) = (self.kind.min_dims(), self.kind.max_dims());
        if !(min_dims..=max_dims).contains(&self.dims) {
            return Err(Error::invalid(
                "dims",
                format!(
                    "{} noise supports {min_dims}..={max_dims}, got {}",
                    self.kind, self.dims
                ),
            ));
        }
        if !self.kind.interpolates() && self.interp != self.kind.default_interp() {
            return Err(Error::invalid(
                "interp",
                format!(
                    "does not apply to {} noise, which interpolates no lattice corners",
                    self.kind
                ),
            ));
        }
        if self.tile && !self.kind.tiles() {
            return Err(Error::invalid(
                "tile",
                format!("does not apply to {} noise", self.kind),
            ));
        }
        if self.interp == Interp::CatmullRom && !self.kind.info().catmull_rom {
            return Err(Error::invalid(
                "interp",
                "catmull-rom is for value noise only; use nearest|linear|cosine|cubic|quintic",
            ));
        }
        Ok(())
    }

    fn check_octaves(&self) -> Result<()> {
        if !(1..=MAX_OCTAVES).contains(&self.octaves) {
            return Err(Error::invalid(
                "octaves",
                format!("must be in 1..={MAX_OCTAVES}, got {}", self.octaves),
            ));
        }
        if self.octaves > 1 && self.fractal == Fractal::None {
            return Err(Error::invalid(
                "octaves",
                "more than 1 octave needs a fractal (fbm|turbulence|ridged|billow)",
            ));
        }
        Ok(())
    }

    pub(crate) fn check_size(&self) -> Result<()> {
        let s = self.size;
        for (side, name) in [(s.width, "width"), (s.height, "height"), (s.depth, "depth")] {
            if !(1..=MAX_SIDE).contains(&side) {
                return Err(Error::invalid(
                    "size",
                    format!("{name} must be in 1..={MAX_SIDE}, got {side}"),
                ));
            }
        }
        if s.texels() > MAX_WORLD_TEXELS {
            return Err(Error::invalid(
                "size",
                format!(
                    "{} texels is more than the limit of {MAX_WORLD_TEXELS} (2^40)",
                    s.texels()
                ),
            ));
        }
        if s.depth > 1 && self.dims < 3 {
            return Err(Error::invalid(
                "size",
                format!("a volume (depth > 1) needs 3 or 4 dims, got {}", self.dims),
            ));
        }
        Ok(())
    }

    /// Every lattice coordinate at every octave (skewed for simplex) must stay below 2^62 cells,
    /// and every octave's frequency at or above 2^-40 cells per texel. The message blames what
    /// actually grows |p|: the lacunarity, the offset, or the frequency times the size.
    fn check_reach(&self) -> Result<()> {
        self.check_finest_step()?;
        check_octave_scale(self.lacunarity, self.octaves)
            .map_err(|reason| Error::invalid("lacunarity", reason))?;
        let growth = self.last_octave_scale();
        let stretch = self.kind.skew_stretch(self.dims);
        let reach = self.max_reach() * stretch;
        if reach < MAX_COORD {
            return Ok(());
        }
        let field = if growth > 1.0 && self.max_abs_coord() * stretch < MAX_COORD {
            "lacunarity"
        } else {
            self.offset_or_frequency()
        };
        Err(Error::invalid(
            field,
            format!(
                "samples reach |p| = {reach:e} lattice cells (frequency x (offset + texel) x \
                 lacunarity^k at the largest octave k{}); every lattice cell must fit in 62 \
                 bits: |p| < 2^62 = {MAX_COORD:e}",
                if stretch > 1.0 {
                    ", times simplex's skew"
                } else {
                    ""
                }
            ),
        ))
    }

    /// The smallest octave frequency (the first, or the last when lacunarity < 1) must be at
    /// least 2^-40 cells per texel.
    fn check_finest_step(&self) -> Result<()> {
        let smallest = self.frequency * self.last_octave_scale().min(1.0);
        if smallest >= MIN_OCTAVE_FREQUENCY {
            return Ok(());
        }
        let field = if self.frequency >= MIN_OCTAVE_FREQUENCY {
            "lacunarity"
        } else {
            "frequency"
        };
        Err(Error::invalid(
            field,
            format!(
                "every octave's frequency must be at least 2^-40 = {MIN_OCTAVE_FREQUENCY:e} \
                 cells per texel (steps keep 24 significant bits at 2^-64 cells), got \
                 {smallest:e}"
            ),
        ))
    }

    /// Checks caller-given points (noise space) as validation checks texels: every coordinate
    /// times `lacunarity^(octaves-1)` (and simplex's skew) finite and below 2^62. The error
    /// (field `points`) gives the 1-based index of the first bad point.
    pub fn check_points(&self, points: &[[f64; 4]]) -> Result<()> {
        let reach = self.last_octave_scale().max(1.0) * self.kind.skew_stretch(self.dims);
        let bad = |c: &f64| !(c * reach).abs().lt(&MAX_COORD);
        let dims = self.dims as usize;
        match points.iter().position(|p| p[..dims].iter().any(bad)) {
            None => Ok(()),
            Some(n) => Err(Error::invalid(
                "points",
                format!(
                    "point {}: coordinates times lacunarity^(octaves-1) must be finite and \
                     below 2^62 lattice cells in magnitude",
                    n + 1
                ),
            )),
        }
    }

    /// Which makes |p| large at octave 0: the offset, or the frequency (times the size).
    pub fn offset_or_frequency(&self) -> &'static str {
        if self.offset_reach() >= self.extent_reach() {
            "offset"
        } else {
            "frequency"
        }
    }

    /// The part of |p| at octave 0 that the offset alone contributes.
    fn offset_reach(&self) -> f64 {
        self.offset[..self.dims as usize]
            .iter()
            .map(|o| (self.frequency * o).abs())
            .fold(0.0, f64::max)
    }

    /// The part of |p| at octave 0 that the image's extent contributes.
    fn extent_reach(&self) -> f64 {
        let s = self.size;
        let longest = s.width.max(s.height).max(s.depth);
        self.frequency * f64::from(longest)
    }
}
