//! `render --graph FILE.json`: a noise graph (CONVENTIONS §13) instead of one kind. The graph
//! file holds the noise; flags and `--spec` give the image (size, offset, output, levels), and
//! `--seed` and `--lattice` override the graph's own.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use gpu_noise::export::{Format, create_writer};
use gpu_noise::graph::MAX_GRAPH_BYTES;
use gpu_noise::{Error, Graph, Kind, Result, Window};

use crate::args::RenderArgs;
use crate::backend::BackendChoice;
use crate::spec_file::SpecFile;

/// Reads and validates a graph file.
pub fn read_graph(path: &Path) -> Result<Graph> {
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
    let text = String::from_utf8(bytes)
        .map_err(|_| graph_flag_error(format!("{} is not UTF-8 text", path.display())))?;
    Graph::from_json(&text)
}

fn graph_flag_error(reason: String) -> Error {
    Error::InvalidSpec {
        field: "graph",
        reason,
    }
}

/// The noise fields a graph's nodes carry instead: given beside `--graph`, each is an error.
fn refuse_noise_fields(layer: &SpecFile) -> Result<()> {
    let given = [
        ("kind", layer.kind.is_some()),
        ("frequency", layer.frequency.is_some()),
        ("interp", layer.interp.is_some()),
        ("fractal", layer.fractal.is_some()),
        ("octaves", layer.octaves.is_some()),
        ("lacunarity", layer.lacunarity.is_some()),
        ("persistence", layer.persistence.is_some()),
        ("tile", layer.tile.is_some()),
        ("jitter", layer.jitter.is_some()),
        ("distance", layer.distance.is_some()),
        ("return", layer.cell_return.is_some()),
        ("density", layer.density.is_some()),
        ("gabor_frequency", layer.gabor_frequency.is_some()),
        ("gabor_orientation", layer.gabor_orientation.is_some()),
        ("gabor_bandwidth", layer.gabor_bandwidth.is_some()),
    ];
    match given.iter().find(|(_, set)| *set) {
        Some((field, _)) => Err(Error::InvalidSpec {
            field,
            reason: "is a node parameter in a graph: set it on the node in the --graph file".into(),
        }),
        None => Ok(()),
    }
}

fn refuse_single_kind_flags(args: &RenderArgs) -> Result<()> {
    let given = [
        ("tiles", args.tiles.is_some()),
        ("tile_range", args.tile_range.is_some()),
        ("tile_format", args.tile_format.is_some()),
        ("print_spec", args.print_spec),
        ("normal_strength", args.normal_strength.is_some()),
        (
            "channels",
            args.channels
                .is_some_and(|c| c != crate::args::Channels::Value),
        ),
    ];
    match given.iter().find(|(_, set)| *set) {
        Some((field, _)) => Err(Error::InvalidSpec {
            field,
            reason: "is not available with --graph yet; graphs render single images and volumes"
                .into(),
        }),
        None => Ok(()),
    }
}

pub fn run(args: &RenderArgs, path: &Path, layer: &SpecFile) -> Result<ExitCode> {
    refuse_noise_fields(layer)?;
    refuse_single_kind_flags(args)?;
    let mut graph = read_graph(path)?;
    if let Some(dims) = layer.dims.filter(|&d| d != graph.dims()) {
        return Err(Error::InvalidSpec {
            field: "dims",
            reason: format!("the graph is {}D; --dims {dims} disagrees", graph.dims()),
        });
    }
    if let Some(seed) = layer.seed {
        graph = graph.with_seed(seed);
    }
    if let Some(lattice) = layer.lattice {
        graph = graph.with_lattice(lattice);
    }
    // Size and offset follow the flat spec's rules for the graph's dims.
    let mut image = layer.clone();
    image.kind = Some(Kind::Value);
    image.dims = Some(graph.dims());
    image.seed = None;
    image.lattice = None;
    let spec = image.noise_spec()?;
    let prepared = graph.prepare(spec.size, spec.offset)?;
    let Some(output) = layer.output.as_ref().map(std::path::PathBuf::from) else {
        return Err(Error::InvalidSpec {
            field: "output",
            reason: "give an output file (.png, .exr, .tif, .f32, .npy)".into(),
        });
    };
    let backend = layer.backend.unwrap_or_default();
    if matches!(backend, BackendChoice::Gpu | BackendChoice::Simd) {
        return Err(Error::InvalidSpec {
            field: "backend",
            reason: "graphs render on the f64 CPU backend in this version; use cpu or auto".into(),
        });
    }
    let format = Format::from_path(&output)?;
    let options = crate::render::export_options(layer, &spec, format)?;
    let writer = create_writer(&output, spec.size, &options)?;
    let start = Instant::now();
    let texels = spec.size.texels();
    let samples = texels * prepared.noise_evaluations() as u64;
    let bar = crate::progress::texel_bar(texels, samples, args.quiet, "rendering");
    crate::render::stream_bands(Window::full(spec.size), writer, &bar, |band| {
        prepared.render_window_f32(band)
    })?;
    bar.finish_and_clear();
    eprintln!(
        "gpu-noise: wrote {} ({} texels, a graph of {} nodes, {} noise evaluations per texel, \
         {:.2} Mtexels/s) in {} on CPU ({} threads)",
        output.display(),
        texels,
        graph.nodes().len(),
        prepared.noise_evaluations(),
        texels as f64 / start.elapsed().as_secs_f64() / 1e6,
        crate::seconds(start.elapsed()),
        gpu_noise::cpu::threads()
    );
    Ok(ExitCode::SUCCESS)
}
