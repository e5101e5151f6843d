//! [`CommitGroup`]: files of one output (the slices of a PNG sequence) renamed into place
//! together, or removed together.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::{TEMPORARIES, unregister};
use crate::error::{Error, Result};

/// Files committed together or not at all (the slices of a PNG sequence): each file's
/// [`OutputFile::commit`](super::OutputFile::commit) only finishes it; [`CommitGroup::commit_all`] renames them all, with
/// the registry of temporaries held so that a signal handler runs before or after, never
/// between; a group dropped uncommitted removes its files.
#[derive(Clone, Default)]
pub struct CommitGroup(Arc<Mutex<Vec<(PathBuf, PathBuf)>>>);

impl CommitGroup {
    /// An empty group.
    pub fn new() -> Self {
        Self::default()
    }

    pub(super) fn hand_over(&self, temporary: PathBuf, target: PathBuf) {
        let mut files = self.0.lock().unwrap_or_else(|p| p.into_inner());
        files.push((temporary, target));
    }

    fn take(&self) -> Vec<(PathBuf, PathBuf)> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Renames every finished file onto its target. If one rename fails, the targets already
    /// renamed and the temporaries left are removed, so nothing of the group stays.
    pub fn commit_all(self) -> Result<()> {
        let files = self.take();
        let mut registry = TEMPORARIES.lock().unwrap_or_else(|p| p.into_inner());
        let failure = files
            .iter()
            .enumerate()
            .find_map(|(i, (temporary, target))| {
                std::fs::rename(temporary, target)
                    .err()
                    .map(|e| (i, Error::io(target, e)))
            });
        registry
            .paths
            .retain(|p| !files.iter().any(|(t, _)| t == p));
        let Some((failed, error)) = failure else {
            return Ok(());
        };
        for (i, (temporary, target)) in files.iter().enumerate() {
            let _ = std::fs::remove_file(if i < failed { target } else { temporary });
        }
        Err(error)
    }
}

impl Drop for CommitGroup {
    fn drop(&mut self) {
        // The last handle of an uncommitted group: its finished files go.
        if Arc::strong_count(&self.0) == 1 {
            for (temporary, _) in self.take() {
                let _ = std::fs::remove_file(&temporary);
                unregister(&temporary);
            }
        }
    }
}
