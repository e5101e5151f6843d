//! `render -o world.zarr`: the world as a Zarr v3 store (through the `zarrs` crate), the
//! analysts' and the clusters' format: a group whose one array, [`ARRAY`], is float32 of shape
//! (height, width) or (depth, height, width) with dimension names `y, x` (`z, y, x`), square
//! chunks of `--tiles N` texels (default [`DEFAULT_CHUNK`]; cubes for volumes), gzip, NaN where
//! nothing is rendered yet, and the spec that renders it in the group's and the array's
//! attributes (`gpu_noise`). xarray opens it as it is (`xr.open_zarr`: a dataset with one
//! variable), zarr-python and Dask read the array (`zarr.open_group(store)["noise"]`,
//! `da.from_zarr(store, component="noise")`).
//!
//! Each chunk is a window of the world, encoded whole and written under a temporary name, then
//! renamed into place, independently of every other: processes filling disjoint
//! `--tile-range`s of one store need no coordination, and a later run renders only the chunks
//! in its range that are missing or do not decode. Chunks are walked one at a time, never
//! listed, so a planet of 2^32 chunks starts at once. The metadata is written once, by the
//! first run (exclusively); a run into a store of another world is refused.

mod chunks;
mod store;

use std::path::Path;
use std::process::ExitCode;

use gpu_noise::low_level::spec_file::SpecFile;
use gpu_noise::{Error, Result};

use crate::args::RenderArgs;
use crate::backend::Engine;
use crate::tiles::{check_range, engine_for};
use crate::world::World;
use chunks::Chunks;

/// Chunk side without `--tiles`: 4 MiB of float32 a chunk.
pub const DEFAULT_CHUNK: u32 = 1024;
/// A volume's chunk side without `--tiles`: 8 MiB of float32 a cube.
pub const DEFAULT_VOLUME_CHUNK: u32 = 128;
/// The array's name in the store's group (xarray's variable).
pub const ARRAY: &str = "noise";

/// Whether `path` names a Zarr store (`.zarr`, a folder).
pub fn is_zarr(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zarr"))
}

pub fn run(args: &RenderArgs, layer: &SpecFile, world: &World, store: &Path) -> Result<ExitCode> {
    check_fields(layer, world)?;
    check_path(store)?;
    let side = args.tiles.unwrap_or(if world.spec.size.depth > 1 {
        DEFAULT_VOLUME_CHUNK
    } else {
        DEFAULT_CHUNK
    });
    // Everything refusable is refused before the store is touched.
    let chunks = Chunks::new(side, world.spec.size)?;
    let [xs, ys] = check_range(args.tile_range.clone(), &chunks.grid)?;
    let array = store::claim(store, world, &chunks)?;
    let texels = chunks.texels_in_range(&xs, &ys);
    let bar = crate::progress::texel_bar(
        texels,
        texels * world.samples_per_texel(),
        args.quiet,
        "chunks",
    );
    let start = std::time::Instant::now();
    let (mut engine, mut built): (Option<Engine>, _) = (None, None);
    let (mut batch, mut kept) = (Batch::default(), 0u64);
    for c in chunks.in_range(xs.clone(), ys) {
        if c[0] == xs.start {
            store::remove_stale_temporaries(&array.folder().join(chunks.row_folder(c[1], c[2])));
        }
        let window = chunks.window(c);
        if array.has_chunk(&chunks.key(c)) {
            kept += 1;
            bar.inc(window.texels());
            continue;
        }
        // Opened at the first chunk to render: none when every one is complete.
        let engine = match &mut engine {
            Some(opened) => opened,
            slot => {
                let (opened, took) = engine_for(&[(c[0], c[1])], layer, world)?;
                built = took;
                slot.insert(opened)
            }
        };
        let values = engine.render_band(&world.job, window)?;
        batch.push(
            chunks.key(c),
            chunks.padded(&values, window),
            window.texels(),
        );
        if batch.full() {
            batch.write(&array, &bar)?;
        }
    }
    batch.write(&array, &bar)?;
    bar.finish_and_clear();
    let written = batch.written;
    status!(
        "gpu-noise: wrote {written} chunks and kept {kept} already complete, of {} ({side} \
         texels a side) in {} in {} on {}{}",
        chunks.count(),
        store.display(),
        crate::seconds(start.elapsed()),
        engine
            .as_ref()
            .map_or_else(|| "no engine".into(), Engine::name),
        crate::stream::built_first(built)
    );
    Ok(ExitCode::SUCCESS)
}

/// Rendered chunks waiting to be encoded and written: encoded in parallel, one a core, where
/// one at a time left every core but one idle while a chunk was compressed. A batch holds up
/// to one chunk a thread and at most [`BATCH_BYTES`] (a chunk may be up to 256 MiB).
#[derive(Default)]
struct Batch {
    /// Each chunk's key, values and texels in the image.
    chunks: Vec<(Vec<u64>, Vec<f32>, u64)>,
    bytes: usize,
    /// Chunks written so far.
    written: u64,
}

/// The most a batch holds, unless one chunk is larger.
const BATCH_BYTES: usize = 256 << 20;

impl Batch {
    fn push(&mut self, key: Vec<u64>, values: Vec<f32>, texels: u64) {
        self.bytes += values.len() * size_of::<f32>();
        self.chunks.push((key, values, texels));
    }

    /// Whether one more chunk would pass a thread each or [`BATCH_BYTES`].
    fn full(&self) -> bool {
        let per_chunk = self.bytes / self.chunks.len().max(1);
        self.chunks.len() >= rayon::current_num_threads() || self.bytes + per_chunk > BATCH_BYTES
    }

    /// Encodes and writes the batch's chunks in parallel, then empties it.
    fn write(&mut self, array: &store::StoreArray, bar: &indicatif::ProgressBar) -> Result<()> {
        use rayon::prelude::*;
        (self.chunks.par_iter()).try_for_each(|(key, values, _)| array.store_chunk(key, values))?;
        for (_, _, texels) in self.chunks.drain(..) {
            bar.inc(texels);
            self.written += 1;
        }
        self.bytes = 0;
        Ok(())
    }
}

/// zarrs opens a store by a text path; a lossy one would be another folder.
fn check_path(store: &Path) -> Result<()> {
    if store.to_str().is_some() {
        return Ok(());
    }
    Err(zarr_error(
        "output",
        format!(
            "{}: a Zarr store's path must be UTF-8 text (the zarrs crate takes no other); other \
             outputs take any name",
            store.display()
        ),
    ))
}

/// What a Zarr store cannot hold: 1D specs, and the image flags (a store keeps float32
/// values, as `.f32` does, so `--bits`, `--range` and `--colormap` would be recorded and
/// ignored).
fn check_fields(layer: &SpecFile, world: &World) -> Result<()> {
    if world.spec.dims == 1 {
        return Err(zarr_error(
            "output",
            "Zarr stores hold 2D images and 3D volumes (2 to 4 dims)",
        ));
    }
    for (field, given) in [
        ("bits", layer.bits.is_some()),
        ("range", layer.range.is_some()),
        ("colormap", layer.colormap.is_some()),
    ] {
        if given {
            return Err(zarr_error(
                field,
                "applies to .png output only; a Zarr store holds raw float32 values",
            ));
        }
    }
    Ok(())
}

fn zarr_error(field: &'static str, reason: impl Into<String>) -> Error {
    Error::InvalidOutput {
        field,
        reason: reason.into(),
    }
}
