//! PNG through the `png` crate's stream writer: 8 or 16-bit gray, or 8-bit RGB through a
//! colormap; rows are encoded as they arrive.

use std::io::Write;

use super::atomic::{OutputFile, Sink};
use super::{ExportOptions, ImageWriter, check_finite};
use crate::colormap::{COLORMAP_LEN, Colormap};
use crate::error::{Error, Result};
use crate::levels::{level8, level16};
use crate::spec::Size;

pub(super) struct PngWriter {
    file: OutputFile,
    stream: Option<png::StreamWriter<'static, Sink>>,
    range: (f64, f64),
    bits: u8,
    /// The map and, for named maps, its table for the range.
    colors: Option<(Colormap, Box<[[u8; 4]; COLORMAP_LEN]>)>,
    bytes: Vec<u8>,
}

fn encode_error(e: impl std::fmt::Display) -> Error {
    Error::Encode {
        format: "PNG",
        reason: e.to_string(),
    }
}

impl PngWriter {
    pub fn new(file: OutputFile, size: Size, options: &ExportOptions) -> Result<Self> {
        let mut encoder = png::Encoder::new(file.sink()?, size.width, size.height);
        let colors = options
            .colormap
            .as_ref()
            .map(|c| (c.clone(), Box::new(c.table(options.range))));
        encoder.set_color(if colors.is_some() {
            png::ColorType::Rgb
        } else {
            png::ColorType::Grayscale
        });
        encoder.set_depth(if options.bits == 16 {
            png::BitDepth::Sixteen
        } else {
            png::BitDepth::Eight
        });
        encoder.set_compression(png::Compression::Fast);
        let stream = encoder
            .write_header()
            .and_then(|w| w.into_stream_writer())
            .map_err(encode_error)?;
        Ok(Self {
            file,
            stream: Some(stream),
            range: options.range,
            bits: options.bits,
            colors,
            bytes: Vec::new(),
        })
    }
}

impl ImageWriter for PngWriter {
    fn write_rows(&mut self, values: &[f32]) -> Result<()> {
        check_finite(values)?;
        self.bytes.clear();
        let range = self.range;
        match (&self.colors, self.bits) {
            (Some((map, table)), _) => self.bytes.extend(
                values
                    .iter()
                    .flat_map(|&v| map.rgb(f64::from(v), table, range)),
            ),
            (None, 16) => self.bytes.extend(
                values
                    .iter()
                    .flat_map(|&v| level16(f64::from(v), range).to_be_bytes()),
            ),
            (None, _) => self
                .bytes
                .extend(values.iter().map(|&v| level8(f64::from(v), range))),
        }
        let stream = self
            .stream
            .as_mut()
            .ok_or_else(|| encode_error("already finished"))?;
        let target = self.file.target().to_path_buf();
        stream
            .write_all(&self.bytes)
            .map_err(|e| Error::io(&target, e))
    }

    fn finish(mut self: Box<Self>) -> Result<()> {
        let stream = self
            .stream
            .take()
            .ok_or_else(|| encode_error("already finished"))?;
        // Finishing validates the data; dropping the stream writes IEND and flushes the sink,
        // whose errors the commit reports.
        stream.finish().map_err(encode_error)?;
        let this = *self;
        this.file.commit()
    }
}
