//! Writing images as they are rendered: bands of rows go to an encoder that streams them to a
//! temporary file, renamed into place when complete (CONVENTIONS §6). Memory stays bounded by a
//! couple of bands, whatever the image's size.
//!
//! Formats by extension: `.png` (8/16-bit gray, RGB through a colormap, or a plotted profile
//! for 1D noise), `.exr` (OpenEXR, f32), `.tif`/`.tiff` (f32), `.f32` (raw), `.npy` (NumPy),
//! `.csv` (1D: `x,value`); a path holding `{k}` writes a volume as PNG slices.
//!
//! ```no_run
//! use gpu_noise::export::{ExportOptions, Format, write_image};
//! # fn main() -> gpu_noise::Result<()> {
//! let spec = gpu_noise::NoiseSpec::new(gpu_noise::Kind::Perlin, 2);
//! let image = gpu_noise::cpu::render_f32(&spec.validate()?)?;
//! let options = ExportOptions::for_spec(&spec);
//! write_image("noise.png".as_ref(), &image, spec.size, Format::Png, &options)?;
//! # Ok(()) }
//! ```

pub(crate) mod atomic;
pub(crate) mod derivatives;
mod exr;
mod png;
pub(crate) mod profile;
pub(crate) mod raw;
pub(crate) mod slices;
mod threaded;
mod tiff;
pub(crate) mod whole;

use std::path::Path;

pub(crate) use atomic::OutputFile;
pub use derivatives::{create_gradient_writer, create_normal_writer};
use slices::is_slice_pattern;

use crate::colormap::Colormap;
use crate::error::{Error, Result};
use crate::spec::{NoiseSpec, Size};

/// Output format, picked by the file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PNG: 8 or 16-bit gray, 8-bit RGB through a colormap, or a plotted 1D profile.
    Png,
    /// OpenEXR, one f32 channel `Y`, ZIP-compressed.
    Exr,
    /// TIFF, one f32 channel (BigTIFF past 3 GiB).
    Tiff,
    /// Raw little-endian f32, no header.
    F32,
    /// NumPy `.npy` (format 1.0), `<f4`, shape (H, W) or (D, H, W).
    Npy,
    /// 1D profiles: `x,value` lines.
    Csv,
}

impl Format {
    /// The format of a path's extension.
    pub fn from_path(path: &Path) -> Result<Self> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png") => Ok(Format::Png),
            Some("exr") => Ok(Format::Exr),
            Some("tif" | "tiff") => Ok(Format::Tiff),
            Some("f32") => Ok(Format::F32),
            Some("npy") => Ok(Format::Npy),
            Some("csv") => Ok(Format::Csv),
            _ => Err(Error::output(
                "output",
                format!(
                    "{}: the extension must be .png, .exr, .tif, .f32, .npy or .csv",
                    path.display()
                ),
            )),
        }
    }

    /// The usual extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Exr => "exr",
            Format::Tiff => "tif",
            Format::F32 => "f32",
            Format::Npy => "npy",
            Format::Csv => "csv",
        }
    }

    /// Whether the format stores levels (a range, bit depth and colormap apply) rather than raw
    /// values.
    pub fn is_levels(self) -> bool {
        self == Format::Png
    }

    /// Whether the format can hold a volume (depth > 1) in one file.
    pub fn holds_volumes(self) -> bool {
        matches!(self, Format::F32 | Format::Npy)
    }

    /// The file's size when it is known in advance (raw and uncompressed formats).
    pub fn exact_bytes(self, size: Size) -> Option<u64> {
        let data = size.texels() * 4;
        match self {
            Format::F32 => Some(data),
            Format::Npy => Some(data + 128),
            Format::Tiff => Some(data + data / 2048 + 4096),
            _ => None,
        }
    }
}

/// A 1D profile's horizontal axis: sample i sits at `frequency * (offset + i)` lattice cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Lattice cells per texel.
    pub frequency: f64,
    /// Offset in texels.
    pub offset: f64,
    /// The plot's caption.
    pub title: String,
}

impl Profile {
    /// The coordinate of sample `i`, computed as the CPU twin computes texel points.
    pub fn x(&self, i: u64) -> f64 {
        self.frequency * (self.offset + i as f64)
    }
}

/// How values become file contents.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportOptions {
    /// PNG bit depth: 8 or 16 (gray); colormapped PNG is 8-bit RGB.
    pub bits: u8,
    /// Values `lo..hi` map to black..white (or the colormap's ends).
    pub range: (f64, f64),
    /// RGB through this colormap instead of gray.
    pub colormap: Option<Colormap>,
    /// For 1D noise: a PNG is a plotted profile and a CSV gets x coordinates.
    pub profile: Option<Profile>,
}

impl ExportOptions {
    /// 8-bit gray over the spec's nominal range; a profile for 1D noise.
    pub fn for_spec(spec: &NoiseSpec) -> Self {
        let profile = (spec.dims == 1).then(|| Profile {
            frequency: spec.frequency,
            offset: spec.offset[0],
            title: format!(
                "{} 1D, {}{}, seed {}",
                spec.kind,
                spec.fractal,
                if spec.octaves > 1 {
                    format!(" x {} octaves", spec.octaves)
                } else {
                    String::new()
                },
                spec.seed
            ),
        });
        Self {
            bits: 8,
            range: spec.fractal.nominal_range(),
            colormap: None,
            profile,
        }
    }

    /// Checks the options against a format: bit depth and range where levels are stored.
    pub fn check(&self, format: Format) -> Result<()> {
        if !format.is_levels() {
            return Ok(());
        }
        if self.bits != 8 && self.bits != 16 {
            return Err(Error::output(
                "bits",
                format!("must be 8 or 16, got {}", self.bits),
            ));
        }
        if self.colormap.is_some() && self.bits != 8 {
            return Err(Error::output(
                "bits",
                "a colormap writes 8-bit RGB; drop bits 16",
            ));
        }
        let (lo, hi) = self.range;
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(Error::output(
                "range",
                format!("needs finite lo < hi, got {lo},{hi}"),
            ));
        }
        Ok(())
    }
}

/// An encoder streaming an image to its file.
pub trait ImageWriter: Send {
    /// Writes the next whole rows, memory order (x fastest); any number of rows per call.
    fn write_rows(&mut self, values: &[f32]) -> Result<()>;
    /// Completes the file and renames it onto the target.
    fn finish(self: Box<Self>) -> Result<()>;
}

/// Checks that the folder of `path` has room for `bytes` (for formats whose size is known in
/// advance), so a full disk is found before the work rather than after.
pub fn check_space(path: &Path, bytes: u64) -> Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let free = fs4::available_space(folder).map_err(|e| Error::io(folder, e))?;
    if bytes > free {
        return Err(Error::output(
            "output",
            format!(
                "{} needs {} and {} has {} free",
                path.display(),
                human_bytes(bytes),
                folder.display(),
                human_bytes(free)
            ),
        ));
    }
    Ok(())
}

/// `bytes` in the largest binary unit that keeps it at or above 1 (`812 B`, `3.50 KiB`,
/// `1.25 TiB`), so small sizes do not read as 0.00 GiB.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut size = bytes as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < UNITS.len() {
        size /= 1024.0;
        unit += 1;
    }
    format!("{size:.2} {}", UNITS[unit])
}

/// Opens the writer for `path` (its format from the extension, or PNG slices for a `{k}`
/// pattern) for an image of `size`. Everything is checked and the file (or first slice) is
/// created before returning, so bad input fails before any rendering.
pub fn create_writer(
    path: &Path,
    size: Size,
    options: &ExportOptions,
) -> Result<Box<dyn ImageWriter>> {
    let format = Format::from_path(path)?;
    options.check(format)?;
    if is_slice_pattern(path) {
        if format != Format::Png {
            return Err(Error::output(
                "output",
                "slice sequences ({k}) are written as .png",
            ));
        }
        return Ok(Box::new(slices::SliceWriter::new(path, size, options)?));
    }
    if size.depth > 1 && !format.holds_volumes() {
        return Err(Error::output(
            "output",
            format!(
                "a volume (depth > 1) cannot be one {} file; use .npy or .f32, or PNG slices \
                 such as slice_{{k}}.png",
                format.extension()
            ),
        ));
    }
    if let Some(bytes) = format.exact_bytes(size) {
        check_space(path, bytes)?;
    }
    let file = OutputFile::create(path)?;
    Ok(match (format, &options.profile) {
        (Format::Png, Some(profile)) => Box::new(profile::PlotWriter::new(
            file,
            profile.clone(),
            size.texels(),
        )),
        (Format::Png, None) => Box::new(png::PngWriter::new(file, size, options)?),
        (Format::Csv, Some(profile)) => Box::new(profile::CsvWriter::new(file, profile.clone())?),
        (Format::Csv, None) => {
            return Err(Error::output(
                "output",
                ".csv is for 1D noise (x,value); use 1 dim",
            ));
        }
        (Format::Exr, _) => Box::new(exr::writer(file, size)?),
        (Format::Tiff, _) => Box::new(tiff::writer(file, size)?),
        (Format::F32, _) => Box::new(raw::RawWriter::new(file, None)?),
        (Format::Npy, _) => Box::new(raw::RawWriter::new(file, Some(size))?),
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
    if Format::from_path(path)? != format {
        return Err(Error::output(
            "output",
            format!("{} does not end in .{}", path.display(), format.extension()),
        ));
    }
    let mut writer = create_writer(path, size, options)?;
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

#[cfg(test)]
mod tests {
    /// Issue 13, point 11: a small shortfall read "needs 0.00 GiB and has 0.00 GiB free".
    #[test]
    fn byte_counts_read_in_a_unit_that_shows_them() {
        assert_eq!(super::human_bytes(0), "0 B");
        assert_eq!(super::human_bytes(1023), "1023 B");
        assert_eq!(super::human_bytes(1536), "1.50 KiB");
        assert_eq!(super::human_bytes(3 << 30), "3.00 GiB");
        assert_eq!(super::human_bytes(5 << 40), "5.00 TiB");
    }
}
