//! Encoders whose state borrows from itself (TIFF's image encoder borrows its file encoder;
//! EXR pulls pixels through a closure) run on a thread of their own and take bands of rows
//! from a bounded channel: memory stays at a couple of bands.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::ImageWriter;
use super::atomic::OutputFile;
use crate::error::{Error, Result};

/// Bands waiting for the encoder thread at most.
const QUEUE: usize = 2;

/// Bands of rows as the encoder thread receives them.
pub(super) type Rows = Receiver<Vec<f32>>;

pub(super) struct ThreadedWriter {
    file: Option<OutputFile>,
    sender: Option<SyncSender<Vec<f32>>>,
    worker: Option<JoinHandle<Result<()>>>,
    format: &'static str,
}

impl ThreadedWriter {
    /// Starts `encode` on its own thread; it writes through a sink of `file` and returns when
    /// the rows end (or fails).
    pub fn start(
        file: OutputFile,
        format: &'static str,
        encode: impl FnOnce(super::atomic::Sink, Rows) -> Result<()> + Send + 'static,
    ) -> Result<Self> {
        let sink = file.sink()?;
        let (sender, rows) = sync_channel(QUEUE);
        let worker = std::thread::Builder::new()
            .name(format!("{format} encoder"))
            .spawn(move || encode(sink, rows))
            .map_err(|e| Error::io(file.target(), e))?;
        Ok(Self {
            file: Some(file),
            sender: Some(sender),
            worker: Some(worker),
            format,
        })
    }

    /// The encoder thread's result (it has ended). When the encoder failed because writing
    /// failed (a full disk, `ulimit -f`), the write's error is the one reported: it names the
    /// file, where the encoder's own message ("encoding OpenEXR: File too large") does not.
    fn join(&mut self) -> Result<()> {
        drop(self.sender.take());
        let ended = match self.worker.take() {
            Some(worker) => worker.join().map_err(|_| Error::Encode {
                format: self.format,
                reason: "the encoder thread panicked".into(),
            })?,
            None => Ok(()),
        };
        match (ended, &self.file) {
            (Err(encoder), Some(file)) => Err(file.write_error().unwrap_or(encoder)),
            (ended, _) => ended,
        }
    }
}

impl ImageWriter for ThreadedWriter {
    fn write_rows(&mut self, values: &[f32]) -> Result<()> {
        super::check_finite(values)?;
        let sent = match &self.sender {
            Some(sender) => sender.send(values.to_vec()).is_ok(),
            None => false,
        };
        if sent {
            return Ok(());
        }
        // The encoder stopped early: its error says why.
        self.join()?;
        Err(Error::Encode {
            format: self.format,
            reason: "the encoder stopped before the image was complete".into(),
        })
    }

    fn finish(mut self: Box<Self>) -> Result<()> {
        self.join()?;
        match self.file.take() {
            Some(file) => file.commit(),
            None => Ok(()),
        }
    }
}

impl Drop for ThreadedWriter {
    fn drop(&mut self) {
        // An unfinished writer: end the encoder before the file (and its temporary) goes.
        let _ = self.join();
    }
}
