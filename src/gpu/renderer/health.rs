//! What the crate's own device reported outside any error scope: a lost device or the first
//! uncaptured error, kept by the device's callbacks and reported by the next render.

use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};

/// Errors the crate's own device reported outside any error scope, and whether it was lost.
#[derive(Clone, Default)]
pub(super) struct Health {
    lost: Arc<Mutex<Option<String>>>,
    error: Arc<Mutex<Option<Caught>>>,
}

/// What the uncaptured-error handler keeps. Its closure must be `Send`, and `wgpu::Error` is
/// not `Send` on the web (its source is a JavaScript error), so there it keeps the text.
#[cfg(not(target_arch = "wasm32"))]
type Caught = wgpu::Error;
#[cfg(target_arch = "wasm32")]
type Caught = String;

#[cfg(not(target_arch = "wasm32"))]
fn catch(error: wgpu::Error) -> Caught {
    error
}

#[cfg(target_arch = "wasm32")]
fn catch(error: wgpu::Error) -> Caught {
    error.to_string()
}

#[cfg(not(target_arch = "wasm32"))]
fn release(caught: Caught) -> wgpu::Error {
    caught
}

#[cfg(target_arch = "wasm32")]
fn release(caught: Caught) -> wgpu::Error {
    wgpu::Error::Validation {
        source: caught.clone().into(),
        description: caught,
    }
}

impl Health {
    /// Watches `device`: its lost callback and uncaptured-error handler report here.
    pub(super) fn watch(device: &wgpu::Device) -> Self {
        let health = Health::default();
        let on_lost = Arc::clone(&health.lost);
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut lost) = on_lost.lock() {
                *lost = Some(format!("{reason:?}: {message}"));
            }
        });
        let on_error = Arc::clone(&health.error);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            if let Ok(mut first) = on_error.lock() {
                first.get_or_insert(catch(error));
            }
        }));
        health
    }

    /// A lost device or an uncaptured error, as an error (the error is reported once).
    pub(super) fn check(&self) -> Result<()> {
        let poisoned = || Error::DeviceLost("device state poisoned".into());
        if let Some(reason) = self.lost.lock().map_err(|_| poisoned())?.as_ref() {
            return Err(Error::DeviceLost(reason.clone()));
        }
        match self.error.lock().map_err(|_| poisoned())?.take() {
            Some(caught) => Err(Error::Gpu {
                context: "rendering".into(),
                source: release(caught),
            }),
            None => Ok(()),
        }
    }
}
