//! Copies a storage buffer's results to the host through a MAP_READ staging buffer.

use crate::error::{Error, Result};

/// Maps `staging[..bytes]` once `submission` is done and appends its f32s to `out`.
pub(crate) fn read_f32s(
    device: &wgpu::Device,
    staging: &wgpu::Buffer,
    bytes: u64,
    submission: wgpu::SubmissionIndex,
    out: &mut Vec<f32>,
) -> Result<()> {
    let slice = staging.slice(..bytes);
    let (sender, receiver) = futures_intrusive::channel::shared::oneshot_channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        // The receiver outlives this callback unless the caller already failed; ignore then.
        let _ = sender.send(result);
    });
    wait(device, Some(submission))?;
    match pollster::block_on(receiver.receive()) {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(Error::Readback(e.to_string())),
        None => return Err(Error::Readback("the map callback was dropped".into())),
    }
    {
        let view = slice
            .get_mapped_range()
            .map_err(|e| Error::Readback(e.to_string()))?;
        out.extend_from_slice(bytemuck::cast_slice(&view));
    }
    staging.unmap();
    Ok(())
}

/// Blocks until `submission` (or all work) has finished; a lost device becomes an error.
pub(crate) fn wait(device: &wgpu::Device, submission: Option<wgpu::SubmissionIndex>) -> Result<()> {
    device
        .poll(wgpu::PollType::Wait {
            submission_index: submission,
            timeout: None,
        })
        .map(|_| ())
        .map_err(|e| Error::DeviceLost(e.to_string()))
}
