//! Derivative outputs (CONVENTIONS §12): `.npy` with a last axis of components (the value, then
//! the partial derivative along each image axis) and tangent-space normal maps as RGB PNG.
//! Both stream rows like every writer here and appear whole or not at all.

use std::io::Write;

use super::atomic::{OutputFile, Sink};
use super::{Format, ImageWriter, check_finite, check_space};
use crate::error::{Error, Result};
use crate::levels::normal_level;
use crate::spec::Size;

/// The image axes of `size` for noise of `dims`: x, then y for 2+ dims, then z for volumes.
pub fn image_axes(size: Size, dims: u32) -> usize {
    1 + usize::from(dims >= 2) + usize::from(size.depth > 1)
}

/// A `.npy` of shape `(.., width, 1 + axes)`: per texel the value, then d/dx (, d/dy, d/dz).
/// `write_rows` takes that many f32 per texel.
pub fn create_gradient_writer(
    path: &std::path::Path,
    size: Size,
    dims: u32,
) -> Result<Box<dyn ImageWriter>> {
    if Format::from_path(path)? != Format::Npy {
        return Err(Error::output(
            "output",
            "gradient outputs are written as .npy (a last axis of components)",
        ));
    }
    let components = 1 + image_axes(size, dims);
    let mut shape = Vec::new();
    if size.depth > 1 {
        shape.push(size.depth as usize);
    }
    if dims >= 2 {
        shape.push(size.height as usize);
    }
    shape.extend([size.width as usize, components]);
    check_space(path, size.texels() * components as u64 * 4 + 128)?;
    let file = OutputFile::create(path)?;
    let mut writer = NpyWriter {
        sink: file.sink()?,
        file,
    };
    writer.write(&super::raw::npy_header(&shape))?;
    Ok(Box::new(writer))
}

struct NpyWriter {
    file: OutputFile,
    sink: Sink,
}

impl NpyWriter {
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        let target = self.file.target();
        self.sink.write_all(bytes).map_err(|e| Error::io(target, e))
    }
}

impl ImageWriter for NpyWriter {
    fn write_rows(&mut self, values: &[f32]) -> Result<()> {
        check_finite(values)?;
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.write(&bytes)
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let NpyWriter { file, sink } = *self;
        drop(sink);
        file.commit()
    }
}

/// An 8-bit RGB PNG normal map of a 2D image; `write_rows` takes 3 f32 per texel, the unit
/// normal's components, stored as `round((n + 1) / 2 * 255)`.
pub fn create_normal_writer(path: &std::path::Path, size: Size) -> Result<Box<dyn ImageWriter>> {
    if Format::from_path(path)? != Format::Png {
        return Err(Error::output(
            "output",
            "normal maps are 2D images written as .png (RGB)",
        ));
    }
    if size.depth > 1 || size.height < 2 {
        return Err(Error::invalid(
            "size",
            format!(
                "a normal map is a 2D image of at least 2 rows; {}x{}x{} is not (a volume has \
                 gradients: --channels gradient to .npy)",
                size.width, size.height, size.depth
            ),
        ));
    }
    let file = OutputFile::create(path)?;
    let mut encoder = png::Encoder::new(file.sink()?, size.width, size.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let stream = encoder
        .write_header()
        .and_then(|w| w.into_stream_writer())
        .map_err(encode_error)?;
    Ok(Box::new(NormalPngWriter {
        file,
        stream: Some(stream),
    }))
}

fn encode_error(e: impl std::fmt::Display) -> Error {
    Error::Encode {
        format: "PNG",
        reason: e.to_string(),
    }
}

struct NormalPngWriter {
    file: OutputFile,
    stream: Option<png::StreamWriter<'static, Sink>>,
}

impl ImageWriter for NormalPngWriter {
    fn write_rows(&mut self, values: &[f32]) -> Result<()> {
        check_finite(values)?;
        let bytes: Vec<u8> = values.iter().map(|&c| normal_level(c)).collect();
        let target = self.file.target().to_path_buf();
        let stream = self
            .stream
            .as_mut()
            .ok_or_else(|| encode_error("already finished"))?;
        stream.write_all(&bytes).map_err(|e| Error::io(&target, e))
    }

    fn finish(mut self: Box<Self>) -> Result<()> {
        let stream = self
            .stream
            .take()
            .ok_or_else(|| encode_error("already finished"))?;
        stream.finish().map_err(encode_error)?;
        self.file.commit()
    }
}
