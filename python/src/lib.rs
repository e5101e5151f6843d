//! gpu_noise._native: the Rust library behind the `gpu_noise` Python package (python/README.md).
//! Specs and graphs arrive as the tool's own JSON (one reader, `SpecFile`); renders come back as
//! numpy arrays shaped as the `.npy` export writes them; library errors become `NoiseError`, a
//! `ValueError` whose message names the field or the node as the tool's do.

mod args;
mod engine;
mod world;

use gpu_noise::low_level::export::image_axes;
use gpu_noise::{Window, cpu};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArrayDyn, PyReadonlyArray2};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use engine::Backend;
use world::Overrides;

create_exception!(
    _native,
    NoiseError,
    PyValueError,
    "A spec, graph or call gpu-noise refuses; the message names the field or the node and the \
     allowed range, as the tool's errors do."
);

/// How many times this process probed the GPU adapters for `backend="auto"`.
#[pyfunction]
fn _adapter_probes() -> usize {
    engine::PROBES.load(std::sync::atomic::Ordering::Relaxed)
}

fn noise_error(e: gpu_noise::Error) -> PyErr {
    NoiseError::new_err(e.to_string())
}

/// Renders `spec` (JSON text: a spec file or a graph) to a float32 array in the `.npy`
/// export's shape ([`array_shape`]); `window` = (x, y, z, width, height, depth) renders only
/// that part of the image, bit for bit the same texels.
#[pyfunction]
#[pyo3(signature = (spec, size=None, offset=None, channels=None, backend="auto", window=None))]
fn render<'py>(
    py: Python<'py>,
    spec: &str,
    size: Option<Vec<Bound<'py, PyAny>>>,
    offset: Option<Vec<f64>>,
    channels: Option<String>,
    backend: &str,
    window: Option<Vec<Bound<'py, PyAny>>>,
) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
    let over = Overrides {
        size: size.map(|s| args::sides(&s)).transpose()?,
        offset,
        channels,
    };
    let (job, image) = world::job(spec, over).map_err(noise_error)?;
    let window = match window {
        Some(numbers) => args::window(&numbers)?,
        None => Window::full(job.size()),
    };
    window.check_inside(job.size()).map_err(noise_error)?;
    let per_texel = cpu::channels(&job);
    let axes = image_axes(window.size, image.dims);
    let kept = if per_texel > 1 { 1 + axes } else { 1 };
    let mut values = args::array_memory(window, kept)?;
    let backend = py
        .detach(|| Backend::choose(backend, &job))
        .map_err(noise_error)?;
    let mut scratch = Vec::new();
    let mut done = 0;
    for band in window.bands(engine::BAND_TEXELS) {
        let n = band.texels() as usize;
        let out = &mut values[done * kept..(done + n) * kept];
        if kept == per_texel {
            py.detach(|| backend.render_into(&job, band, out))
                .map_err(noise_error)?;
        } else {
            scratch.resize(n * per_texel, 0.0);
            py.detach(|| backend.render_into(&job, band, &mut scratch))
                .map_err(noise_error)?;
            // The value and one derivative per image axis, as the `.npy` export keeps them.
            for (kept_part, texel) in out
                .chunks_exact_mut(kept)
                .zip(scratch.chunks_exact(per_texel))
            {
                kept_part.copy_from_slice(&texel[..kept]);
            }
        }
        done += n;
        // Ctrl-C raises here, between bands.
        py.check_signals()?;
    }
    let shape = array_shape(image.dims, window.size, kept);
    let array = ArrayD::from_shape_vec(IxDyn(&shape), values)
        .map_err(|e| NoiseError::new_err(format!("internal: {e}")))?;
    Ok(array.into_pyarray(py))
}

/// The `.npy` export's shape: (H, W), volumes (D, H, W); with gradients (D,) (H,) W and a last
/// axis of components, H only for 2+ dims (CONVENTIONS §12).
fn array_shape(dims: u32, size: gpu_noise::Size, components: usize) -> Vec<usize> {
    let (w, h, d) = (
        size.width as usize,
        size.height as usize,
        size.depth as usize,
    );
    let mut shape = if d > 1 { vec![d] } else { vec![] };
    if components == 1 {
        shape.extend([h, w]);
    } else {
        if dims >= 2 {
            shape.push(h);
        }
        shape.extend([w, components]);
    }
    shape
}

/// The f64 twin at `points` (N rows of `dims` coordinates), as `gpu-noise sample` evaluates
/// them: a flat spec's in noise space (its frequency not applied), a graph's at root points in
/// texel units. The spec's image fields (size, offset) do not apply.
#[pyfunction]
fn sample<'py>(
    py: Python<'py>,
    spec: &str,
    points: PyReadonlyArray2<'py, f64>,
) -> PyResult<Bound<'py, numpy::PyArray1<f64>>> {
    let mut layer = world::layer(spec).map_err(noise_error)?;
    layer.size = None;
    layer.offset = None;
    let points = points.as_array();
    let dims = points.ncols();
    let rows: Vec<[f64; 4]> = points
        .rows()
        .into_iter()
        .map(|r| std::array::from_fn(|a| if a < dims { r[a] } else { 0.0 }))
        .collect();
    let values = py.detach(|| -> gpu_noise::Result<Vec<f64>> {
        match layer.graph()? {
            Some(graph) => {
                let (job, _) = layer.place_graph(graph)?;
                check_dims(dims, job.dims())?;
                job.check_texel_points(&rows)?;
                Ok(cpu::sample_texels(&job, &rows))
            }
            None => {
                let spec = layer.noise_spec()?;
                check_dims(dims, spec.dims)?;
                spec.check_points(&rows)?;
                Ok(cpu::sample(&spec.validate()?, &rows))
            }
        }
    });
    Ok(values.map_err(noise_error)?.into_pyarray(py))
}

fn check_dims(columns: usize, dims: u32) -> gpu_noise::Result<()> {
    if columns == dims as usize {
        return Ok(());
    }
    Err(gpu_noise::Error::InvalidSpec {
        field: "points",
        reason: format!("need {dims} columns (the spec's dims), got {columns}"),
    })
}

/// The largest |GPU - twin| (or |SIMD - twin|) a correct f32 backend can produce for `spec`,
/// and why (CONVENTIONS §7, §13).
#[pyfunction]
#[pyo3(signature = (spec, size=None, offset=None))]
fn error_bound(
    spec: &str,
    size: Option<Vec<Bound<'_, PyAny>>>,
    offset: Option<Vec<f64>>,
) -> PyResult<(f64, String)> {
    let over = Overrides {
        size: size.map(|s| args::sides(&s)).transpose()?,
        offset,
        channels: None,
    };
    let (job, _) = world::job(spec, over).map_err(noise_error)?;
    let bound = job.gpu_error_bound();
    Ok((bound.value, bound.reason))
}

/// Seconds of the median of `repeat` renders of `spec` through the Rust library alone (the
/// backend's `render_window_into` or `Renderer::read` of the whole image into a buffer
/// allocated as `render`'s is, no bands, no numpy):
/// the baseline `python/bench/overhead.py` holds `render` against.
#[pyfunction]
#[pyo3(signature = (spec, size, backend="auto", repeat=5))]
fn _time_rust_render(
    py: Python<'_>,
    spec: &str,
    size: Vec<u32>,
    backend: &str,
    repeat: usize,
) -> PyResult<f64> {
    let over = Overrides {
        size: Some(size),
        ..Overrides::default()
    };
    let (job, _) = world::job(spec, over).map_err(noise_error)?;
    let backend = Backend::choose(backend, &job).map_err(noise_error)?;
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat.max(1) {
        let start = std::time::Instant::now();
        let mut out = vec![0.0f32; job.size().texels() as usize * cpu::channels(&job)];
        py.detach(|| backend.render_into(&job, Window::full(job.size()), &mut out))
            .map_err(noise_error)?;
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// Every kind's name and its lowest and highest dims, from the kind table (CONVENTIONS §3).
#[pyfunction]
fn kinds() -> Vec<(String, u32, u32)> {
    (gpu_noise::Kind::ALL.iter())
        .map(|k| (k.name().to_string(), k.info().dims[0], k.info().dims[1]))
        .collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NoiseError", m.py().get_type::<NoiseError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(render, m)?)?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(error_bound, m)?)?;
    m.add_function(wrap_pyfunction!(kinds, m)?)?;
    m.add_function(wrap_pyfunction!(_time_rust_render, m)?)?;
    m.add_function(wrap_pyfunction!(_adapter_probes, m)?)?;
    Ok(())
}
