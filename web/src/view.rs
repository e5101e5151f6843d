//! One rendered image on the page: its values, their levels as RGBA (the tool's own mapping, so
//! an exported PNG equals `gpu-noise render`'s), statistics and a histogram.

use gpu_noise::low_level::levels::level8;
use gpu_noise::{Colormap, Size, low_level::tolerance};
use wasm_bindgen::prelude::*;

/// A rendered image and what the page shows beside it.
#[wasm_bindgen]
pub struct View {
    values: Vec<f32>,
    /// A normal map's 8-bit RGB, three bytes a texel, when the view shows one.
    normal_rgb: Option<Vec<u8>>,
    size: Size,
    range: (f64, f64),
    colormap: Option<Colormap>,
    bound: tolerance::Bound,
    effective: String,
    on_gpu: bool,
}

impl View {
    pub(crate) fn new(
        values: Vec<f32>,
        normal_rgb: Option<Vec<u8>>,
        size: Size,
        (range, colormap): ((f64, f64), Option<Colormap>),
        bound: tolerance::Bound,
        effective: String,
        on_gpu: bool,
    ) -> View {
        View {
            values,
            normal_rgb,
            size,
            range,
            colormap,
            bound,
            effective,
            on_gpu,
        }
    }
}

#[wasm_bindgen]
impl View {
    /// Texels a row.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.size.width
    }

    /// Rows (1 for 1D noise).
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u32 {
        self.size.height
    }

    /// The values, x fastest (a copy, as a `Float32Array`).
    pub fn values(&self) -> Vec<f32> {
        self.values.clone()
    }

    /// RGBA bytes through the spec's levels: gray (`level8`) or the colormap, or the normal
    /// map; alpha 255.
    pub fn rgba(&self) -> Vec<u8> {
        let range = self.range;
        let mut out = Vec::with_capacity(self.values.len() * 4);
        if let Some(rgb) = &self.normal_rgb {
            for c in rgb.chunks_exact(3) {
                out.extend_from_slice(&[c[0], c[1], c[2], 255]);
            }
            return out;
        }
        match &self.colormap {
            Some(map) => {
                let table = map.table(range);
                for &v in &self.values {
                    let [r, g, b] = map.rgb(f64::from(v), &table, range);
                    out.extend_from_slice(&[r, g, b, 255]);
                }
            }
            None => {
                for &v in &self.values {
                    let l = level8(f64::from(v), range);
                    out.extend_from_slice(&[l, l, l, 255]);
                }
            }
        }
        out
    }

    /// The values' least, greatest and mean, as `[min, max, mean]`.
    pub fn stats(&self) -> Vec<f64> {
        let (mut lo, mut hi, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
        for &v in &self.values {
            let v = f64::from(v);
            lo = lo.min(v);
            hi = hi.max(v);
            sum += v;
        }
        vec![lo, hi, sum / self.values.len().max(1) as f64]
    }

    /// Counts of values in `bins` equal steps over the levels' range; values outside it fall
    /// in the end bins.
    pub fn histogram(&self, bins: u32) -> Vec<u32> {
        let bins = bins.clamp(1, 4096) as usize;
        let (lo, hi) = self.range;
        let mut counts = vec![0u32; bins];
        for &v in &self.values {
            let t = (f64::from(v) - lo) / (hi - lo);
            let bin = (t * bins as f64).floor().clamp(0.0, bins as f64 - 1.0) as usize;
            counts[bin] += 1;
        }
        counts
    }

    /// The levels' range `[lo, hi]`: the spec's `range`, a colormap's stops, or the nominal one.
    pub fn range(&self) -> Vec<f64> {
        vec![self.range.0, self.range.1]
    }

    /// The stated bound on |GPU - twin| for this spec (CONVENTIONS §7).
    #[wasm_bindgen(getter)]
    pub fn bound(&self) -> f64 {
        self.bound.value
    }

    /// Where the bound comes from.
    #[wasm_bindgen(getter)]
    pub fn bound_reason(&self) -> String {
        self.bound.reason.clone()
    }

    /// The spec as `gpu-noise render --print-spec` writes it: every field the render used.
    #[wasm_bindgen(getter)]
    pub fn spec(&self) -> String {
        self.effective.clone()
    }

    /// Whether WebGPU rendered it (else the CPU twin).
    #[wasm_bindgen(getter)]
    pub fn on_gpu(&self) -> bool {
        self.on_gpu
    }

    /// Whether it shows a normal map.
    #[wasm_bindgen(getter)]
    pub fn normals(&self) -> bool {
        self.normal_rgb.is_some()
    }

    /// The largest |self - other| over the values of two views of the same size (the page's
    /// check against the twin); NaN if the sizes differ.
    pub fn max_difference(&self, other: &View) -> f64 {
        if self.values.len() != other.values.len() {
            return f64::NAN;
        }
        let pairs = self.values.iter().zip(&other.values);
        pairs.fold(0.0, |m, (a, b)| {
            m.max((f64::from(*a) - f64::from(*b)).abs())
        })
    }
}
