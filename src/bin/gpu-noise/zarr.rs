//! `render -o world.zarr`: the world as a Zarr v3 array (through the `zarrs` crate), the
//! analysts' and the clusters' format: float32, shape (height, width), square chunks of
//! `--tiles N` texels (default [`DEFAULT_CHUNK`]), gzip, NaN where nothing is rendered yet, the
//! spec that renders it in its attributes (`gpu_noise`). zarr-python, xarray and Dask read it as
//! it is.
//!
//! Each chunk is a window of the world, encoded whole and written under a temporary name, then
//! renamed into place, independently of every other: processes filling disjoint
//! `--tile-range`s of one store need no coordination, and a later run renders only the chunks
//! in its range that are missing or do not decode. The array's metadata is written once, by
//! the first run (exclusively); a run into a store of another world is refused.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use gpu_noise::low_level::export::OutputFile;
use gpu_noise::{Error, Result};
use zarrs::array::codec::GzipCodec;
use zarrs::array::{Array, ArrayBuilder, ZARR_NAN_F32, data_type};
use zarrs::filesystem::FilesystemStore;
use zarrs::storage::byte_range::ByteRangeIterator;
use zarrs::storage::{
    Bytes, MaybeBytes, MaybeBytesIterator, OffsetBytesIterator, ReadableStorageTraits,
    StorageError, StoreKey, StorePrefix, WritableStorageTraits,
};

use crate::args::RenderArgs;
use crate::tiles::{Grid, check_range, engine_for, identity};
use crate::world::World;
use gpu_noise::low_level::spec_file::SpecFile;

/// Chunk side without `--tiles`: 4 MiB of float32 a chunk.
pub const DEFAULT_CHUNK: u32 = 1024;
/// gzip's level: 5 of 9, most of the size for a fraction of the time.
const GZIP_LEVEL: u32 = 5;
/// The array's metadata document (Zarr v3).
const METADATA: &str = "zarr.json";

/// Whether `path` names a Zarr store (`.zarr`, a folder).
pub fn is_zarr(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zarr"))
}

pub fn run(args: &RenderArgs, layer: &SpecFile, world: &World, store: &Path) -> Result<ExitCode> {
    let spec = &world.spec;
    if spec.size.depth > 1 || spec.dims == 1 {
        return Err(zarr_error(
            "output",
            "Zarr stores hold 2D images (2 to 4 dims, depth 1)",
        ));
    }
    let chunk = args.tiles.unwrap_or(DEFAULT_CHUNK);
    let grid = Grid::new(chunk, spec.size);
    let [xs, ys] = check_range(args.tile_range.clone(), &grid)?;
    let array = claim_store(store, world, &grid)?;
    for y in ys.clone() {
        remove_stale_temporaries(&store.join("c").join(y.to_string()));
    }
    let in_range = ys.flat_map(|y| xs.clone().map(move |x| (x, y)));
    let (kept, todo): (Vec<_>, Vec<_>) = in_range.partition(|&(x, y)| is_complete(&array, x, y));
    let texels: u64 = todo.iter().map(|&(x, y)| grid.window(x, y).texels()).sum();
    let (mut engine, built) = engine_for(&todo, layer, world)?;
    let start = std::time::Instant::now();
    let bar = crate::progress::texel_bar(
        texels,
        texels * world.samples_per_texel(),
        args.quiet,
        "chunks",
    );
    for &(x, y) in &todo {
        let window = grid.window(x, y);
        let values = engine.render_band(&world.job, window)?;
        let whole = padded(&values, window.size.width as usize, chunk as usize);
        (array.store_chunk(&[u64::from(y), u64::from(x)], whole.as_slice()))
            .map_err(|e| zarr_error("output", format!("{}: {e}", store.display())))?;
        bar.inc(window.texels());
    }
    bar.finish_and_clear();
    status!(
        "gpu-noise: wrote {} chunks and kept {} already complete, of {} ({chunk}x{chunk} texels \
         each) in {} in {} on {}{}",
        todo.len(),
        kept.len(),
        u64::from(grid.columns) * u64::from(grid.rows),
        store.display(),
        crate::seconds(start.elapsed()),
        engine.name(),
        crate::render::built_first(built)
    );
    Ok(ExitCode::SUCCESS)
}

/// A chunk's values: the window's rows, then NaN (the fill value) past the world's edge, as
/// Zarr stores every chunk whole.
fn padded(values: &[f32], width: usize, chunk: usize) -> Vec<f32> {
    let mut whole = vec![f32::NAN; chunk * chunk];
    for (row, texels) in values.chunks_exact(width).enumerate() {
        whole[row * chunk..row * chunk + width].copy_from_slice(texels);
    }
    whole
}

/// Removes the temporaries that runs killed while writing a chunk left in one row of chunks
/// (`.{x}.partial-{pid}-{n}`, see [`AtomicStore`]), those of processes no longer alive only, so
/// a run beside this one keeps its own. Linux only (it asks `/proc`); elsewhere they stay,
/// hidden, and readers ignore them.
fn remove_stale_temporaries(row: &Path) {
    if !cfg!(target_os = "linux") {
        return;
    }
    let Ok(entries) = std::fs::read_dir(row) else {
        return; // no chunk of this row yet
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.starts_with('.'))
            .and_then(|n| n.split_once(".partial-"))
            .and_then(|(_, rest)| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether chunk (x, y) is in the store and decodes whole.
fn is_complete(array: &Array<AtomicStore>, x: u32, y: u32) -> bool {
    let indices = [u64::from(y), u64::from(x)];
    matches!(
        array.retrieve_chunk_if_exists::<Vec<f32>>(&indices),
        Ok(Some(_))
    )
}

/// Opens the store for this world: its metadata written if there is none (exclusively, so of
/// two runs into one empty folder only one writes), else it must be this world's, grid and all.
fn claim_store(store: &Path, world: &World, grid: &Grid) -> Result<Array<AtomicStore>> {
    if store.exists() && !store.is_dir() {
        let reason = format!("{} is a file; a Zarr store is a folder", store.display());
        return Err(zarr_error("output", reason));
    }
    std::fs::create_dir_all(store).map_err(|e| Error::io(store, e))?;
    let storage = Arc::new(AtomicStore::new(store)?);
    let shape = vec![u64::from(grid.height), u64::from(grid.width)];
    let chunks = vec![u64::from(grid.tile); 2];
    let gzip = GzipCodec::new(GZIP_LEVEL).map_err(|e| zarr_error("output", e.to_string()))?;
    let mut attributes = serde_json::Map::new();
    let spec = serde_json::to_value(identity(world)).unwrap_or_default();
    attributes.insert("gpu_noise".into(), serde_json::json!({ "spec": spec }));
    let array = ArrayBuilder::new(shape, chunks, data_type::float32(), ZARR_NAN_F32)
        .bytes_to_bytes_codecs(vec![Arc::new(gzip)])
        .dimension_names(["y", "x"].into())
        .attributes(attributes)
        .build(storage, "/")
        .map_err(|e| zarr_error("output", e.to_string()))?;
    let ours = array.metadata().to_string_pretty();
    let path = store.join(METADATA);
    let file = OutputFile::create(&path)?;
    let mut sink = file.sink()?;
    std::io::Write::write_all(&mut sink, ours.as_bytes()).map_err(|e| Error::io(&path, e))?;
    drop(sink);
    if file.commit_if_absent()? {
        return Ok(array);
    }
    let theirs = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
    if parse(&theirs).is_none() || parse(&theirs) != parse(&ours) {
        let reason = format!(
            "{} holds another array (a different spec, size or chunk side); use another folder",
            store.display()
        );
        return Err(zarr_error("output", reason));
    }
    Ok(array)
}

fn zarr_error(field: &'static str, reason: impl Into<String>) -> Error {
    Error::InvalidOutput {
        field,
        reason: reason.into(),
    }
}

/// A filesystem store whose writes appear whole: each value goes to a temporary file beside its
/// key, renamed into place (zarrs' own store writes in place, so a reader or a run killed
/// midway could meet half a chunk). Reads, partial writes and erasures are the filesystem
/// store's.
pub struct AtomicStore {
    inner: FilesystemStore,
    root: PathBuf,
    written: AtomicU64,
}

impl AtomicStore {
    fn new(root: &Path) -> Result<Self> {
        let inner = FilesystemStore::new(root)
            .map_err(|e| zarr_error("output", format!("{}: {e}", root.display())))?;
        Ok(Self {
            inner,
            root: root.to_path_buf(),
            written: AtomicU64::new(0),
        })
    }
}

impl ReadableStorageTraits for AtomicStore {
    fn get_partial_many<'a>(
        &'a self,
        key: &StoreKey,
        byte_ranges: ByteRangeIterator<'a>,
    ) -> std::result::Result<MaybeBytesIterator<'a>, StorageError> {
        self.inner.get_partial_many(key, byte_ranges)
    }

    fn get(&self, key: &StoreKey) -> std::result::Result<MaybeBytes, StorageError> {
        self.inner.get(key)
    }

    fn size_key(&self, key: &StoreKey) -> std::result::Result<Option<u64>, StorageError> {
        self.inner.size_key(key)
    }

    fn supports_get_partial(&self) -> bool {
        self.inner.supports_get_partial()
    }
}

impl WritableStorageTraits for AtomicStore {
    fn set(&self, key: &StoreKey, value: Bytes) -> std::result::Result<(), StorageError> {
        let path = self.root.join(key.as_str());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let n = self.written.fetch_add(1, Ordering::Relaxed);
        let temporary = path.with_file_name(format!(
            ".{}.partial-{}-{n}",
            path.file_name().and_then(|f| f.to_str()).unwrap_or("value"),
            std::process::id()
        ));
        std::fs::write(&temporary, &value)?;
        std::fs::rename(&temporary, &path).inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })?;
        Ok(())
    }

    fn set_partial_many(
        &self,
        key: &StoreKey,
        offset_values: OffsetBytesIterator,
    ) -> std::result::Result<(), StorageError> {
        self.inner.set_partial_many(key, offset_values)
    }

    fn erase(&self, key: &StoreKey) -> std::result::Result<(), StorageError> {
        self.inner.erase(key)
    }

    fn erase_prefix(&self, prefix: &StorePrefix) -> std::result::Result<(), StorageError> {
        self.inner.erase_prefix(prefix)
    }

    fn supports_set_partial(&self) -> bool {
        false
    }
}
