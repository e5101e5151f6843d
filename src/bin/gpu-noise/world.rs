//! What one `render` renders, flat spec or graph alike: the job every backend runs, the
//! image's spec (size, dims and the levels' defaults, which exporters and tile sets read), and
//! the spec file that renders it again bit for bit (`--print-spec`, a tile set's index).

use gpu_noise::low_level::spec_file::{GraphText, SpecFile};
use gpu_noise::{Graph, Job, NoiseSpec, Result};

use crate::graph::graph_flag_error;

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
            Some((graph, text)) => graph_world(layer, graph, &text),
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

/// The world of a graph placed in the image `layer` describes (`SpecFile::place_graph`), and
/// the spec file that renders it again.
fn graph_world(layer: &SpecFile, graph: Graph, text: &str) -> Result<World> {
    let (job, spec) = layer.place_graph(graph)?;
    // A job placed from a graph holds it (with the layer's seed and lattice).
    let graph = job
        .graph()
        .ok_or_else(|| graph_flag_error("is no graph".into()))?;
    let effective = effective(layer, &spec, graph, text)?;
    Ok(World {
        job,
        spec,
        effective,
    })
}

/// The spec file that renders this image again, bit for bit: the image's fields and the graph
/// with its effective seed and lattice.
fn effective(layer: &SpecFile, spec: &NoiseSpec, graph: &Graph, text: &str) -> Result<SpecFile> {
    let mut value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| graph_flag_error(e.to_string()))?;
    if let Some(object) = value.as_object_mut() {
        object.insert("seed".into(), graph.seed().into());
        object.insert("lattice".into(), graph.lattice().name().into());
    }
    let s = spec.size;
    Ok(SpecFile {
        offset: Some(spec.offset[..graph.dims() as usize].to_vec()),
        size: Some(if s.depth > 1 {
            vec![s.width, s.height, s.depth]
        } else {
            vec![s.width, s.height]
        }),
        bits: layer.bits,
        range: layer.range,
        colormap: layer.colormap.clone(),
        backend: layer.backend,
        output: layer.output.clone(),
        tiles: layer.tiles,
        tile_range: layer.tile_range.clone(),
        tile_format: layer.tile_format.clone(),
        graph: Some(GraphText(value.to_string())),
        ..SpecFile::default()
    })
}
