//! The store on disk: its group and array metadata claimed once, chunks written whole through
//! [`AtomicStore`], temporaries of killed runs removed.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use gpu_noise::Result;
use gpu_noise::low_level::export::OutputFile;
use zarrs::array::codec::bytes_to_bytes::blosc::{
    BloscCodec, BloscCompressionLevel, BloscCompressor, BloscShuffleMode,
};
use zarrs::array::{Array, ArrayBuilder, ZARR_NAN_F32, data_type};
use zarrs::filesystem::FilesystemStore;
use zarrs::group::GroupBuilder;
use zarrs::storage::byte_range::ByteRangeIterator;
use zarrs::storage::{
    Bytes, MaybeBytes, MaybeBytesIterator, OffsetBytesIterator, ReadableStorageTraits,
    StorageError, StoreKey, StorePrefix, WritableStorageTraits,
};

use super::chunks::Chunks;
use super::{ARRAY, zarr_error};
use crate::tiles::identity;
use crate::world::World;

/// Blosc's compression level (0-9): 5, its default. A chunk's float32 bytes are shuffled
/// (every value's first byte, then every second byte, ...: the exponents' bytes, alike from
/// one texel to the next, sit together) and compressed with LZ4. On a 1024^2 chunk of fBm
/// Perlin (one thread, Intel Xeon; zarr-python's numcodecs, the same C libraries): 6.8 ms and
/// 81% of the size, where gzip level 5 took 224 ms for 91%, zstd level 1 12 ms for 90%, and
/// Blosc's zstd with the shuffle 13 ms for 80%. Every Zarr v3 reader has `blosc` (a core codec).
const BLOSC_LEVEL: u8 = 5;
/// A node's metadata document (Zarr v3).
const METADATA: &str = "zarr.json";

/// The store's array, opened for this world.
pub struct StoreArray {
    array: Array<AtomicStore>,
    folder: PathBuf,
    shown: String,
}

impl StoreArray {
    /// The array's folder (its chunks under `c/`).
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Whether chunk `key` exists and decodes.
    pub fn has_chunk(&self, key: &[u64]) -> bool {
        matches!(
            self.array.retrieve_chunk_if_exists::<Vec<f32>>(key),
            Ok(Some(_))
        )
    }

    /// Writes chunk `key` whole.
    pub fn store_chunk(&self, key: &[u64], values: &[f32]) -> Result<()> {
        (self.array.store_chunk(key, values))
            .map_err(|e| zarr_error("output", format!("{}: {e}", self.shown)))
    }
}

/// Opens the store for this world: its metadata written if there is none (exclusively, so of
/// two runs into one empty folder only one writes), else it must be this world's, grid and all.
/// The array's metadata first, then the group's: a store is whole once its root names a group.
pub fn claim(store: &Path, world: &World, chunks: &Chunks) -> Result<StoreArray> {
    let shown = store.display().to_string();
    if store.exists() && !store.is_dir() {
        let reason = format!("{shown} is a file; a Zarr store is a folder");
        return Err(zarr_error("output", reason));
    }
    std::fs::create_dir_all(store).map_err(|e| gpu_noise::Error::io(store, e))?;
    let storage = Arc::new(AtomicStore::new(store)?);
    let mut attributes = serde_json::Map::new();
    let spec = serde_json::to_value(identity(world)).unwrap_or_default();
    attributes.insert("gpu_noise".into(), serde_json::json!({ "spec": spec }));
    let array = array_builder(chunks, attributes.clone())?
        .build(storage.clone(), &format!("/{ARRAY}"))
        .map_err(|e| zarr_error("output", e.to_string()))?;
    let group = GroupBuilder::new()
        .attributes(attributes)
        .build(storage, "/")
        .map_err(|e| zarr_error("output", e.to_string()))?;
    let folder = store.join(ARRAY);
    std::fs::create_dir_all(&folder).map_err(|e| gpu_noise::Error::io(&folder, e))?;
    claim_document(
        &folder.join(METADATA),
        &array.metadata().to_string_pretty(),
        &shown,
    )?;
    let group_text = serde_json::to_string_pretty(group.metadata()).unwrap_or_default();
    claim_document(&store.join(METADATA), &group_text, &shown)?;
    Ok(StoreArray {
        array,
        folder,
        shown,
    })
}

/// The array: shape and chunks, float32 filled with NaN, Blosc, dimension names.
fn array_builder(
    chunks: &Chunks,
    attributes: serde_json::Map<String, serde_json::Value>,
) -> Result<ArrayBuilder> {
    let (shape, chunk_shape) = chunks.shapes();
    let codec_error = |e: String| zarr_error("output", format!("the Blosc codec: {e}"));
    let level =
        BloscCompressionLevel::try_from(BLOSC_LEVEL).map_err(|e| codec_error(e.to_string()))?;
    let blosc = BloscCodec::new(
        BloscCompressor::LZ4,
        level,
        None,
        BloscShuffleMode::Shuffle,
        Some(size_of::<f32>()),
    )
    .map_err(|e| codec_error(e.to_string()))?;
    let mut builder = ArrayBuilder::new(shape, chunk_shape, data_type::float32(), ZARR_NAN_F32);
    builder.bytes_to_bytes_codecs(vec![Arc::new(blosc)]);
    if chunks.volume() {
        builder.dimension_names(["z", "y", "x"].into());
    } else {
        builder.dimension_names(["y", "x"].into());
    }
    builder.attributes(attributes);
    Ok(builder)
}

/// Writes `ours` at `path` unless a document is there; one that is there must say the same.
fn claim_document(path: &Path, ours: &str, shown: &str) -> Result<()> {
    let file = OutputFile::create(path)?;
    let mut sink = file.sink()?;
    std::io::Write::write_all(&mut sink, ours.as_bytes())
        .map_err(|e| gpu_noise::Error::io(path, e))?;
    drop(sink);
    if file.commit_if_absent()? {
        return Ok(());
    }
    let theirs = std::fs::read_to_string(path).map_err(|e| gpu_noise::Error::io(path, e))?;
    let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
    if parse(&theirs).is_none() || parse(&theirs) != parse(ours) {
        let reason = format!(
            "{shown} holds another array (a different spec, size or chunk side, or a store of \
             an earlier version); use another folder"
        );
        return Err(zarr_error("output", reason));
    }
    Ok(())
}

/// Removes the temporaries that runs killed while writing a chunk left in one row of chunks
/// (`.{x}.partial-{pid}-{n}`, see [`AtomicStore`]), those of processes no longer alive only, so
/// a run beside this one keeps its own. Linux only (it asks `/proc`); elsewhere they stay,
/// hidden, and readers ignore them.
pub fn remove_stale_temporaries(row: &Path) {
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
