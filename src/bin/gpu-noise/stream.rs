//! A window of a world through an exporter, band by band, for `render`, tile sets and Zarr
//! stores alike: the export options a spec file's level flags give, the bands streamed into
//! a writer (each encoded while the next renders), and the summary's note on compiled
//! pipelines.

use std::sync::mpsc;

use gpu_noise::export::{ExportOptions, Format, ImageWriter};
use gpu_noise::low_level::spec_file::SpecFile;
use gpu_noise::{Error, Job, NoiseSpec, Result, Window};
use indicatif::ProgressBar;

use crate::backend::Engine;

/// Texels per band: 16 MiB of f32, a few bands in flight at once.
pub const BAND_TEXELS: u64 = 1 << 22;

/// Bits, range and colormap for formats that store levels; an error if any is given for a
/// format that stores raw values (they would be silently ignored).
pub fn export_options(layer: &SpecFile, spec: &NoiseSpec, format: Format) -> Result<ExportOptions> {
    let mut options = ExportOptions::for_spec(spec);
    // A 1D PNG is a plotted profile: it has no levels, so level flags would be ignored.
    let plotted = options.profile.is_some() && format == Format::Png;
    if !format.is_levels() || plotted {
        let why = if plotted {
            "does not apply to a 1D .png, which is a plotted profile of the values".to_string()
        } else {
            format!("applies to .png output only; {format:?} stores raw f32 values")
        };
        for (field, given) in [
            ("bits", layer.bits.is_some()),
            ("range", layer.range.is_some()),
            ("colormap", layer.colormap.is_some()),
        ] {
            if given {
                return Err(Error::InvalidSpec { field, reason: why });
            }
        }
        if plotted {
            options.check(format)?;
        }
        return Ok(options);
    }
    options.bits = layer.bits.unwrap_or(8);
    (options.range, options.colormap) = layer.levels(spec)?;
    options.check(format)?;
    Ok(options)
}

/// Renders `window` of `job` band by band into `writer`, encoding each band while the next
/// renders (on the GPU, two bands in flight).
pub fn stream(
    engine: &mut Engine,
    job: &Job,
    window: Window,
    mut writer: Box<dyn ImageWriter>,
    bar: &ProgressBar,
) -> Result<()> {
    match engine {
        Engine::Gpu(renderer) => {
            renderer.for_each_band(job, window, BAND_TEXELS, &mut |band, values| {
                writer.write_rows(&values)?;
                bar.inc(band.texels());
                Ok(())
            })?;
        }
        Engine::Cpu | Engine::Simd => {
            return stream_bands(window, writer, bar, |band, out| {
                engine.render_band_into(job, band, out)
            });
        }
    }
    writer.finish()
}

/// Renders `window` band by band on this machine's cores into `writer`, encoding each band on
/// another thread while the next one renders; `render_band` fills the buffer it is given
/// (the writer hands each written band's buffer back, so a few are reused throughout).
pub fn stream_bands(
    window: Window,
    mut writer: Box<dyn ImageWriter>,
    bar: &ProgressBar,
    mut render_band: impl FnMut(Window, &mut Vec<f32>) -> Result<()>,
) -> Result<()> {
    // One band (a small image, a tile): no encoder thread to overlap with, so none is
    // started (a tile set of thousands of small tiles would start thousands).
    if window.texels() <= BAND_TEXELS {
        let mut values = Vec::new();
        render_band(window, &mut values)?;
        writer.write_rows(&values)?;
        bar.inc(values.len() as u64);
        return writer.finish();
    }
    let (send, receive) = mpsc::sync_channel::<Vec<f32>>(1);
    let (give_back, written) = mpsc::channel::<Vec<f32>>();
    let (rendered, joined) = std::thread::scope(|scope| {
        let handle = scope.spawn(move || -> Result<Box<dyn ImageWriter>> {
            for values in receive {
                writer.write_rows(&values)?;
                bar.inc(values.len() as u64);
                // The renderer may have stopped; then the buffer is simply dropped.
                let _ = give_back.send(values);
            }
            Ok(writer)
        });
        let mut rendered = Ok(());
        for band in window.bands(BAND_TEXELS) {
            let mut values = written.try_recv().unwrap_or_default();
            if let Err(e) = render_band(band, &mut values) {
                rendered = Err(e);
                break;
            }
            // A closed channel means the writer failed; its error is reported below.
            if send.send(values).is_err() {
                break;
            }
        }
        drop(send);
        (rendered, handle.join())
    });
    rendered?;
    let writer = joined.map_err(|_| Error::Encode {
        format: "image",
        reason: "the writer thread panicked".into(),
    })??;
    writer.finish()
}

/// The summary's note on pipelines compiled before the timed render, if any were.
pub fn built_first(built: Option<std::time::Duration>) -> String {
    built.map_or(String::new(), |d| {
        format!(", its GPU pipelines built first in {}", crate::seconds(d))
    })
}
