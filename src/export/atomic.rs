//! [`OutputFile`]: a file written under a short temporary name beside its target and renamed
//! into place when complete, so a failure or an interrupt never leaves a partial file at the
//! target. Temporary names are registered, so a signal handler can remove them
//! ([`remove_all_temporaries`]); only SIGKILL (or a power cut) can leave one behind, named
//! `.gpu-noise-PID-N.tmp`. A file is created while the registry is locked, and the removal
//! closes the registry for good, so no temporary can appear after the removal ran.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};

mod group;
pub use group::CommitGroup;

/// Temporary files in progress in this process.
static TEMPORARIES: Mutex<Registry> = Mutex::new(Registry {
    paths: Vec::new(),
    closed: false,
});

/// The temporaries in progress; `closed` once [`remove_all_temporaries`] ran, after which no
/// new temporary may be created.
struct Registry {
    paths: Vec<PathBuf>,
    closed: bool,
}
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Buffer size of the writer: large enough that encoders make few system calls.
const BUFFER: usize = 1 << 20;

/// The prefix every temporary file name starts with, to find leftovers after a SIGKILL.
pub const TEMPORARY_PREFIX: &str = ".gpu-noise-";

/// Removes every temporary file still in progress and refuses new ones from then on; then
/// runs `then` with the count removed **while still holding the registry**, so a signal handler
/// can exit inside `then` before any other thread creates, commits or reports a file.
pub fn remove_all_temporaries<R>(then: impl FnOnce(usize) -> R) -> R {
    let mut registry = TEMPORARIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    registry.closed = true;
    let removed = registry
        .paths
        .iter()
        .filter(|p| std::fs::remove_file(p).is_ok())
        .count();
    registry.paths.clear();
    then(removed)
}

fn unregister(path: &Path) {
    let mut registry = TEMPORARIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    registry.paths.retain(|p| p != path);
}

/// The file to write for `target`: itself, or, for a symbolic link, the file it points to (so
/// the link stays a link). Something that is neither a regular file nor absent (a FIFO, a
/// socket, a device) is refused: the rename would silently replace it with a regular file.
fn resolve_target(target: &Path) -> Result<PathBuf> {
    let mut path = target.to_path_buf();
    // Links to links are followed, as far as the operating systems' own limit (40 on Linux).
    for _ in 0..40 {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            return Ok(path);
        };
        if meta.is_file() || meta.is_dir() {
            return Ok(path);
        }
        if !meta.file_type().is_symlink() {
            return Err(Error::output(
                "output",
                format!(
                    "{} is not a regular file (a FIFO, socket or device); outputs are written \
                     to a temporary file and renamed, which would replace it: give a file name",
                    target.display()
                ),
            ));
        }
        let pointed = std::fs::read_link(&path).map_err(|e| Error::io(&path, e))?;
        path = match path.parent() {
            Some(parent) if pointed.is_relative() => parent.join(pointed),
            _ => pointed,
        };
    }
    Err(Error::output(
        "output",
        format!("{}: too many levels of symbolic links", target.display()),
    ))
}

/// Creates `temporary` and registers it under one lock, unless the registry is closed.
fn create_registered(temporary: &Path, target: &Path) -> Result<File> {
    let mut registry = TEMPORARIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if registry.closed {
        let e = std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted");
        return Err(Error::io(target, e));
    }
    let file = File::create(temporary).map_err(|e| Error::io(target, e))?;
    registry.paths.push(temporary.to_path_buf());
    Ok(file)
}

/// A file being written: encoders write through a [`Sink`] to the temporary file;
/// [`commit`](Self::commit) renames it onto the target; dropping it uncommitted removes the
/// temporary.
pub struct OutputFile {
    target: PathBuf,
    temporary: PathBuf,
    file: Option<File>,
    errors: SinkErrors,
    /// Where a commit hands the finished file over, to be renamed with the others.
    group: Option<CommitGroup>,
}

/// The first error any sink of a file met, including errors on the final flush when an encoder
/// drops its sink (which encoders otherwise ignore).
#[derive(Clone, Default)]
struct SinkErrors(Arc<Mutex<Option<std::io::Error>>>);

impl SinkErrors {
    fn record(&self, e: &std::io::Error) {
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        }
    }

    fn take(&self) -> Option<std::io::Error> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }
}

/// A buffered writer onto an [`OutputFile`] that records every error for the commit to see.
pub struct Sink {
    inner: Option<BufWriter<File>>,
    errors: SinkErrors,
}

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let inner = self
            .inner
            .as_mut()
            .ok_or_else(|| std::io::Error::other("sink closed"))?;
        inner.write(bytes).inspect_err(|e| self.errors.record(e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let inner = self
            .inner
            .as_mut()
            .ok_or_else(|| std::io::Error::other("sink closed"))?;
        inner.flush().inspect_err(|e| self.errors.record(e))
    }
}

impl std::io::Seek for Sink {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let inner = self
            .inner
            .as_mut()
            .ok_or_else(|| std::io::Error::other("sink closed"))?;
        inner.seek(to).inspect_err(|e| self.errors.record(e))
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take()
            && let Err(e) = inner.into_inner()
        {
            self.errors.record(e.error());
        }
    }
}

impl OutputFile {
    /// Creates the temporary file in the target's folder now, so that a missing folder or a
    /// read-only one fails before any work. The name is short (about 30 bytes) and independent
    /// of the target's, so any legal target name works.
    pub fn create(target: &Path) -> Result<Self> {
        let resolved = resolve_target(target)?;
        let target = resolved.as_path();
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if target.file_name().is_none() || target.is_dir() {
            return Err(Error::output(
                "output",
                format!("{} is a folder, not a file name", target.display()),
            ));
        }
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temporary = folder.join(format!("{TEMPORARY_PREFIX}{}-{n}.tmp", std::process::id()));
        let file = create_registered(&temporary, target)?;
        Ok(Self {
            target: target.to_path_buf(),
            temporary,
            file: Some(file),
            errors: SinkErrors::default(),
            group: None,
        })
    }

    /// [`create`](Self::create), for a file of `group`: its commit leaves the file finished
    /// under its temporary name for [`CommitGroup::commit_all`].
    pub fn create_in(target: &Path, group: &CommitGroup) -> Result<Self> {
        let mut file = Self::create(target)?;
        file.group = Some(group.clone());
        Ok(file)
    }

    /// The first error a sink met writing this file, naming the file, if any (it is then no
    /// longer reported by [`commit`](Self::commit)).
    pub fn write_error(&self) -> Option<Error> {
        self.errors.take().map(|e| Error::io(&self.target, e))
    }

    /// The target path.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// A buffered writer onto the temporary file (a second handle on the same file).
    pub fn sink(&self) -> Result<Sink> {
        let file = self
            .file
            .as_ref()
            .ok_or_else(|| Error::io(&self.target, std::io::Error::other("already committed")))?;
        let clone = file.try_clone().map_err(|e| Error::io(&self.target, e))?;
        Ok(Sink {
            inner: Some(BufWriter::with_capacity(BUFFER, clone)),
            errors: self.errors.clone(),
        })
    }

    /// Checks that every sink wrote without error (drop them first), syncs the file to disk
    /// and renames it onto the target.
    pub fn commit(mut self) -> Result<()> {
        if let Some(e) = self.errors.take() {
            return Err(Error::io(&self.target, e));
        }
        let file = self
            .file
            .take()
            .ok_or_else(|| Error::io(&self.target, std::io::Error::other("already committed")))?;
        file.sync_all().map_err(|e| Error::io(&self.target, e))?;
        drop(file);
        if let Some(group) = self.group.take() {
            // The group renames it, or removes it; it stays registered until then.
            group.hand_over(std::mem::take(&mut self.temporary), self.target.clone());
            return Ok(());
        }
        std::fs::rename(&self.temporary, &self.target).map_err(|e| Error::io(&self.target, e))?;
        unregister(&self.temporary);
        Ok(())
    }
}

impl OutputFile {
    /// Like [`commit`](Self::commit), but only if the target does not exist yet: the file is
    /// hard-linked to the target, which fails when something is there, so of several processes
    /// committing the same target at once exactly one succeeds. Returns whether this one did
    /// (the temporary is removed either way).
    pub fn commit_if_absent(mut self) -> Result<bool> {
        if let Some(e) = self.errors.take() {
            return Err(Error::io(&self.target, e));
        }
        let file = self
            .file
            .take()
            .ok_or_else(|| Error::io(&self.target, std::io::Error::other("already committed")))?;
        file.sync_all().map_err(|e| Error::io(&self.target, e))?;
        drop(file);
        // Drop removes the temporary.
        match std::fs::hard_link(&self.temporary, &self.target) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            // A file system without hard links: an exclusive create, then a copy (a reader may
            // see the target briefly incomplete).
            Err(_) => self.copy_if_absent(),
        }
    }

    fn copy_if_absent(&self) -> Result<bool> {
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&self.target);
        let mut target = match created {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
            Err(e) => return Err(Error::io(&self.target, e)),
        };
        let copied = File::open(&self.temporary)
            .and_then(|mut from| std::io::copy(&mut from, &mut target))
            .and_then(|_| target.sync_all());
        copied.map_err(|e| Error::io(&self.target, e))?;
        Ok(true)
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        drop(self.file.take());
        if self.temporary.as_os_str().is_empty() {
            return; // handed over to a group
        }
        if self.temporary.exists() {
            let _ = std::fs::remove_file(&self.temporary);
        }
        unregister(&self.temporary);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_fails_the_commit_and_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.f32");
        let mut file = OutputFile::create(&target).unwrap();
        let temporary = file.temporary.clone();
        assert!(temporary.exists());
        // Writes to /dev/full fail with ENOSPC, as on a full disk.
        file.file = Some(File::options().write(true).open("/dev/full").unwrap());
        let mut sink = file.sink().unwrap();
        let _ = sink.write_all(&vec![0u8; 2 * BUFFER]);
        drop(sink); // the final flush fails too; the commit must see it
        match file.commit() {
            Err(Error::Io { source, .. }) => {
                assert_eq!(source.kind(), std::io::ErrorKind::StorageFull, "{source}")
            }
            other => panic!("expected a full-disk error, got {other:?}"),
        }
        assert!(!target.exists() && !temporary.exists());
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
    }

    /// Issue 13, point 6: OpenEXR and TIFF encoders failing on a full disk reported only their
    /// own message ("encoding OpenEXR: ..."); now the write's error, naming the file.
    #[test]
    fn exr_and_tiff_write_failures_name_the_file() {
        use crate::export::ImageWriter;
        let dir = tempfile::tempdir().unwrap();
        let size = crate::spec::Size::new(256, 256, 1);
        for name in ["a.exr", "a.tif"] {
            let target = dir.path().join(name);
            let mut file = OutputFile::create(&target).unwrap();
            file.file = Some(File::options().write(true).open("/dev/full").unwrap());
            let mut writer: Box<dyn ImageWriter> = match name {
                "a.exr" => Box::new(super::super::exr::writer(file, size).unwrap()),
                _ => Box::new(super::super::tiff::writer(file, size).unwrap()),
            };
            let rows = vec![0.25f32; 256 * 64];
            let written = (0..4).try_for_each(|_| writer.write_rows(&rows));
            let result = written.and_then(|()| writer.finish());
            match result {
                Err(Error::Io { path, source }) => {
                    assert_eq!(path, target, "{name}");
                    assert_eq!(source.kind(), std::io::ErrorKind::StorageFull, "{name}");
                }
                other => panic!("{name}: expected a write error naming the file, got {other:?}"),
            }
            assert!(
                std::fs::read_dir(dir.path()).unwrap().next().is_none(),
                "{name}"
            );
        }
    }
}
