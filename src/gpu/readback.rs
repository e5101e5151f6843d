//! [`PendingReadback`]: f32 results on their way to the host through a MAP_READ buffer. Take
//! them without blocking ([`try_take`](PendingReadback::try_take), once per frame), await them
//! (it is a future), or [`wait`](PendingReadback::wait) for them.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use crate::error::{Error, Result};

#[derive(Default)]
struct MapState {
    result: Option<std::result::Result<(), wgpu::BufferAsyncError>>,
    waker: Option<Waker>,
}

/// Staging buffers free for reuse, shared by a renderer and its pending readbacks.
pub(crate) type StagingPool = Arc<Mutex<Vec<wgpu::Buffer>>>;

/// Results of a recorded copy into a staging buffer, mapped once the encoder is submitted and
/// the GPU is done. Dropping it without taking the results is harmless.
pub struct PendingReadback {
    device: wgpu::Device,
    buffer: wgpu::Buffer,
    bytes: u64,
    state: Arc<Mutex<MapState>>,
    taken: bool,
    pool: StagingPool,
}

impl PendingReadback {
    /// Asks for `buffer[..bytes]` to be mapped when `encoder` is submitted.
    pub(crate) fn on_submit(
        device: &wgpu::Device,
        encoder: &wgpu::CommandEncoder,
        buffer: wgpu::Buffer,
        bytes: u64,
        pool: StagingPool,
    ) -> Self {
        let state = Arc::new(Mutex::new(MapState::default()));
        let writer = Arc::clone(&state);
        encoder.map_buffer_on_submit(&buffer, wgpu::MapMode::Read, ..bytes, move |result| {
            if let Ok(mut s) = writer.lock() {
                s.result = Some(result);
                if let Some(waker) = s.waker.take() {
                    waker.wake();
                }
            }
        });
        Self {
            device: device.clone(),
            buffer,
            bytes,
            state,
            taken: false,
            pool,
        }
    }

    fn mapped(&self) -> Option<std::result::Result<(), wgpu::BufferAsyncError>> {
        self.state.lock().ok().and_then(|s| s.result.clone())
    }

    /// The values if the GPU is done, without blocking; `None` while it is still working.
    /// Call it once per frame; it polls the device.
    pub fn try_take(&mut self) -> Option<Result<Vec<f32>>> {
        if self.taken {
            return None;
        }
        // A failed poll means a lost device; the map result then reports it.
        let _ = self.device.poll(wgpu::PollType::Poll);
        let mapped = self.mapped()?;
        Some(self.read(mapped))
    }

    /// Blocks until the GPU is done and returns the values.
    pub fn wait(mut self) -> Result<Vec<f32>> {
        let mapped = self.wait_mapped()?;
        self.read(mapped)
    }

    /// Blocks until the GPU is done and copies the values into `out`, which must hold exactly
    /// as many (a caller reusing one buffer spares a fresh allocation's page faults).
    pub fn wait_into(mut self, out: &mut [f32]) -> Result<()> {
        let mapped = self.wait_mapped()?;
        self.read_with(mapped, |values| {
            if values.len() != out.len() {
                return Err(Error::InvalidTarget {
                    target: "out",
                    reason: format!("holds {} values, the readback {}", out.len(), values.len()),
                });
            }
            out.copy_from_slice(values);
            Ok(())
        })
    }

    fn wait_mapped(&self) -> Result<std::result::Result<(), wgpu::BufferAsyncError>> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| Error::DeviceLost(e.to_string()))?;
        self.mapped().ok_or_else(|| {
            Error::DeviceLost(
                "the readback was never mapped: was the encoder that recorded it submitted?".into(),
            )
        })
    }

    fn read(
        &mut self,
        mapped: std::result::Result<(), wgpu::BufferAsyncError>,
    ) -> Result<Vec<f32>> {
        self.read_with(mapped, |values| Ok(values.to_vec()))
    }

    /// Hands the mapped values to `take`, then unmaps the staging buffer and returns it to the
    /// pool.
    fn read_with<T>(
        &mut self,
        mapped: std::result::Result<(), wgpu::BufferAsyncError>,
        take: impl FnOnce(&[f32]) -> Result<T>,
    ) -> Result<T> {
        self.taken = true;
        mapped?;
        let taken = {
            let slice = self.buffer.slice(..self.bytes);
            let view = slice
                .get_mapped_range()
                .map_err(|e| Error::DeviceLost(e.to_string()))?;
            take(bytemuck::cast_slice::<u8, f32>(&view))
        };
        self.buffer.unmap();
        self.recycle();
        taken
    }

    /// Gives the (unmapped) staging buffer back to the renderer's pool.
    fn recycle(&self) {
        if let Ok(mut pool) = self.pool.lock() {
            pool.push(self.buffer.clone());
        }
    }
}

impl Future for PendingReadback {
    type Output = Result<Vec<f32>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let Ok(mut s) = self.state.lock() {
            s.waker = Some(cx.waker().clone());
        }
        match self.try_take() {
            Some(result) => Poll::Ready(result),
            None if self.taken => Poll::Ready(Err(Error::DeviceLost("already taken".into()))),
            None => {
                // Native wgpu calls map callbacks only from device polls: poll again soon. On
                // the web the browser calls it, and waking ourselves would spin the executor's
                // microtasks so the browser never could.
                #[cfg(not(target_arch = "wasm32"))]
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        }
    }
}

impl Drop for PendingReadback {
    fn drop(&mut self) {
        // A buffer whose map is still pending cannot be reused; it is simply released.
        if !self.taken && matches!(self.mapped(), Some(Ok(()))) {
            self.buffer.unmap();
            self.recycle();
        }
    }
}
