//! How the bench times GPU work: timestamp queries written into the encoder around the recorded
//! commands where the device has them (the kernel by itself), otherwise the wall time of
//! submitting the commands and waiting for them (dispatch-only wall time, said so in the report).

use std::time::{Duration, Instant};

use gpu_noise::{Error, Result};

/// The features a bench device asks for where its adapter has them.
pub const TIMESTAMPS: wgpu::Features =
    wgpu::Features::TIMESTAMP_QUERY.union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS);

pub enum Clock {
    Timestamps(Timestamps),
    WallTime,
}

pub struct Timestamps {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readable: wgpu::Buffer,
    /// Nanoseconds per timestamp tick.
    period: f64,
}

impl Clock {
    /// Timestamps if `device` was opened with [`TIMESTAMPS`], wall time otherwise.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        if !device.features().contains(TIMESTAMPS) {
            return Clock::WallTime;
        }
        let bytes = 2 * wgpu::QUERY_SIZE as u64;
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        Clock::Timestamps(Timestamps {
            queries: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("bench timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            }),
            resolved: buffer("bench timestamps resolved", U::QUERY_RESOLVE | U::COPY_SRC),
            readable: buffer("bench timestamps readable", U::MAP_READ | U::COPY_DST),
            period: f64::from(queue.get_timestamp_period()),
        })
    }

    /// What the figures measure, for the report.
    pub fn describe(&self) -> &'static str {
        match self {
            Clock::Timestamps(_) => "kernel time from timestamp queries",
            Clock::WallTime => {
                "dispatch-only wall time (submit and wait; the device has no timestamp queries)"
            }
        }
    }

    /// Records the commands of `record`, submits them, waits, and returns how long they took.
    pub fn time(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        record: impl FnOnce(&mut wgpu::CommandEncoder) -> Result<()>,
    ) -> Result<Duration> {
        let mut encoder = device.create_command_encoder(&Default::default());
        let start = Instant::now();
        match self {
            Clock::WallTime => {
                record(&mut encoder)?;
                queue.submit([encoder.finish()]);
                wait(device)?;
                Ok(start.elapsed())
            }
            Clock::Timestamps(t) => {
                encoder.write_timestamp(&t.queries, 0);
                record(&mut encoder)?;
                encoder.write_timestamp(&t.queries, 1);
                encoder.resolve_query_set(&t.queries, 0..2, &t.resolved, 0);
                encoder.copy_buffer_to_buffer(&t.resolved, 0, &t.readable, 0, t.resolved.size());
                queue.submit([encoder.finish()]);
                t.read(device)
            }
        }
    }
}

impl Timestamps {
    fn read(&self, device: &wgpu::Device) -> Result<Duration> {
        let slice = self.readable.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        wait(device)?;
        let ticks: [u64; 2] = {
            let view = slice
                .get_mapped_range()
                .map_err(|e| Error::DeviceLost(format!("reading timestamps: {e}")))?;
            bytemuck::pod_read_unaligned(&view[..16])
        };
        self.readable.unmap();
        let ns = ticks[1].saturating_sub(ticks[0]) as f64 * self.period;
        Ok(Duration::from_secs_f64(ns * 1e-9))
    }
}

pub fn wait(device: &wgpu::Device) -> Result<()> {
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map(|_| ())
        .map_err(|e| Error::DeviceLost(e.to_string()))
}
