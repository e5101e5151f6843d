//! Where a view is rendered: the browser's WebGPU through the library's [`Renderer`], or the
//! CPU twin (the f64 reference, single-threaded in wasm) where the browser has none.

use gpu_noise::low_level::levels::{normal_level, tangent_normal};
use gpu_noise::low_level::spec_file::{Channels, SpecFile};
use gpu_noise::{
    Colormap, Error, Job, NoiseSpec, Renderer, Window, cpu, gpu::AdapterChoice,
    gpu::RendererOptions, low_level::tolerance,
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

/// The page's renderer: WebGPU when the browser offers it, else the CPU twin.
#[wasm_bindgen]
pub struct Previewer {
    gpu: Option<Renderer>,
    backend: String,
}

#[wasm_bindgen]
impl Previewer {
    /// Opens WebGPU's best adapter (unless `use_gpu` is false); on any failure the previewer
    /// renders with the CPU twin and [`backend`](Self::backend) says why.
    pub async fn open(use_gpu: bool) -> Previewer {
        if !use_gpu {
            return Self::twin("the CPU twin was asked for".into());
        }
        match open_webgpu().await {
            Ok((renderer, name)) => Previewer {
                gpu: Some(renderer),
                backend: format!("WebGPU: {name}"),
            },
            Err(why) => Self::twin(why),
        }
    }

    fn twin(why: String) -> Previewer {
        Previewer {
            gpu: None,
            backend: format!("CPU twin in wasm, no GPU ({why})"),
        }
    }

    /// `WebGPU: <adapter>` or `CPU twin in wasm, no GPU (<why>)`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.backend.clone()
    }

    /// Whether views render on WebGPU.
    #[wasm_bindgen(getter)]
    pub fn gpu(&self) -> bool {
        self.gpu.is_some()
    }

    /// Renders a spec (a spec file's JSON) on this previewer's backend.
    pub async fn render(&mut self, spec_json: String) -> Result<View, JsError> {
        let parsed = parse(&spec_json).map_err(js_error)?;
        let Some(gpu) = &mut self.gpu else {
            return twin_view(parsed).map_err(js_error);
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
