//! Where a view is rendered: the browser's WebGPU through the library's [`Renderer`], the SIMD
//! backend's lanes on the CPU (the GPU's f32 arithmetic, wasm `simd128`, single-threaded), or
//! the CPU twin (the f64 reference the others are checked against).

use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::low_level::levels::{normal_level, tangent_normal};
use gpu_noise::low_level::spec_file::{Channels, SpecFile};
use gpu_noise::{
    Colormap, Error, Job, NoiseSpec, Renderer, Window, cpu, gpu::AdapterChoice,
    gpu::RendererOptions, low_level::tolerance, simd,
};
use wasm_bindgen::prelude::*;

use crate::js_error;
use crate::view::View;

/// The largest side the page renders: 2048^2 texels is 16 MiB of values and 16 MiB of RGBA.
const MAX_SIDE: u32 = 2048;

/// A parsed spec: the job, its levels, the bound on |GPU - twin| and the spec as the tool would
/// print it.
struct Parsed {
    job: Job,
    image: NoiseSpec,
    range: (f64, f64),
    colormap: Option<Colormap>,
    bound: tolerance::Bound,
    effective: String,
    /// A normal map's height scale; `None` for a view of the values.
    normals: Option<f32>,
}

/// Reads a spec file's JSON with the tool's own parser; a graph in its `graph` field is placed
/// in the image its flat fields describe, as `gpu-noise render --spec` does.
fn parse(spec_json: &str) -> gpu_noise::Result<Parsed> {
    let file = SpecFile::from_json(spec_json)?;
    let (job, image, effective) = match file.graph()? {
        Some(graph) => {
            let (job, image) = file.place_graph(graph)?;
            (job, image, file.to_json())
        }
        None => {
            let image = file.noise_spec()?;
            let effective = file.effective(&image).to_json();
            (image.validate()?, image, effective)
        }
    };
    check_viewable(&image)?;
    let normals = normal_view(&file, &job)?;
    let job = match normals {
        Some(_) => job.with_gradient()?,
        None => job,
    };
    let bound = job.gpu_error_bound();
    let (range, colormap) = file.levels(&image)?;
    Ok(Parsed {
        job,
        image,
        range,
        colormap,
        bound,
        effective,
        normals,
    })
}

/// The normal map's strength when the spec asks for one (`channels: normal`): jobs with
/// analytic derivatives only (CONVENTIONS §12), as with the tool.
fn normal_view(file: &SpecFile, job: &Job) -> gpu_noise::Result<Option<f32>> {
    match file.check_channels()? {
        Channels::Value => Ok(None),
        Channels::Gradient => Err(Error::InvalidSpec {
            field: "channels",
            reason: "the previewer shows values and normal maps; render gradients with the tool"
                .into(),
        }),
        Channels::Normal => {
            job.with_gradient()?;
            Ok(Some(file.strength()?))
        }
    }
}

/// One slice of at most [`MAX_SIDE`] a side: the page shows images, not volumes.
fn check_viewable(image: &NoiseSpec) -> gpu_noise::Result<()> {
    let s = image.size;
    if s.depth > 1 || s.width > MAX_SIDE || s.height > MAX_SIDE {
        return Err(Error::InvalidSpec {
            field: "size",
            reason: format!(
                "the previewer shows one image of at most {MAX_SIDE}x{MAX_SIDE}; got {}x{}x{} \
                 (3D and 4D noise is shown as the slice at the offset's z and w)",
                s.width, s.height, s.depth
            ),
        });
    }
    Ok(())
}

/// How a previewer renders.
enum Engine {
    Gpu(Box<Renderer>),
    /// The SIMD backend's lanes (the twin where a view is beyond the GPU's f32).
    Lanes,
    Twin,
}

/// The page's renderer: WebGPU, the SIMD lanes or the CPU twin.
#[wasm_bindgen]
pub struct Previewer {
    engine: Engine,
    backend: String,
}

#[wasm_bindgen]
impl Previewer {
    /// Opens `engine`: `webgpu` (WebGPU's best adapter; on any failure the SIMD lanes, and
    /// [`backend`](Self::backend) says why), `lanes` or `twin`.
    pub async fn open(engine: String) -> Previewer {
        match engine.as_str() {
            "twin" => Previewer {
                engine: Engine::Twin,
                backend: "CPU twin in wasm (the f64 reference)".into(),
            },
            "lanes" => Self::lanes("one thread"),
            _ => match open_webgpu().await {
                Ok((renderer, name)) => Previewer {
                    engine: Engine::Gpu(Box::new(renderer)),
                    backend: format!("WebGPU: {name}"),
                },
                Err(why) => Self::lanes(&format!("no GPU: {why}")),
            },
        }
    }

    fn lanes(why: &str) -> Previewer {
        Previewer {
            engine: Engine::Lanes,
            backend: format!("CPU SIMD lanes in wasm ({why})"),
        }
    }

    /// `WebGPU: <adapter>`, `CPU SIMD lanes in wasm (<why>)` or `CPU twin in wasm (...)`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.backend.clone()
    }

    /// Whether views render on WebGPU.
    #[wasm_bindgen(getter)]
    pub fn gpu(&self) -> bool {
        matches!(self.engine, Engine::Gpu(_))
    }

    /// Whether views render on the f64 twin.
    #[wasm_bindgen(getter)]
    pub fn twin(&self) -> bool {
        matches!(self.engine, Engine::Twin)
    }

    /// Renders a spec (a spec file's JSON) on this previewer's backend.
    pub async fn render(&mut self, spec_json: String) -> Result<View, JsError> {
        let parsed = parse(&spec_json).map_err(js_error)?;
        let gpu = match &mut self.engine {
            Engine::Gpu(gpu) => gpu,
            Engine::Lanes => return lanes_view(parsed).map_err(js_error),
            Engine::Twin => return twin_view(parsed).map_err(js_error),
        };
        let window = Window::full(parsed.job.size());
        let values = gpu.read_async(&parsed.job, window).await;
        let texels = match parsed.normals {
            Some(strength) => Texels::Gradients(values, strength),
            None => Texels::Values(values),
        };
        view(parsed, texels, true).map_err(js_error)
    }
}

/// Renders a spec with the CPU twin: the values `gpu-noise render --spec ... --backend cpu`
/// writes, bit for bit (the page's PNG export).
#[wasm_bindgen]
pub fn render_twin_view(spec_json: String) -> Result<View, JsError> {
    twin_view(parse(&spec_json).map_err(js_error)?).map_err(js_error)
}

/// What a renderer gave: values, or `[value, d/dx, d/dy, d/dz]` a texel (four f32) for a
/// normal map of that strength.
enum Texels {
    Values(gpu_noise::Result<Vec<f32>>),
    Gradients(gpu_noise::Result<Vec<f32>>, f32),
}

/// The SIMD lanes' view: the GPU's f32 arithmetic on the CPU (wasm simd128), within the same
/// bound of the twin; the twin where the view is beyond the GPU's f32 (as `--backend auto`).
fn lanes_view(parsed: Parsed) -> gpu_noise::Result<View> {
    let window = Window::full(parsed.job.size());
    let values = lanes_window(&parsed.job, window);
    let texels = match parsed.normals {
        Some(strength) => Texels::Gradients(values, strength),
        None => Texels::Values(values),
    };
    view(parsed, texels, false)
}

/// `window` of a job on the lanes, or on the twin where the job is beyond the GPU's f32: one
/// f32 a texel, four with gradients.
pub(crate) fn lanes_window(job: &Job, window: Window) -> gpu_noise::Result<Vec<f32>> {
    if job.check_gpu_precision().is_err() {
        let mut out = vec![0.0; window.texels() as usize * cpu::channels(job)];
        cpu::render_window_into(job, window, &mut out, |v| v as f32, &|_, _| {})?;
        return Ok(out);
    }
    simd::render_window_f32(job, window)
}

/// Rows `first..first + rows` of a spec's image on the SIMD lanes (as [`Previewer`]'s lanes
/// render them): a web worker's band of a frame, one f32 a texel (four with a normal map's
/// gradients), rows in order.
#[wasm_bindgen]
pub fn render_lanes_rows(spec_json: String, first: u32, rows: u32) -> Result<Vec<f32>, JsError> {
    let parsed = parse(&spec_json).map_err(js_error)?;
    let size = parsed.job.size();
    let band = gpu_noise::Size::new(size.width, rows, size.depth);
    lanes_window(&parsed.job, Window::new([0, first, 0], band)).map_err(js_error)
}

/// The view of a spec from its texels rendered in bands ([`render_lanes_rows`], every row in
/// order): the levels, statistics and normal map of the lanes' frame.
#[wasm_bindgen]
pub fn view_of_lanes(spec_json: String, texels: Vec<f32>) -> Result<View, JsError> {
    let parsed = parse(&spec_json).map_err(js_error)?;
    let expected = parsed.job.size().texels() as usize * cpu::channels(&parsed.job);
    if texels.len() != expected {
        return Err(js_error(Error::InvalidSpec {
            field: "texels",
            reason: format!("{} values for an image that needs {expected}", texels.len()),
        }));
    }
    let texels = match parsed.normals {
        Some(strength) => Texels::Gradients(Ok(texels), strength),
        None => Texels::Values(Ok(texels)),
    };
    view(parsed, texels, false).map_err(js_error)
}

fn twin_view(parsed: Parsed) -> gpu_noise::Result<View> {
    // As the tool: the twin's f64 values (and partials) rounded to f32.
    let values = cpu::render_f32(&parsed.job);
    let texels = match parsed.normals {
        Some(strength) => Texels::Gradients(values, strength),
        None => Texels::Values(values),
    };
    view(parsed, texels, false)
}

/// The view of rendered texels: a normal map's RGB (8-bit levels of `tangent_normal`, as the
/// tool writes them) beside its values, or the values alone.
fn view(parsed: Parsed, texels: Texels, on_gpu: bool) -> gpu_noise::Result<View> {
    let (values, normal_rgb) = match texels {
        Texels::Values(values) => (values?, None),
        Texels::Gradients(d, strength) => {
            let d = d?;
            let texels = d.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]);
            let rgb = (texels.clone())
                .flat_map(|t| tangent_normal(t, strength).map(normal_level))
                .collect();
            (texels.map(|t| t[0]).collect(), Some(rgb))
        }
    };
    Ok(View::new(
        values,
        normal_rgb,
        parsed.image.size,
        (parsed.range, parsed.colormap),
        parsed.bound,
        parsed.effective,
        on_gpu,
    ))
}

/// The browser's WebGPU adapter and a renderer on it, or why there is none.
async fn open_webgpu() -> Result<(Renderer, String), String> {
    if !wgpu_supported().await {
        return Err("this browser offers no WebGPU (navigator.gpu)".into());
    }
    let choice = AdapterChoice {
        backends: gpu_noise::wgpu::Backends::BROWSER_WEBGPU,
        name: None,
    };
    let renderer = Renderer::open(&choice, RendererOptions::default())
        .await
        .map_err(|e| e.to_string())?;
    let name = renderer.adapter_name();
    Ok((renderer, name))
}

async fn wgpu_supported() -> bool {
    gpu_noise::wgpu::util::is_browser_webgpu_supported().await
}
