//! `gpu-noise render`: everything is checked before any work (the output's folder included),
//! the image is rendered in bands and each band is encoded while the next one renders, so
//! memory does not grow with the image; the file appears whole or not at all.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use gpu_noise::export::{Format, create_writer};
use gpu_noise::{Error, Result, Window};

use crate::args::{Channels, RangeArg, RenderArgs};
use crate::backend::Engine;
use crate::stream::{BAND_TEXELS, built_first, export_options, stream};
use crate::world::World;
use gpu_noise::low_level::spec_file::SpecFile;

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
