//! `gpu-noise render`: everything is checked before any work (the output's folder included),
//! the image is rendered in bands and each band is encoded while the next one renders, so
//! memory does not grow with the image; the file appears whole or not at all.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

use gpu_noise::export::{ExportOptions, Format, ImageWriter, create_writer};
use gpu_noise::{Error, Job, NoiseSpec, Result, Window};
use indicatif::ProgressBar;

use crate::args::{Channels, RangeArg, RenderArgs};
use crate::backend::Engine;
use crate::world::World;
use gpu_noise::low_level::spec_file::SpecFile;

/// Texels per band: 16 MiB of f32, a few bands in flight at once.
pub const BAND_TEXELS: u64 = 1 << 22;

pub fn run(mut args: RenderArgs) -> Result<ExitCode> {
    let mut layer = crate::spec_layers(&args.noise)?.overlay(SpecFile {
        channels: args.channels,
        normal_strength: args.normal_strength,
        bits: args.bits,
        range: args.range.and_then(RangeArg::values),
        colormap: args.colormap.clone(),
        backend: args.backend,
        output: args.output.as_ref().map(|p| p.display().to_string()),
        tiles: args.tiles,
        tile_range: args
            .tile_range
            .as_ref()
            .map(|[x, y]| format!("{}..{},{}..{}", x.start, x.end, y.start, y.end)),
        tile_format: args.tile_format.clone(),
        ..SpecFile::default()
    });
    take_tile_settings(&mut args, &layer)?;
    let graph = crate::graph::load(args.graph.as_deref(), &layer)?;
    let mut world = World::of(&layer, graph)?;
    // `--range auto`: one pass for the extremes first, so that --print-spec holds them.
    let mut engine = None;
    if args.range == Some(RangeArg::Auto) {
        let (range, opened) = auto_range(&args, &layer, &world)?;
        layer.range = Some(range);
        world.effective.range = Some(range);
        engine = Some(opened);
    }
    if args.print_spec {
        outln!("{}", world.effective.to_json())?;
    }
    // `-o` as given, bytes and all (a Latin-1 name is no UTF-8: the spec's text form of it is
    // lossy, and two such names would collapse into one file); else the spec file's.
    let output = (args.output.clone()).or_else(|| layer.output.as_ref().map(PathBuf::from));
    let Some(output) = output else {
        if args.print_spec {
            return Ok(ExitCode::SUCCESS);
        }
        return Err(Error::InvalidSpec {
            field: "output",
            reason: "give an output file (.png, .exr, .tif, .f32, .npy, .csv), a Zarr store \
                     (.zarr), or --print-spec"
                .into(),
        });
    };
    let channels = layer.check_channels()?;
    if channels != Channels::Value {
        return crate::derivatives::run(&args, &layer, &world, &output, channels);
    }
    if crate::zarr::is_zarr(&output) {
        if args.tile_format.is_some() {
            return Err(Error::InvalidSpec {
                field: "tile_format",
                reason: "applies to tile sets; a Zarr store's chunks are float32".into(),
            });
        }
        return crate::zarr::run(&args, &layer, &world, &output);
    }
    if let Some(tile) = args.tiles {
        return crate::tiles::run(&args, &layer, &world, tile, &output);
    }
    refuse_tile_flags_without_tiles(&args)?;
    let spec = &world.spec;
    let format = Format::from_path(&output)?;
    let options = export_options(&layer, spec, format)?;
    let writer = create_writer(&output, spec.size, &options)?;
    let mut engine = match engine {
        Some(engine) => engine,
        None => Engine::open(layer.backend.unwrap_or_default(), &world.job)?,
    };
    let built = engine.prepare(&world.job)?;
    let start = Instant::now();
    let texels = spec.size.texels();
    let samples = texels * world.samples_per_texel();
    let bar = crate::progress::texel_bar(texels, samples, args.quiet, "rendering");
    stream(
        &mut engine,
        &world.job,
        Window::full(spec.size),
        writer,
        &bar,
    )?;
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    let s = spec.size;
    status!(
        "gpu-noise: wrote {} ({}x{}{}, {}, {:.1} Mtexels/s) in {} on {}{}",
        output.display(),
        s.width,
        s.height,
        if s.depth > 1 {
            format!("x{}", s.depth)
        } else {
            String::new()
        },
        world.describe(),
        texels as f64 / elapsed.as_secs_f64() / 1e6,
        crate::seconds(elapsed),
        engine.name(),
        built_first(built)
    );
    Ok(ExitCode::SUCCESS)
}

/// A spec file's tile settings (what `--print-spec` of a tile-set run records) as if given as
/// flags; flags win.
fn take_tile_settings(args: &mut RenderArgs, layer: &SpecFile) -> Result<()> {
    args.tiles = layer.tiles;
    args.tile_format.clone_from(&layer.tile_format);
    args.tile_range =
        match &layer.tile_range {
            Some(text) => Some(crate::args::parse_tile_range(text).map_err(|reason| {
                Error::InvalidOutput {
                    field: "tile_range",
                    reason,
                }
            })?),
            None => None,
        };
    if args.tiles == Some(0) {
        return Err(Error::InvalidOutput {
            field: "tiles",
            reason: "the tile side must be at least 1 texel".into(),
        });
    }
    Ok(())
}

fn refuse_tile_flags_without_tiles(args: &RenderArgs) -> Result<()> {
    for (field, given) in [
        ("tile_range", args.tile_range.is_some()),
        ("tile_format", args.tile_format.is_some()),
    ] {
        if given {
            return Err(Error::InvalidOutput {
                field,
                reason: "applies to tile sets only (with --tiles N)".into(),
            });
        }
    }
    Ok(())
}

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
            return stream_bands(window, writer, bar, |band| engine.render_band(job, band));
        }
    }
    writer.finish()
}

/// Renders `window` band by band on this machine's cores into `writer`, encoding each band on
/// another thread while the next one renders.
pub fn stream_bands(
    window: Window,
    mut writer: Box<dyn ImageWriter>,
    bar: &ProgressBar,
    mut render_band: impl FnMut(Window) -> Result<Vec<f32>>,
) -> Result<()> {
    // One band (a small image, a tile): no encoder thread to overlap with, so none is
    // started (a tile set of thousands of small tiles would start thousands).
    if window.texels() <= BAND_TEXELS {
        let values = render_band(window)?;
        writer.write_rows(&values)?;
        bar.inc(values.len() as u64);
        return writer.finish();
    }
    let (send, receive) = mpsc::sync_channel::<Vec<f32>>(1);
    let (rendered, joined) = std::thread::scope(|scope| {
        let handle = scope.spawn(move || -> Result<Box<dyn ImageWriter>> {
            for values in receive {
                writer.write_rows(&values)?;
                bar.inc(values.len() as u64);
            }
            Ok(writer)
        });
        let mut rendered = Ok(());
        for band in window.bands(BAND_TEXELS) {
            let values = match render_band(band) {
                Ok(v) => v,
                Err(e) => {
                    rendered = Err(e);
                    break;
                }
            };
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

/// `--range auto`: the least and greatest value of the image (one pass in bands, nothing
/// kept), for a single image's levels; and the engine that found them, to render with.
fn auto_range(args: &RenderArgs, layer: &SpecFile, world: &World) -> Result<([f64; 2], Engine)> {
    let refuse = |reason: &str| Error::InvalidSpec {
        field: "range",
        reason: reason.into(),
    };
    if args.tiles.is_some() {
        return Err(refuse(
            "auto is for one image: a tile set's tiles must share their levels (give lo,hi)",
        ));
    }
    if layer.check_channels()? != Channels::Value {
        return Err(refuse(
            "auto sets the levels of values, not of gradients or normals",
        ));
    }
    let mut engine = Engine::open(layer.backend.unwrap_or_default(), &world.job)?;
    let size = world.spec.size;
    let bar = crate::progress::texel_bar(size.texels(), size.texels(), args.quiet, "levels");
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for band in Window::full(size).bands(BAND_TEXELS) {
        for v in engine.render_band(&world.job, band)? {
            lo = lo.min(f64::from(v));
            hi = hi.max(f64::from(v));
        }
        bar.inc(band.texels());
    }
    bar.finish_and_clear();
    if lo >= hi || lo.is_nan() {
        return Err(refuse(&format!(
            "auto found one value ({lo}) over the whole image: give lo,hi"
        )));
    }
    Ok(([lo, hi], engine))
}
