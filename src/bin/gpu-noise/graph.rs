//! `--graph FILE.json`: a noise graph (CONVENTIONS §13) instead of one kind. The graph file
//! holds the noise; flags and `--spec` give the image (size, offset, output, levels), and
//! `--seed` and `--lattice` override the graph's own. Once placed (`World::of`) it renders as
//! any job does.

use std::io::Read;
use std::path::Path;

use gpu_noise::graph::MAX_GRAPH_BYTES;
use gpu_noise::{Error, Graph, Result};

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

/// An error of `--graph` (the spec file's `graph` field).
pub fn graph_flag_error(reason: String) -> Error {
    Error::InvalidSpec {
        field: "graph",
        reason,
    }
}
