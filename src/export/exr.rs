//! OpenEXR, one 32-bit float channel `Y`, ZIP-compressed scan lines in increasing order. The
//! `exr` crate pulls pixels through a closure in block order; the closure takes them from the
//! bands as they arrive, so no more than a band is held.

use std::sync::Mutex;

use exr::prelude::*;

use super::atomic::OutputFile;
use super::threaded::{Rows, ThreadedWriter};
use crate::error::{Error, Result as CrateResult};
use crate::spec::Size;

fn encode_error(e: impl std::fmt::Display) -> Error {
    Error::Encode {
        format: "OpenEXR",
        reason: e.to_string(),
    }
}

/// The band holding the rows the encoder asks for now.
struct Cursor {
    rows: Rows,
    band: Vec<f32>,
    first_row: usize,
    width: usize,
    failure: Option<&'static str>,
}

impl Cursor {
    fn band_rows(&self) -> usize {
        self.band.len() / self.width
    }

    fn value(&mut self, x: usize, y: usize) -> f32 {
        while y >= self.first_row + self.band_rows() {
            self.first_row += self.band_rows();
            match self.rows.recv() {
                Ok(next) => self.band = next,
                Err(_) => {
                    self.failure
                        .get_or_insert("the rows ended before the image was complete");
                    return 0.0;
                }
            }
        }
        if y < self.first_row {
            self.failure
                .get_or_insert("the encoder asked for rows out of order");
            return 0.0;
        }
        self.band[(y - self.first_row) * self.width + x]
    }
}

pub(super) fn writer(file: OutputFile, size: Size) -> CrateResult<ThreadedWriter> {
    ThreadedWriter::start(file, "OpenEXR", move |sink, rows| {
        let (w, h) = (size.width as usize, size.height as usize);
        let cursor = Mutex::new(Cursor {
            rows,
            band: Vec::new(),
            first_row: 0,
            width: w,
            failure: None,
        });
        let pixels =
            SpecificChannels::build()
                .with_channel("Y")
                .with_pixel_fn(|pos: Vec2<usize>| match cursor.lock() {
                    Ok(mut c) => (c.value(pos.x(), pos.y()),),
                    Err(_) => (0.0f32,),
                });
        let encoding = Encoding {
            compression: Compression::ZIP16,
            blocks: Blocks::ScanLines,
            line_order: LineOrder::Increasing,
        };
        let layer = Layer::new((w, h), LayerAttributes::named("noise"), encoding, pixels);
        Image::from_layer(layer)
            .write()
            .non_parallel()
            .to_buffered(sink)
            .map_err(encode_error)?;
        match cursor.lock().map(|c| c.failure) {
            Ok(None) => Ok(()),
            Ok(Some(why)) => Err(encode_error(why)),
            Err(_) => Err(encode_error("the pixel source panicked")),
        }
    })
}
