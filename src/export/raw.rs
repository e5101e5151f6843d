//! Raw little-endian `.f32` and NumPy `.npy` (format 1.0, `<f4`), streamed.

use std::io::Write;

use super::atomic::{OutputFile, Sink};
use super::{ImageWriter, check_finite};
use crate::error::{Error, Result};
use crate::spec::Size;

/// Rows to bytes in chunks of this many values on a big-endian host, so no band is copied whole.
const CHUNK: usize = 1 << 16;

pub(super) struct RawWriter {
    file: OutputFile,
    sink: Sink,
}

impl RawWriter {
    /// `.f32` without a header, or `.npy` with the header for `npy_shape`.
    pub fn new(file: OutputFile, npy_shape: Option<Size>) -> Result<Self> {
        let mut writer = Self {
            sink: file.sink()?,
            file,
        };
        if let Some(size) = npy_shape {
            let shape: Vec<usize> = if size.depth > 1 {
                vec![
                    size.depth as usize,
                    size.height as usize,
                    size.width as usize,
                ]
            } else {
                vec![size.height as usize, size.width as usize]
            };
            writer.write(&npy_header(&shape))?;
        }
        Ok(writer)
    }

    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        let target = self.file.target();
        self.sink.write_all(bytes).map_err(|e| Error::io(target, e))
    }
}

impl ImageWriter for RawWriter {
    fn write_rows(&mut self, values: &[f32]) -> Result<()> {
        check_finite(values)?;
        if cfg!(target_endian = "little") {
            // The values' memory is their little-endian bytes: written as they lie (the byte
            // by byte copy below took 5% of a one-thread `.f32` render on x86).
            return self.write(bytemuck::cast_slice(values));
        }
        let mut bytes = Vec::with_capacity(CHUNK * 4);
        for chunk in values.chunks(CHUNK) {
            bytes.clear();
            bytes.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
            self.write(&bytes)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let RawWriter { file, sink } = *self;
        drop(sink);
        file.commit()
    }
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
