//! Writing images as they are rendered: bands of rows go to an encoder that streams them to a
//! temporary file, renamed into place when complete (CONVENTIONS §6). Memory stays bounded by
//! the band, whatever the image's size.
//!
//! ```no_run
//! use gpu_noise::export::{ExportOptions, Format, write_image};
//! # fn main() -> gpu_noise::Result<()> {
//! let prepared = gpu_noise::NoiseSpec::new(gpu_noise::Kind::Perlin, 2).validate()?;
//! let image = gpu_noise::cpu::render_f32(&prepared);
//! let options = ExportOptions::for_spec(prepared.spec());
//! write_image("noise.png".as_ref(), &image, prepared.spec().size, Format::Png, &options)?;
//! # Ok(()) }
//! ```

mod atomic;
mod png;
mod raw;

use std::path::Path;

pub use atomic::{OutputFile, TEMPORARY_PREFIX, remove_all_temporaries};

use crate::colormap::Colormap;
use crate::error::{Error, Result};
use crate::spec::{NoiseSpec, Size};

/// Output format, picked by the file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PNG: 8 or 16-bit gray, or 8-bit RGB through a colormap.
    Png,
    /// Raw little-endian f32, no header.
    F32,
    /// NumPy `.npy` (format 1.0), `<f4`, shape (H, W) or (D, H, W).
    Npy,
}

impl Format {
    /// The format of a path's extension: `.png`, `.f32` or `.npy`.
    pub fn from_path(path: &Path) -> Result<Self> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png") => Ok(Format::Png),
            Some("f32") => Ok(Format::F32),
            Some("npy") => Ok(Format::Npy),
            _ => Err(Error::invalid(
                "output",
                format!(
                    "{}: the extension must be .png, .f32 or .npy",
                    path.display()
                ),
            )),
        }
    }

    /// Whether the format stores levels (a range and bit depth apply) rather than raw values.
    pub fn is_levels(self) -> bool {
        self == Format::Png
    }

    /// Whether the format can hold a volume (depth > 1).
    pub fn holds_volumes(self) -> bool {
        matches!(self, Format::F32 | Format::Npy)
    }
}

/// How values become file contents, for formats that store levels.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportOptions {
    /// PNG bit depth: 8 or 16 (gray); colormapped PNG is 8-bit RGB.
    pub bits: u8,
    /// Values `lo..hi` map to black..white (or the colormap's ends).
    pub range: (f64, f64),
    /// RGB through this colormap instead of gray.
    pub colormap: Option<Colormap>,
}

impl ExportOptions {
    /// 8-bit gray over the spec's nominal range.
    pub fn for_spec(spec: &NoiseSpec) -> Self {
        Self {
            bits: 8,
            range: spec.fractal.nominal_range(),
            colormap: None,
        }
    }

    /// Checks the options against a format: bit depth and range where levels are stored.
    pub fn check(&self, format: Format) -> Result<()> {
        if format.is_levels() {
            if self.bits != 8 && self.bits != 16 {
                return Err(Error::invalid(
                    "bits",
                    format!("must be 8 or 16, got {}", self.bits),
                ));
            }
            if self.colormap.is_some() && self.bits != 8 {
                return Err(Error::invalid(
                    "bits",
                    "a colormap writes 8-bit RGB; drop bits 16",
                ));
            }
            let (lo, hi) = self.range;
            if !(lo.is_finite() && hi.is_finite() && lo < hi) {
                return Err(Error::invalid(
                    "range",
                    format!("needs finite lo < hi, got {lo},{hi}"),
                ));
            }
        }
        Ok(())
    }
}

/// An encoder streaming an image to its [`OutputFile`].
pub trait ImageWriter: Send {
    /// Writes the next whole rows, memory order (x fastest); any number of rows per call.
    fn write_rows(&mut self, values: &[f32]) -> Result<()>;
    /// Completes the file and renames it onto the target.
    fn finish(self: Box<Self>) -> Result<()>;
}

/// An encoder for `format` writing an image of `size` into `file`.
pub fn open_writer(
    format: Format,
    file: OutputFile,
    size: Size,
    options: &ExportOptions,
) -> Result<Box<dyn ImageWriter>> {
    options.check(format)?;
    if size.depth > 1 && !format.holds_volumes() {
        return Err(Error::invalid(
            "output",
            format!("a volume (depth > 1) cannot be written as {format:?}; use .npy or .f32"),
        ));
    }
    Ok(match format {
        Format::Png => Box::new(png::PngWriter::new(file, size, options)?),
        Format::F32 => Box::new(raw::RawWriter::new(file, None)?),
        Format::Npy => Box::new(raw::RawWriter::new(file, Some(size))?),
    })
}

/// Encodes and writes a whole image; nothing is left at `path` if anything fails.
pub fn write_image(
    path: &Path,
    data: &[f32],
    size: Size,
    format: Format,
    options: &ExportOptions,
) -> Result<()> {
    let mut writer = open_writer(format, OutputFile::create(path)?, size, options)?;
    writer.write_rows(data)?;
    writer.finish()
}

/// Refuses non-finite values: no file may hold a NaN or an infinity (they would be a bug).
pub(crate) fn check_finite(values: &[f32]) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(n) => Err(Error::Encode {
            format: "image",
            reason: format!("value {} of a band is {} (not written)", n, values[n]),
        }),
    }
}
