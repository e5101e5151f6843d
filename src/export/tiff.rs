//! TIFF, one channel of 32-bit float (a heightmap as GIS and terrain tools read it), written
//! strip by strip; BigTIFF when the data passes 4 GiB.

use tiff::encoder::{TiffEncoder, TiffKind, colortype::Gray32Float};

use super::atomic::{OutputFile, Sink};
use super::threaded::{Rows, ThreadedWriter};
use crate::error::{Error, Result};
use crate::spec::Size;

/// Rows per strip: strips of a few hundred KiB keep readers' random access cheap.
const STRIP_ROWS: u32 = 64;
/// Classic TIFF's offsets are 32-bit: larger data needs BigTIFF.
const CLASSIC_LIMIT: u64 = 3 << 30;

fn encode_error(e: impl std::fmt::Display) -> Error {
    Error::Encode {
        format: "TIFF",
        reason: e.to_string(),
    }
}

pub(super) fn writer(file: OutputFile, size: Size) -> Result<ThreadedWriter> {
    ThreadedWriter::start(file, "TIFF", move |sink, rows| {
        if size.texels() * 4 > CLASSIC_LIMIT {
            encode(
                TiffEncoder::new_big(sink).map_err(encode_error)?,
                rows,
                size,
            )
        } else {
            encode(TiffEncoder::new(sink).map_err(encode_error)?, rows, size)
        }
    })
}

fn encode<K: TiffKind>(mut encoder: TiffEncoder<Sink, K>, rows: Rows, size: Size) -> Result<()> {
    let mut image = encoder
        .new_image::<Gray32Float>(size.width, size.height)
        .map_err(encode_error)?;
    image.rows_per_strip(STRIP_ROWS).map_err(encode_error)?;
    let mut pending: Vec<f32> = Vec::new();
    for band in rows {
        pending.extend_from_slice(&band);
        loop {
            let strip = image.next_strip_sample_count() as usize;
            if strip == 0 || pending.len() < strip {
                break;
            }
            image.write_strip(&pending[..strip]).map_err(encode_error)?;
            pending.drain(..strip);
        }
    }
    if image.next_strip_sample_count() != 0 {
        return Err(encode_error("the rows ended before the image was complete"));
    }
    image.finish().map_err(encode_error)
}
