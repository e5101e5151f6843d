//! `gpu-noise sample`: points from stdin in noise space, one value per line on stdout, streamed
//! in batches (memory does not grow with the input; output appears as it goes).

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::low_level::text::quoted;
use gpu_noise::{Error, Job, Result, cpu};

use crate::args::SampleArgs;
use crate::backend::{BackendChoice, Engine};
use gpu_noise::low_level::spec_file::SpecFile;

/// Points evaluated per batch.
const BATCH: usize = 1 << 16;

/// The longest input line read, in bytes (four f64 in any notation fit many times over): a
/// longer one is an error, so a huge token never fills memory.
const MAX_LINE: usize = 4096;

pub fn run(args: SampleArgs) -> Result<ExitCode> {
    // Flags that sample would ignore are refused; a spec file's are set aside, since the spec
    // a render prints (`--print-spec`) always holds its image's offset, size and frequency.
    let flags = args.noise.layer();
    let layer = image_fields_set_aside(crate::spec_layers(&args.noise)?);
    if let Some((graph, _)) = crate::graph::load(args.graph.as_deref(), &layer)? {
        return run_graph(&args, graph, &layer, &flags);
    }
    refuse_what_sample_ignores(&flags)?;
    let spec = layer.noise_spec()?;
    let prepared = spec.validate()?;
    let dims = spec.dims as usize;
    let mut engine = match args.backend {
        BackendChoice::Cpu => Engine::Cpu,
        choice => Engine::open(choice, &prepared)?,
    };
    stream_points(dims, |batch, line_no, out| {
        evaluate(&mut engine, &prepared, batch, line_no, out)
    })
}

/// `sample --graph`: the graph's f64 twin at root points (texel units, CONVENTIONS §13).
fn run_graph(
    args: &SampleArgs,
    graph: gpu_noise::Graph,
    layer: &SpecFile,
    flags: &SpecFile,
) -> Result<ExitCode> {
    if args.backend != BackendChoice::Cpu {
        return Err(Error::InvalidSpec {
            field: "backend",
            reason: "graphs sample on the cpu backend (the f64 twin)".into(),
        });
    }
    // The flags themselves: the spec file's image fields were set aside above.
    flags.refuse_noise_fields()?;
    for (field, given) in [
        ("offset", flags.offset.is_some()),
        ("size", flags.size.is_some()),
    ] {
        if given {
            return Err(Error::InvalidSpec {
                field,
                reason: "does not apply to sample --graph: points are the graph's own (texel \
                         units, the offset already added)"
                    .into(),
            });
        }
    }
    let (job, _) = layer.place_graph(graph)?;
    let dims = job.dims() as usize;
    stream_points(dims, |batch, line_no, out| {
        (job.check_texel_points(batch)).map_err(|e| in_batch(e, line_no))?;
        let mut text = String::with_capacity(batch.len() * 20);
        for v in cpu::sample_texels(&job, batch) {
            text.push_str(&significant17(v));
            text.push('\n');
        }
        out.write_all(text.as_bytes()).map_err(crate::stdout_error)
    })
}

/// Reads points of `dims` coordinates from stdin, line by line, and hands them to `evaluate`
/// in batches (with the last line number read) together with stdout.
fn stream_points(
    dims: usize,
    mut evaluate: impl FnMut(&[[f64; 4]], usize, &mut dyn Write) -> Result<()>,
) -> Result<ExitCode> {
    let mut stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut batch = Vec::with_capacity(BATCH);
    let mut line = Vec::new();
    let mut line_no = 0usize;
    loop {
        line.clear();
        let read = (&mut stdin)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::io("stdin", e))?;
        if read > 0 {
            line_no += 1;
            if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
                return Err(Error::InvalidSpec {
                    field: "points",
                    reason: format!("line {line_no} is longer than {MAX_LINE} bytes"),
                });
            }
            if let Some(point) = parse_point(&line, dims, line_no)? {
                batch.push(point);
            }
        }
        // Evaluate when the batch is full, or when no more input is buffered (the next read
        // would wait): piped files go in large batches, interactive input line by line.
        if read == 0 || batch.len() == BATCH || stdin.buffer().is_empty() {
            if !batch.is_empty() {
                evaluate(&batch, line_no, &mut stdout)?;
            }
            batch.clear();
            stdout.flush().map_err(crate::stdout_error)?;
        }
        if read == 0 {
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// A render's spec without what only its image uses: the offset, the output and its levels
/// always; the size and frequency unless the noise tiles (frequency x size is the period).
fn image_fields_set_aside(mut layer: SpecFile) -> SpecFile {
    layer.offset = None;
    if layer.tile != Some(true) {
        layer.size = None;
        layer.frequency = None;
    }
    layer.output = None;
    layer.bits = None;
    layer.range = None;
    layer.colormap = None;
    layer
}

/// Sample points are already in noise space: an offset or (without tiling) a frequency or
/// size would be ignored, so they are refused rather than silently dropped.
fn refuse_what_sample_ignores(layer: &gpu_noise::low_level::spec_file::SpecFile) -> Result<()> {
    let tiling = layer.tile == Some(true);
    let refuse = |field: &'static str, why: &str| Error::InvalidSpec {
        field,
        reason: format!("does not apply to sample: {why}"),
    };
    if layer.offset.is_some() {
        return Err(refuse(
            "offset",
            "points are read in noise space; add the offset to them",
        ));
    }
    if !tiling && layer.frequency.is_some() {
        return Err(refuse(
            "frequency",
            "points are read in noise space (lattice cells); multiply them by the frequency, \
             or use it with --tile, where frequency x size sets the period",
        ));
    }
    if !tiling && layer.size.is_some() {
        return Err(refuse(
            "size",
            "only --tile uses it (frequency x size sets the period)",
        ));
    }
    Ok(())
}

fn evaluate(
    engine: &mut Engine,
    prepared: &Job,
    points: &[[f64; 4]],
    last_line: usize,
    out: &mut dyn Write,
) -> Result<()> {
    if points.is_empty() {
        return Ok(());
    }
    let mut text = String::with_capacity(points.len() * 20);
    match engine {
        Engine::Gpu(renderer) => {
            let values = (renderer.sample(prepared, points)).map_err(|e| in_batch(e, last_line))?;
            for v in values {
                text.push_str(&format!("{v}\n"));
            }
        }
        // The SIMD backend renders images; points go to the f64 reference.
        Engine::Cpu | Engine::Simd => {
            if let Some(spec) = prepared.spec() {
                spec.check_points(points)
                    .map_err(|e| in_batch(e, last_line))?;
            }
            for v in cpu::sample(prepared, points) {
                text.push_str(&significant17(v));
                text.push('\n');
            }
        }
    }
    out.write_all(text.as_bytes()).map_err(crate::stdout_error)
}

/// Says where in the input a bad point is: its batch ends at `last_line` (one wording for
/// every backend).
fn in_batch(e: Error, last_line: usize) -> Error {
    match e {
        Error::InvalidSpec {
            field: "points",
            reason,
        } => Error::InvalidSpec {
            field: "points",
            reason: format!("{reason} (in the batch ending at line {last_line})"),
        },
        other => other,
    }
}

/// One point per non-blank line: exactly `dims` numbers separated by whitespace.
pub fn parse_point(bytes: &[u8], dims: usize, line_no: usize) -> Result<Option<[f64; 4]>> {
    let bad = |reason: String| Error::InvalidSpec {
        field: "points",
        reason: format!("line {line_no}: {reason}"),
    };
    let line = std::str::from_utf8(bytes).map_err(|_| bad("is not UTF-8 text".into()))?;
    if line.trim().is_empty() {
        return Ok(None);
    }
    let mut p = [0.0; 4];
    let mut count = 0;
    for word in line.split_whitespace() {
        let v = word
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| bad(format!("{} is not a finite number", quoted(word))))?;
        if count < dims {
            p[count] = v;
        }
        count += 1;
    }
    if count != dims {
        return Err(bad(format!(
            "expected {dims} coordinates for {dims} dims, got {count}"
        )));
    }
    Ok(Some(p))
}

/// An f64 with 17 significant digits in plain notation (enough to round-trip exactly).
pub fn significant17(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let decimals = (16 - v.abs().log10().floor() as i32).clamp(0, 340) as usize;
    format!("{v:.decimals$}")
}
