//! How the bench times GPU work: timestamp queries written into the encoder around the recorded
//! commands where the device has them (the kernel by itself), otherwise the wall time of
//! submitting the commands and waiting for them (dispatch-only wall time, said so in the report).
//! A timed sample is a burst of the same kernel back to back (`Burst`), so that a short kernel
//! is timed at the clocks a busy GPU runs at.

use std::cell::Cell;
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

    /// Records `burst.count()` copies of the commands of `record` back to back, submits them,
    /// waits, and returns how long one copy took on average; the first call sizes the burst.
    pub fn time_burst(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        burst: &Burst,
        mut record: impl FnMut(&mut wgpu::CommandEncoder) -> Result<()>,
    ) -> Result<Duration> {
        let count = burst.count();
        let total = self.time(device, queue, |e| (0..count).try_for_each(|_| record(e)))?;
        let each = total / count;
        burst.learn(each);
        Ok(each)
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

/// How many copies of one kernel a timed sample records back to back: one at first (the
/// warm-up round), then enough to last `MIN_SAMPLE`. An H100 idle for the few hundred
/// milliseconds of a readback ran the next 1 ms kernel at a fraction of its clocks: Perlin 3D
/// at 8192^2 timed 5.2 ms after a readback and 0.7 ms in a busy run.
#[derive(Default)]
pub struct Burst(Cell<u32>);

/// The shortest timed sample: long enough for a GPU's clocks to rise and settle.
const MIN_SAMPLE: Duration = Duration::from_millis(20);
/// The most copies in a burst (a kernel of under 20 us is timed over fewer than 20 ms).
const MAX_BURST: u32 = 1024;

impl Burst {
    pub fn count(&self) -> u32 {
        self.0.get().max(1)
    }

    /// Sizes the burst from the first sample's time per copy; later samples keep it.
    fn learn(&self, each: Duration) {
        if self.0.get() == 0 {
            let copies = MIN_SAMPLE.as_secs_f64() / each.as_secs_f64().max(1e-9);
            self.0.set((copies.ceil() as u32).clamp(1, MAX_BURST));
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
