//! The browser previewer's wasm side (`web/www` is the page): the library's own spec-file
//! parser, renderers and level mapping, so that what the page shows and exports is what
//! `gpu-noise render --spec` gives.
//!
//! - [`Previewer`] renders a spec (the JSON of a spec file, CONVENTIONS §6 and the README's
//!   "Spec files") on WebGPU through [`gpu_noise::Renderer`], or with the CPU twin where the
//!   browser has no WebGPU;
//! - [`surface`] gives the 3D view its heights and analytic slopes, [`world_chunk`] the
//!   endless world's chunks;
//! - [`View`] holds one rendered image: its values, RGBA through the spec's levels, statistics,
//!   a histogram and profiles;
//! - [`controls`] describes every field the page shows, with its allowed range, from the
//!   library's node table, so a new parameter needs no change to the page.

mod controls;
mod engine;
mod iso;
mod surface;
mod view;
mod world;

use wasm_bindgen::prelude::*;

pub use controls::controls;
pub use engine::Previewer;
pub use surface::{Surface, surface};
pub use view::View;
pub use world::{IsoMesh, iso_mesh, world_chunk};

/// A library error as a JavaScript `Error`: its message names the spec field and the range.
fn js_error(e: gpu_noise::Error) -> JsError {
    // The message with its causes (a GPU error's own text is its source's), each once.
    let mut message = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message = format!("{message}: {text}");
        }
        source = cause.source();
    }
    JsError::new(&message)
}

/// The version of the library inside, shown in the page's footer.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
