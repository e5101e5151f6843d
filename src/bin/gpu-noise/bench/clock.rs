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

pub struct Clock {
    how: How,
    /// Busy the GPU this long before each timed burst (hardware adapters: their clocks fall
    /// while the host works between samples; a software adapter's do not).
    ramp: Duration,
}

enum How {
    Timestamps(Timestamps),
    WallTime,
}

/// GPU work run untimed before each timed burst on a hardware adapter. On an H100, 20 ms
/// bursts after a readback's idle spell still timed Perlin 3D on the hash lattices at a third
/// of the speed the same kernels reached back to back.
const RAMP: Duration = Duration::from_millis(200);

pub struct Timestamps {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readable: wgpu::Buffer,
    /// Nanoseconds per timestamp tick.
    period: f64,
}

impl Clock {
    /// Timestamps if `device` was opened with [`TIMESTAMPS`], wall time otherwise; `hardware`
    /// warms the GPU up before each timed burst.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, hardware: bool) -> Self {
        let ramp = if hardware { RAMP } else { Duration::ZERO };
        Clock {
            how: How::new(device, queue),
            ramp,
        }
    }

    /// What the figures measure, for the report.
    pub fn describe(&self) -> &'static str {
        match (&self.how, self.ramp.is_zero()) {
            (How::Timestamps(_), true) => "kernel time from timestamp queries",
            (How::Timestamps(_), false) => {
                "kernel time from timestamp queries, after 200 ms of untimed warm-up a sample"
            }
            (How::WallTime, _) => {
                "dispatch-only wall time (submit and wait; the device has no timestamp queries)"
            }
        }
    }

    /// Records `burst.count()` copies of the commands of `record` back to back (after the
    /// warm-up copies), submits them, waits, and returns how long one copy took on average;
    /// the first call sizes the burst.
    pub fn time_burst(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        burst: &Burst,
        mut record: impl FnMut(&mut wgpu::CommandEncoder) -> Result<()>,
    ) -> Result<Duration> {
        let (warm, count) = (burst.warm_up(), burst.count());
        let mut encoder = device.create_command_encoder(&Default::default());
        (0..warm).try_for_each(|_| record(&mut encoder))?;
        if matches!(self.how, How::WallTime) && warm > 0 {
            // The wall clock would count the warm-up: it runs to the end first.
            queue.submit([encoder.finish()]);
            wait(device)?;
            encoder = device.create_command_encoder(&Default::default());
        }
        let total = (self.how).time(device, queue, encoder, |e| {
            (0..count).try_for_each(|_| record(e))
        })?;
        let each = total / count;
        burst.learn(each, self.ramp);
        Ok(each)
    }
}

impl How {
    fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        if !device.features().contains(TIMESTAMPS) {
            return How::WallTime;
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
        How::Timestamps(Timestamps {
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

    /// Records the commands of `record` after what `encoder` holds, submits them, waits, and
    /// returns how long `record`'s commands took (timestamps) or the whole submission did.
    fn time(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        mut encoder: wgpu::CommandEncoder,
        record: impl FnOnce(&mut wgpu::CommandEncoder) -> Result<()>,
    ) -> Result<Duration> {
        let start = Instant::now();
        match self {
            How::WallTime => {
                record(&mut encoder)?;
                queue.submit([encoder.finish()]);
                wait(device)?;
                Ok(start.elapsed())
            }
            How::Timestamps(t) => {
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
pub struct Burst(Cell<(u32, u32)>);

/// The shortest timed sample: long enough for a GPU's clocks to rise and settle.
const MIN_SAMPLE: Duration = Duration::from_millis(20);
/// The most copies in a burst (a kernel of under 20 us is timed over fewer than 20 ms).
const MAX_BURST: u32 = 1024;

impl Burst {
    pub fn count(&self) -> u32 {
        self.0.get().0.max(1)
    }

    /// Untimed copies before the timed ones (none until the burst is sized).
    fn warm_up(&self) -> u32 {
        self.0.get().1
    }

    /// Sizes the burst and its warm-up (`ramp` of GPU work) from the first sample's time per
    /// copy; later samples keep them.
    fn learn(&self, each: Duration, ramp: Duration) {
        if self.0.get().0 == 0 {
            let copies = |d: Duration| d.as_secs_f64() / each.as_secs_f64().max(1e-9);
            let timed = (copies(MIN_SAMPLE).ceil() as u32).clamp(1, MAX_BURST);
            let warm = (copies(ramp).ceil() as u32).min(MAX_BURST * 10);
            self.0.set((timed, warm));
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
