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
use gpu_noise::{Error, Result, Size, Window};
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
/// A volume's chunk side without `--tiles`: 8 MiB of float32 a cube.
pub const DEFAULT_VOLUME_CHUNK: u32 = 128;
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
    if spec.dims == 1 {
        return Err(zarr_error(
            "output",
            "Zarr stores hold 2D images and 3D volumes (2 to 4 dims)",
        ));
    }
    let volume = spec.size.depth > 1;
    let side = args.tiles.unwrap_or(if volume {
        DEFAULT_VOLUME_CHUNK
    } else {
        DEFAULT_CHUNK
    });
    let chunks = Chunks::new(side, spec.size);
    let [xs, ys] = check_range(args.tile_range.clone(), &chunks.grid)?;
    let array = claim_store(store, world, &chunks)?;
    let mut in_range: Vec<[u32; 3]> = Vec::new();
    for z in 0..chunks.layers {
        for y in ys.clone() {
            in_range.extend(xs.clone().map(|x| [x, y, z]));
        }
    }
    for &[_, y, z] in in_range.iter().filter(|c| c[0] == xs.start) {
        remove_stale_temporaries(&store.join(chunks.row_folder(y, z)));
    }
    let (kept, todo): (Vec<_>, Vec<_>) = (in_range.into_iter()).partition(|&c| {
        matches!(
            array.retrieve_chunk_if_exists::<Vec<f32>>(&chunks.key(c)),
            Ok(Some(_))
        )
    });
    let texels: u64 = todo.iter().map(|&c| chunks.window(c).texels()).sum();
    let columns_rows: Vec<(u32, u32)> = todo.iter().map(|c| (c[0], c[1])).collect();
    let (mut engine, built) = engine_for(&columns_rows, layer, world)?;
    let start = std::time::Instant::now();
    let samples = texels * world.samples_per_texel();
    let bar = crate::progress::texel_bar(texels, samples, args.quiet, "chunks");
    for &c in &todo {
        let window = chunks.window(c);
        let values = engine.render_band(&world.job, window)?;
        (array.store_chunk(&chunks.key(c), chunks.padded(&values, window).as_slice()))
            .map_err(|e| zarr_error("output", format!("{}: {e}", store.display())))?;
        bar.inc(window.texels());
    }
    bar.finish_and_clear();
    status!(
        "gpu-noise: wrote {} chunks and kept {} already complete, of {} ({} texels a side) in {} \
         in {} on {}{}",
        todo.len(),
        kept.len(),
        chunks.count(),
        side,
        store.display(),
        crate::seconds(start.elapsed()),
        engine.name(),
        crate::render::built_first(built)
    );
    Ok(ExitCode::SUCCESS)
}

/// The store's chunk grid: squares of `side` texels over an image, cubes over a volume (whose
/// `--tile-range` picks columns and rows, every layer of each).
struct Chunks {
    grid: Grid,
    side: u32,
    depth: u32,
    /// Chunks along z: 1 for an image.
    layers: u32,
}

impl Chunks {
    fn new(side: u32, size: Size) -> Self {
        Self {
            grid: Grid::new(side, size),
            side,
            depth: size.depth,
            layers: size.depth.div_ceil(side).max(1),
        }
    }

    fn volume(&self) -> bool {
        self.depth > 1
    }

    fn count(&self) -> u64 {
        u64::from(self.grid.columns) * u64::from(self.grid.rows) * u64::from(self.layers)
    }

    /// The array's shape and chunk shape, slowest axis first.
    fn shapes(&self) -> (Vec<u64>, Vec<u64>) {
        let (w, h) = (u64::from(self.grid.width), u64::from(self.grid.height));
        let side = u64::from(self.side);
        if self.volume() {
            (vec![u64::from(self.depth), h, w], vec![side; 3])
        } else {
            (vec![h, w], vec![side; 2])
        }
    }

    /// Chunk `[x, y, z]`'s indices in the array's axis order.
    fn key(&self, [x, y, z]: [u32; 3]) -> Vec<u64> {
        let (x, y, z) = (u64::from(x), u64::from(y), u64::from(z));
        if self.volume() {
            vec![z, y, x]
        } else {
            vec![y, x]
        }
    }

    /// The folder of a row of chunks (the default key encoding, separator `/`).
    fn row_folder(&self, y: u32, z: u32) -> PathBuf {
        let row = Path::new("c");
        if self.volume() {
            row.join(z.to_string()).join(y.to_string())
        } else {
            row.join(y.to_string())
        }
    }

    /// The window of the world chunk `[x, y, z]` holds (smaller at the far edges).
    fn window(&self, [x, y, z]: [u32; 3]) -> Window {
        let plane = self.grid.window(x, y);
        let z0 = z * self.side;
        let depth = self.side.min(self.depth - z0);
        Window::new(
            [plane.origin[0], plane.origin[1], z0],
            Size::new(plane.size.width, plane.size.height, depth),
        )
    }

    /// A chunk's values: the window's rows, then NaN (the fill value) past the world's edge,
    /// as Zarr stores every chunk whole.
    fn padded(&self, values: &[f32], window: Window) -> Vec<f32> {
        let side = self.side as usize;
        let layers = if self.volume() { side } else { 1 };
        let mut whole = vec![f32::NAN; side * side * layers];
        let (width, height) = (window.size.width as usize, window.size.height as usize);
        for (row, texels) in values.chunks_exact(width).enumerate() {
            let (k, j) = (row / height, row % height);
            let at = (k * side + j) * side;
            whole[at..at + width].copy_from_slice(texels);
        }
        whole
    }
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

/// Opens the store for this world: its metadata written if there is none (exclusively, so of
/// two runs into one empty folder only one writes), else it must be this world's, grid and all.
fn claim_store(store: &Path, world: &World, chunks: &Chunks) -> Result<Array<AtomicStore>> {
    if store.exists() && !store.is_dir() {
        let reason = format!("{} is a file; a Zarr store is a folder", store.display());
        return Err(zarr_error("output", reason));
    }
    std::fs::create_dir_all(store).map_err(|e| Error::io(store, e))?;
    let storage = Arc::new(AtomicStore::new(store)?);
    let (shape, chunk_shape) = chunks.shapes();
    let gzip = GzipCodec::new(GZIP_LEVEL).map_err(|e| zarr_error("output", e.to_string()))?;
    let mut attributes = serde_json::Map::new();
    let spec = serde_json::to_value(identity(world)).unwrap_or_default();
    attributes.insert("gpu_noise".into(), serde_json::json!({ "spec": spec }));
    let mut builder = ArrayBuilder::new(shape, chunk_shape, data_type::float32(), ZARR_NAN_F32);
    builder.bytes_to_bytes_codecs(vec![Arc::new(gzip)]);
    if chunks.volume() {
        builder.dimension_names(["z", "y", "x"].into());
    } else {
        builder.dimension_names(["y", "x"].into());
    }
    let array = builder
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
