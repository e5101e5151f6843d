//! What the C API holds and does, in safe Rust: a prepared job and its renders, and the checks
//! of the caller's pointers.

use std::ffi::c_char;

use gpu_noise::gpu::RendererOptions;
use gpu_noise::low_level::gpu::shared_renderer;
use gpu_noise::low_level::spec_file::SpecFile;
use gpu_noise::{Job, Renderer, Size, Window, cpu, simd};

use crate::{Failure, GN_BACKEND_GPU, GN_BACKEND_SIMD, GN_BACKEND_TWIN};

/// A spec's or graph's prepared job: what `gn_noise_new` returns (opaque to C).
pub struct GnNoise {
    pub(crate) job: Job,
}

impl GnNoise {
    /// The job a spec file's or a graph's JSON describes (the tool's own reader).
    pub(crate) fn from_json(text: &str) -> Result<Self, Failure> {
        let layer = SpecFile::from_spec_or_graph_json(text)?;
        let job = match layer.graph()? {
            Some(graph) => layer.place_graph(graph)?.0,
            None => layer.noise_spec()?.validate()?,
        };
        Ok(GnNoise { job })
    }

    /// `window` on `backend` into `out` (exactly the window's texels).
    pub(crate) fn render(
        &self,
        backend: u32,
        window: Window,
        out: &mut [f32],
    ) -> Result<(), Failure> {
        let job = &self.job;
        match backend {
            GN_BACKEND_TWIN => cpu::render_window_into(job, window, out, |v| v as f32, &|_, _| {})?,
            GN_BACKEND_SIMD => {
                job.check_gpu_precision()?;
                simd::render_window_into(job, window, out, &|_, _| {})?;
            }
            GN_BACKEND_GPU => {
                job.check_gpu_precision()?;
                job.check_gpu_kernel()?;
                let mut renderer = renderer()?;
                let renderer = renderer
                    .as_mut()
                    .ok_or_else(|| Failure::argument("the GPU renderer is gone"))?;
                renderer.read_into(job, window, out)?;
            }
            other => {
                return Err(Failure::argument(format!(
                    "backend: {other} is not one of GN_BACKEND_TWIN (0), GN_BACKEND_SIMD (1), \
                     GN_BACKEND_GPU (2)"
                )));
            }
        }
        Ok(())
    }

    /// The twin at root points (texel units), four coordinates each.
    pub(crate) fn sample(&self, coords: &[f64], out: &mut [f64]) -> Result<(), Failure> {
        let points: Vec<[f64; 4]> = coords
            .chunks_exact(4)
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect();
        if let Some(i) = points.iter().position(|p| p.iter().any(|c| !c.is_finite())) {
            return Err(Failure::argument(format!(
                "points: point {i} is not finite"
            )));
        }
        self.job.check_texel_points(&points)?;
        out.copy_from_slice(&cpu::sample_texels(&self.job, &points));
        Ok(())
    }
}

/// The window at `origin` of `size` texels, inside the job's image.
pub(crate) fn window(job: &Job, origin: &[u32], size: &[u32]) -> Result<Window, Failure> {
    if size.contains(&0) {
        return Err(Failure::argument(format!(
            "size: {size:?} has an axis of 0 texels; each is at least 1"
        )));
    }
    let window = Window::new(
        [origin[0], origin[1], origin[2]],
        Size::new(size[0], size[1], size[2]),
    );
    window
        .check_inside(job.size())
        .map_err(|e| Failure::argument(e.to_string()))?;
    window
        .check_in_memory()
        .map_err(|e| Failure::argument(e.to_string()))?;
    Ok(window)
}

/// One renderer a process: opening an adapter and building pipelines costs far more than a
/// small render.
fn renderer() -> Result<std::sync::MutexGuard<'static, Option<Renderer>>, Failure> {
    let open = |choice: &_| pollster::block_on(Renderer::open(choice, RendererOptions::default()));
    Ok(shared_renderer(open)?)
}

/// The caller's UTF-8 text.
///
/// # Safety
/// `json` points to `len` readable bytes, or is NULL (an error).
pub(crate) unsafe fn text<'a>(json: *const c_char, len: usize) -> Result<&'a str, Failure> {
    // SAFETY: passed on from the caller.
    let bytes = unsafe { slice(json.cast::<u8>(), len, "json") }?;
    std::str::from_utf8(bytes).map_err(|e| Failure::argument(format!("json: not UTF-8 ({e})")))
}

/// The live noise behind `noise`.
///
/// # Safety
/// `noise` is NULL (an error) or came from `gn_noise_new` and was not freed.
pub(crate) unsafe fn live<'a>(noise: *const GnNoise) -> Result<&'a GnNoise, Failure> {
    // SAFETY: a non-NULL pointer from gn_noise_new, as the caller promised.
    unsafe { noise.as_ref() }.ok_or_else(|| Failure::argument("noise is NULL"))
}

/// `len` values at `ptr`, named `what` in the error where it is NULL.
///
/// # Safety
/// `ptr` points to `len` readable values, or is NULL (an error).
pub(crate) unsafe fn slice<'a, T>(
    ptr: *const T,
    len: usize,
    what: &str,
) -> Result<&'a [T], Failure> {
    if ptr.is_null() {
        return Err(Failure::argument(format!("{what} is NULL")));
    }
    // SAFETY: non-NULL, and `len` readable values, as the caller promised.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// `len` writable values at `ptr`, named `what` in the error where it is NULL.
///
/// # Safety
/// `ptr` points to `len` writable values, or is NULL (an error).
pub(crate) unsafe fn slice_mut<'a, T>(
    ptr: *mut T,
    len: usize,
    what: &str,
) -> Result<&'a mut [T], Failure> {
    if ptr.is_null() {
        return Err(Failure::argument(format!("{what} is NULL")));
    }
    // SAFETY: non-NULL, and `len` writable values, as the caller promised.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}
