//! What a Python call renders: the tool's own spec-file reader (`SpecFile`, the JSON that
//! `gpu-noise render --spec` reads and `--print-spec` writes) or a bare graph, with the call's
//! size, offset and channels over the file's.

use gpu_noise::low_level::spec_file::{Channels, SpecFile};
use gpu_noise::low_level::text::quoted;
use gpu_noise::{Error, Job, NoiseSpec, Result};

/// The call's image fields, each over the spec's own where given.
#[derive(Default)]
pub struct Overrides {
    pub size: Option<Vec<u32>>,
    pub offset: Option<Vec<f64>>,
    pub channels: Option<String>,
}

/// The spec-file layer of `text`: a spec file, or a graph (an object with `nodes`) as the
/// spec file `{"graph": ...}` (the library's reader, which the C API shares).
pub fn layer(text: &str) -> Result<SpecFile> {
    SpecFile::from_spec_or_graph_json(text)
}

/// The job `text` describes with `over` applied, and its image's spec.
pub fn job(text: &str, over: Overrides) -> Result<(Job, NoiseSpec)> {
    let mut layer = layer(text)?;
    if over.size.is_some() {
        layer.size = over.size;
    }
    if over.offset.is_some() {
        layer.offset = over.offset;
    }
    let channels = match over.channels.as_deref() {
        None => layer.channels.unwrap_or_default(),
        Some("value") => Channels::Value,
        Some("gradient") => Channels::Gradient,
        Some(other) => {
            return Err(Error::InvalidSpec {
                field: "channels",
                reason: format!("must be \"value\" or \"gradient\", got {}", quoted(other)),
            });
        }
    };
    if channels == Channels::Normal {
        return Err(Error::InvalidSpec {
            field: "channels",
            reason: "\"normal\" is an image format: render \"gradient\" and shade it".into(),
        });
    }
    layer.channels = None;
    let (job, spec) = match layer.graph()? {
        Some(graph) => layer.place_graph(graph)?,
        None => {
            let spec = layer.noise_spec()?;
            (spec.validate()?, spec)
        }
    };
    let job = match channels {
        Channels::Gradient => job.with_gradient()?,
        _ => job,
    };
    Ok((job, spec))
}
