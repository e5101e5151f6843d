//! What one `render` renders, flat spec or graph alike: the job every backend runs, the
//! image's spec (size, dims and the levels' defaults, which exporters and tile sets read), and
//! the spec file that renders it again bit for bit (`--print-spec`, a tile set's index).

use gpu_noise::low_level::spec_file::SpecFile;
use gpu_noise::{Graph, Job, NoiseSpec, Result};

/// One render's world.
pub struct World {
    /// What every backend runs.
    pub job: Job,
    /// The image: size, dims, offset and the levels' defaults.
    pub spec: NoiseSpec,
    /// The spec file that renders it again.
    pub effective: SpecFile,
}

impl World {
    /// The world a spec-file layer describes: its graph (`--graph` or the `graph` field), else
    /// its flat spec.
    pub fn of(layer: &SpecFile, graph: Option<(Graph, String)>) -> Result<World> {
        match graph {
            Some((graph, text)) => crate::graph::world(layer, graph, &text),
            None => {
                let spec = layer.noise_spec()?;
                Ok(World {
                    job: spec.validate()?,
                    effective: layer.effective(&spec),
                    spec,
                })
            }
        }
    }

    /// Noise samples per texel, for rates (Msamples/s).
    pub fn samples_per_texel(&self) -> u64 {
        self.job.noise_evaluations() as u64
    }

    /// What the render is, for messages: `perlin 2D`, or `a graph of 11 nodes`.
    pub fn describe(&self) -> String {
        match self.job.graph() {
            Some(graph) => format!(
                "a graph of {}, {} per texel",
                count(graph.nodes().len(), "node"),
                count(self.job.noise_evaluations(), "noise evaluation")
            ),
            None => format!("{} {}D", self.spec.kind, self.spec.dims),
        }
    }
}

/// `1 node`, `2 nodes`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
