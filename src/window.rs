//! [`Window`]: a box of texels inside a spec's image. Bands of a streamed export, tiles of a
//! tile set and chunks of a GPU render are all windows, and texel (i, j, k) of a window is
//! computed exactly as texel (x + i, y + j, z + k) of the whole image, so every window of an
//! image equals the same texels of the whole image, bit for bit.

use crate::error::{Error, Result};
use crate::spec::{MAX_TEXELS, Size};

/// A box of texels: texel (i, j, k) of the window is texel `origin + (i, j, k)` of the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    /// The image texel at the window's first texel (x, y, z).
    pub origin: [u32; 3],
    /// The window's extent.
    pub size: Size,
}

impl Window {
    /// The whole image.
    pub fn full(size: Size) -> Self {
        Self {
            origin: [0; 3],
            size,
        }
    }

    /// A window at `origin` with extent `size`.
    pub fn new(origin: [u32; 3], size: Size) -> Self {
        Self { origin, size }
    }

    /// Texels in the window.
    pub fn texels(&self) -> u64 {
        self.size.texels()
    }

    /// Checks that the window is not empty and lies inside an image of `image` texels.
    pub fn check_inside(&self, image: Size) -> Result<()> {
        let ends = [
            (self.origin[0], self.size.width, image.width, "x"),
            (self.origin[1], self.size.height, image.height, "y"),
            (self.origin[2], self.size.depth, image.depth, "z"),
        ];
        for (origin, extent, limit, axis) in ends {
            if extent == 0 || u64::from(origin) + u64::from(extent) > u64::from(limit) {
                return Err(Error::invalid(
                    "window",
                    format!(
                        "along {axis} the window covers {origin}..{} but the image has 0..{limit}",
                        u64::from(origin) + u64::from(extent)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Checks that the window fits one in-memory render ([`MAX_TEXELS`]): larger windows are
    /// streamed in bands instead, never allocated whole (which would abort the process).
    pub fn check_in_memory(&self) -> Result<()> {
        let texels = self.texels();
        if texels <= MAX_TEXELS {
            return Ok(());
        }
        Err(Error::invalid(
            "size",
            format!(
                "{texels} texels ({:.1} GiB of f32) is more than one in-memory render holds \
                 ({MAX_TEXELS}); render it in windows (Renderer::render_window, \
                 cpu::render_window_f32) or stream it to a file (export::create_writer)",
                texels as f64 * 4.0 / f64::from(1u32 << 30)
            ),
        ))
    }

    /// Splits the window, in memory order, into bands of at most `max_texels` texels (but at
    /// least one row each): runs of whole slices when a slice fits, else runs of rows within
    /// one slice. Each band is itself a window.
    pub fn bands(&self, max_texels: u64) -> Vec<Window> {
        let (w, h, d) = (self.size.width, self.size.height, self.size.depth);
        let max_rows = (max_texels / u64::from(w)).max(1);
        let [x, y, z] = self.origin;
        let mut bands = Vec::new();
        if u64::from(h) <= max_rows {
            let slices = (max_rows / u64::from(h)).min(u64::from(d)) as u32;
            let mut k = 0;
            while k < d {
                let n = slices.min(d - k);
                bands.push(Window::new([x, y, z + k], Size::new(w, h, n)));
                k += n;
            }
        } else {
            let rows = max_rows as u32;
            for k in 0..d {
                let mut j = 0;
                while j < h {
                    let n = rows.min(h - j);
                    bands.push(Window::new([x, y + j, z + k], Size::new(w, n, 1)));
                    j += n;
                }
            }
        }
        bands
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_cover_the_window_in_memory_order() {
        let window = Window::new([3, 5, 7], Size::new(10, 6, 4));
        for max in [1, 10, 25, 60, 61, 130, 240, 1000] {
            let bands = window.bands(max);
            let mut next = (5u32, 7u32); // (y, z) of the next row expected
            let mut texels = 0;
            for b in &bands {
                assert_eq!(b.origin[0], 3);
                assert_eq!(b.size.width, 10);
                assert!(b.texels() <= max.max(10), "{max}: {b:?}");
                assert_eq!((b.origin[1], b.origin[2]), next, "{max}");
                // A band is whole slices or rows of one slice.
                assert!(b.size.depth == 1 || b.size.height == 6);
                next = if b.origin[1] + b.size.height == 11 {
                    (5, b.origin[2] + b.size.depth)
                } else {
                    (b.origin[1] + b.size.height, b.origin[2])
                };
                texels += b.texels();
            }
            assert_eq!(texels, window.texels());
            assert_eq!(next, (5, 11));
        }
    }

    #[test]
    fn windows_outside_the_image_are_errors() {
        let image = Size::new(8, 8, 1);
        assert!(
            Window::new([4, 0, 0], Size::new(4, 8, 1))
                .check_inside(image)
                .is_ok()
        );
        assert!(
            Window::new([5, 0, 0], Size::new(4, 8, 1))
                .check_inside(image)
                .is_err()
        );
        assert!(
            Window::new([0, 0, 1], Size::new(4, 4, 1))
                .check_inside(image)
                .is_err()
        );
        assert!(
            Window::new([0, 0, 0], Size::new(0, 4, 1))
                .check_inside(image)
                .is_err()
        );
    }
}
