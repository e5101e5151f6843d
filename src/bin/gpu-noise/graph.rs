//! `--graph FILE.json`: a noise graph (CONVENTIONS §13) instead of one kind. The graph file
//! holds the noise; flags and `--spec` give the image (size, offset, output, levels), and
//! `--seed` and `--lattice` override the graph's own. Once placed it renders as any job does.

use std::io::Read;
use std::path::Path;

use gpu_noise::graph::MAX_GRAPH_BYTES;
use gpu_noise::{Error, Graph, NoiseSpec, Result};

use crate::world::World;
use gpu_noise::low_level::spec_file::{GraphText, SpecFile};

/// Reads a graph file's text (at most [`MAX_GRAPH_BYTES`], UTF-8).
fn read_graph_text(path: &Path) -> Result<String> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_GRAPH_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() > MAX_GRAPH_BYTES {
        return Err(graph_flag_error(format!(
            "{} is larger than {} KiB; a graph is a small JSON object",
            path.display(),
            MAX_GRAPH_BYTES / 1024
        )));
    }
    String::from_utf8(bytes)
        .map_err(|_| graph_flag_error(format!("{} is not UTF-8 text", path.display())))
}

/// Reads and validates a graph file.
pub fn read_graph(path: &Path) -> Result<Graph> {
    Graph::from_json(&read_graph_text(path)?)
}

/// The graph of a command, if any, and its JSON text: `--graph FILE` or a spec file's `graph`
/// (the flag wins, as flags override spec files).
pub fn load(path: Option<&Path>, layer: &SpecFile) -> Result<Option<(Graph, String)>> {
    let text = match (path, &layer.graph) {
        (Some(path), _) => read_graph_text(path)?,
        (None, Some(GraphText(text))) => text.clone(),
        (None, None) => return Ok(None),
    };
    Ok(Some((Graph::from_json(&text)?, text)))
}

fn graph_flag_error(reason: String) -> Error {
    Error::InvalidSpec {
        field: "graph",
        reason,
    }
}

/// The world of a graph placed in the image `layer` describes (`SpecFile::place_graph`), and
/// the spec file that renders it again.
pub fn world(layer: &SpecFile, graph: Graph, text: &str) -> Result<World> {
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
