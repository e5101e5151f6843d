//! Writing images: PNG 8/16-bit grayscale, raw little-endian `.f32`, and `.npy` (REFERENCE §6).
//! Every write goes to a temporary file beside the target and is renamed into place, so a
//! failure never leaves a partial file behind.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::spec::Size;

/// Output format, picked by the file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Png { bits: u8 },
    F32,
    Npy,
}

impl Format {
    /// `.png` (8-bit, or 16 with `bits = 16`), `.f32` or `.npy`.
    pub fn from_path(path: &Path, bits: u8) -> Result<Self> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let format = match ext.as_deref() {
            Some("png") => Format::Png { bits },
            Some("f32") => Format::F32,
            Some("npy") => Format::Npy,
            _ => {
                return Err(Error::invalid(
                    "-o",
                    format!(
                        "{}: the extension must be .png, .f32 or .npy",
                        path.display()
                    ),
                ));
            }
        };
        if bits != 8 && bits != 16 {
            return Err(Error::invalid(
                "--bits",
                format!("must be 8 or 16, got {bits}"),
            ));
        }
        if bits == 16 && format != (Format::Png { bits: 16 }) {
            return Err(Error::invalid("--bits", "applies to .png output only"));
        }
        Ok(format)
    }

    /// Rejects combinations a format cannot hold, before any rendering work.
    pub fn check_size(self, size: Size) -> Result<()> {
        if matches!(self, Format::Png { .. }) && size.depth > 1 {
            return Err(Error::invalid(
                "-o",
                "a volume (WxHxD) can be written as .f32 or .npy, not .png",
            ));
        }
        Ok(())
    }
}

/// Checks a PNG mapping range: finite and lo < hi.
pub fn check_range(range: (f64, f64)) -> Result<()> {
    let (lo, hi) = range;
    if lo.is_finite() && hi.is_finite() && lo < hi {
        Ok(())
    } else {
        Err(Error::invalid(
            "--range",
            format!("needs finite lo < hi, got {lo},{hi}"),
        ))
    }
}

/// `round(clamp((v - lo) / (hi - lo), 0, 1) * max)` (REFERENCE §6).
pub fn png_level(v: f32, range: (f64, f64), max: u16) -> u16 {
    let (lo, hi) = range;
    let t = ((f64::from(v) - lo) / (hi - lo)).clamp(0.0, 1.0);
    (t * f64::from(max)).round() as u16
}

/// The `.npy` (format 1.0) header for little-endian f32 data of `shape`, padded to 64 bytes.
pub fn npy_header(shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape_text = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape_text}, }}");
    let unpadded = 10 + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut header = b"\x93NUMPY\x01\x00".to_vec();
    header.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    header.extend_from_slice(dict.as_bytes());
    header
}

/// The encoded file contents of `data` (x fastest, then y, then z).
pub fn encode(data: &[f32], size: Size, format: Format, range: (f64, f64)) -> Result<Vec<u8>> {
    let raw = || {
        data.iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    Ok(match format {
        Format::F32 => raw(),
        Format::Npy => {
            let shape: Vec<usize> = if size.depth > 1 {
                vec![
                    size.depth as usize,
                    size.height as usize,
                    size.width as usize,
                ]
            } else {
                vec![size.height as usize, size.width as usize]
            };
            let mut bytes = npy_header(&shape);
            bytes.extend(raw());
            bytes
        }
        Format::Png { bits } => {
            format.check_size(size)?;
            let mut bytes = Vec::new();
            let encoder = image::codecs::png::PngEncoder::new(&mut bytes);
            use image::ImageEncoder;
            let result = if bits == 16 {
                // PngEncoder takes native-endian samples and writes PNG's big-endian itself.
                let px: Vec<u8> = data
                    .iter()
                    .flat_map(|&v| png_level(v, range, u16::MAX).to_ne_bytes())
                    .collect();
                encoder.write_image(&px, size.width, size.height, image::ExtendedColorType::L16)
            } else {
                let px: Vec<u8> = data
                    .iter()
                    .map(|&v| png_level(v, range, 255) as u8)
                    .collect();
                encoder.write_image(&px, size.width, size.height, image::ExtendedColorType::L8)
            };
            result.map_err(|e| Error::Io {
                path: "PNG encoder".into(),
                reason: e.to_string(),
            })?;
            bytes
        }
    })
}

/// Writes `bytes` to `path` through a temporary file in the same folder, renamed into place.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temp_path(path);
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(path, e));
    }
    Ok(())
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Encodes and writes an image; nothing is left at `path` if anything fails.
pub fn write_image(
    path: &Path,
    data: &[f32],
    size: Size,
    format: Format,
    range: (f64, f64),
) -> Result<()> {
    let bytes = encode(data, size, format, range)?;
    write_atomically(path, &bytes)
}
