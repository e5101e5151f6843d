//! `render --graph FILE.json`: a noise graph (CONVENTIONS §13) instead of one kind. The graph
//! file holds the noise; flags and `--spec` give the image (size, offset, output, levels), and
//! `--seed` and `--lattice` override the graph's own.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use gpu_noise::export::{Format, create_writer};
use gpu_noise::graph::MAX_GRAPH_BYTES;
use gpu_noise::{AdapterChoice, Error, Graph, NoiseSpec, PreparedGraph, Result, Window};

use crate::args::RenderArgs;
use crate::backend::{BackendChoice, Engine, HardwareGpu};
use gpu_noise::spec_file::{Channels, GraphText, SpecFile};

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

fn refuse_single_kind_flags(layer: &SpecFile) -> Result<()> {
    let given = [
        ("normal_strength", layer.normal_strength.is_some()),
        (
            "channels",
            layer.channels.is_some_and(|c| c != Channels::Value),
        ),
    ];
    match given.iter().find(|(_, set)| *set) {
        Some((field, _)) => Err(Error::InvalidSpec {
            field,
            reason: "is not available with --graph yet: graphs render values (images, volumes and \
                     tile sets), not derivatives"
                .into(),
        }),
        None => Ok(()),
    }
}

/// The graph placed in the image the layer describes (`SpecFile::place_graph`).
pub fn prepare(graph: Graph, layer: &SpecFile) -> Result<(PreparedGraph, NoiseSpec)> {
    layer.place_graph(graph)
}

pub fn run(args: &RenderArgs, graph: Graph, text: &str, layer: &SpecFile) -> Result<ExitCode> {
    refuse_single_kind_flags(layer)?;
    let (prepared, spec) = prepare(graph, layer)?;
    let graph = prepared.graph();
    if args.print_spec {
        println!("{}", effective(layer, &spec, graph, text)?.to_json());
    }
    let Some(output) = layer.output.as_ref().map(std::path::PathBuf::from) else {
        if args.print_spec {
            return Ok(ExitCode::SUCCESS);
        }
        return Err(Error::InvalidSpec {
            field: "output",
            reason: "give an output file (.png, .exr, .tif, .f32, .npy), or --print-spec".into(),
        });
    };
    if let Some(tile) = args.tiles {
        let world = crate::tiles::World::Graph {
            prepared: &prepared,
            spec: &spec,
            effective: Box::new(effective(layer, &spec, graph, text)?),
        };
        return crate::tiles::run(args, layer, &world, tile, &output);
    }
    if args.tile_range.is_some() || args.tile_format.is_some() {
        let field = if args.tile_range.is_some() {
            "tile_range"
        } else {
            "tile_format"
        };
        return Err(Error::InvalidOutput {
            field,
            reason: "applies to tile sets only (with --tiles N)".into(),
        });
    }
    let (mut engine, notice) = open_engine(layer.backend.unwrap_or_default())?;
    if let Some(notice) = notice {
        eprintln!("gpu-noise: {notice}");
    }
    let format = Format::from_path(&output)?;
    let options = crate::render::export_options(layer, &spec, format)?;
    let writer = create_writer(&output, spec.size, &options)?;
    let start = Instant::now();
    let texels = spec.size.texels();
    let samples = texels * prepared.noise_evaluations() as u64;
    let bar = crate::progress::texel_bar(texels, samples, args.quiet, "rendering");
    stream(
        &mut engine,
        &prepared,
        Window::full(spec.size),
        writer,
        &bar,
    )?;
    bar.finish_and_clear();
    eprintln!(
        "gpu-noise: wrote {} ({} texels, a graph of {} nodes, {} noise evaluations per texel, \
         {:.2} Mtexels/s) in {} on {}",
        output.display(),
        texels,
        graph.nodes().len(),
        prepared.noise_evaluations(),
        texels as f64 / start.elapsed().as_secs_f64() / 1e6,
        crate::seconds(start.elapsed()),
        engine.name()
    );
    Ok(ExitCode::SUCCESS)
}

/// Renders `window` of the graph band by band into `writer` on `engine` (the GPU, or the twin).
pub fn stream(
    engine: &mut Engine,
    prepared: &PreparedGraph,
    window: Window,
    writer: Box<dyn gpu_noise::export::ImageWriter>,
    bar: &indicatif::ProgressBar,
) -> Result<()> {
    crate::render::stream_bands(window, writer, bar, |band| match engine {
        Engine::Gpu(renderer) => renderer.render_graph_window(prepared, band),
        _ => prepared.render_window_f32(band),
    })
}

/// The engine for a graph: the GPU (any adapter) for `gpu`; for `auto` a hardware GPU, else the
/// f64 CPU twin (graphs have no SIMD backend); the twin for `cpu`.
pub fn open_engine(choice: BackendChoice) -> Result<(Engine, Option<String>)> {
    match choice {
        BackendChoice::Simd => Err(Error::InvalidSpec {
            field: "backend",
            reason: "the SIMD backend takes single-kind specs; graphs render on gpu or cpu".into(),
        }),
        BackendChoice::Cpu => Ok((Engine::Cpu, None)),
        BackendChoice::Gpu => Ok((Engine::any_gpu(&AdapterChoice::from_env()?)?, None)),
        BackendChoice::Auto => match Engine::hardware_gpu(&AdapterChoice::from_env()?)? {
            HardwareGpu::Found(engine, name) => {
                Ok((engine, Some(format!("backend auto: GPU ({name})"))))
            }
            _ => Ok((
                Engine::Cpu,
                Some(
                    "backend auto: the f64 CPU twin, because no hardware GPU was found and graphs \
                     have no SIMD backend; --backend gpu uses a software adapter"
                        .into(),
                ),
            )),
        },
    }
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
