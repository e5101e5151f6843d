//! Colormaps for RGB output (PNG export) and `Rgba8Unorm` GPU targets. A named map is a
//! 256-entry table that the CPU writer and the GPU kernel index with the same level
//! (`cpu::levels::level8`). Stops are interpolated exactly at each value, on both (CONVENTIONS
//! §6): a table over the stops' span would give one entry to a whole narrow band (a coastline
//! at 0..0.001 in a map reaching 1000).

use std::str::FromStr;

use crate::error::{Error, Result};

/// matplotlib's `terrain` colormap (`_terrain_data` in matplotlib/_cm.py): positions in [0, 1]
/// and RGB in [0, 1], interpolated linearly.
const TERRAIN: [(f64, [f64; 3]); 6] = [
    (0.00, [0.2, 0.2, 0.6]),
    (0.15, [0.0, 0.6, 1.0]),
    (0.25, [0.0, 0.8, 0.4]),
    (0.50, [1.0, 1.0, 0.6]),
    (0.75, [0.5, 0.36, 0.33]),
    (1.00, [1.0, 1.0, 1.0]),
];

/// Entries in a colormap table; level 0..=255 indexes it.
pub const COLORMAP_LEN: usize = 256;

/// Most stops: the GPU's colormap buffer (256 words) holds the count, the values and the
/// colors.
pub const MAX_STOPS: usize = (COLORMAP_LEN - 1) / 2;

/// How values become colors.
#[derive(Clone, Debug, PartialEq)]
pub enum Colormap {
    /// Black to white.
    Gray,
    /// matplotlib's `terrain`: deep water, shallows, lowland, highland, rock, snow.
    Terrain,
    /// matplotlib's `viridis` (perceptually uniform), through the `colorous` crate.
    Viridis,
    /// matplotlib's `magma`, through the `colorous` crate.
    Magma,
    /// Colors at noise values, linear in between and flat beyond the ends, sorted by value.
    Stops(Vec<(f64, [u8; 3])>),
}

impl Colormap {
    /// The names `gray|terrain|viridis|magma`.
    pub const NAMES: [&'static str; 4] = ["gray", "terrain", "viridis", "magma"];

    /// The value range the stops span, for a default mapping range; `None` for named maps.
    pub fn stops_range(&self) -> Option<(f64, f64)> {
        match self {
            Colormap::Stops(stops) => Some((stops.first()?.0, stops.last()?.0)),
            _ => None,
        }
    }

    /// The table for values mapped by `range`: entry n holds the color of the value at level n,
    /// `lo + (hi - lo) * n / 255`, as RGBA with alpha 255.
    pub fn table(&self, range: (f64, f64)) -> [[u8; 4]; COLORMAP_LEN] {
        let mut table = [[0u8; 4]; COLORMAP_LEN];
        for (n, entry) in table.iter_mut().enumerate() {
            let t = n as f64 / (COLORMAP_LEN - 1) as f64;
            let rgb = match self {
                Colormap::Gray => [n as u8; 3],
                Colormap::Terrain => unit_rgb(interpolate(&TERRAIN, t)),
                Colormap::Viridis => colorous_rgb(colorous::VIRIDIS, n),
                Colormap::Magma => colorous_rgb(colorous::MAGMA, n),
                Colormap::Stops(stops) => {
                    let value = range.0 + (range.1 - range.0) * t;
                    let as_unit: Vec<(f64, [f64; 3])> = stops
                        .iter()
                        .map(|(v, c)| (*v, c.map(|x| f64::from(x) / 255.0)))
                        .collect();
                    unit_rgb(interpolate(&as_unit, value))
                }
            };
            *entry = [rgb[0], rgb[1], rgb[2], 255];
        }
        table
    }

    /// The table packed as the GPU reads it: `r | g << 8 | b << 16 | a << 24`. For stops: the
    /// count, then each stop's value as f32 bits, then each color packed (the kernel
    /// interpolates them; see [`Colormap::is_exact`]).
    pub fn packed_table(&self, range: (f64, f64)) -> [u32; COLORMAP_LEN] {
        let Colormap::Stops(stops) = self else {
            return self.table(range).map(u32::from_le_bytes);
        };
        let mut words = [0u32; COLORMAP_LEN];
        let n = stops.len().min(MAX_STOPS);
        words[0] = n as u32;
        for (i, (value, [r, g, b])) in stops.iter().take(n).enumerate() {
            words[1 + i] = (*value as f32).to_bits();
            words[1 + n + i] = u32::from_le_bytes([*r, *g, *b, 255]);
        }
        words
    }

    /// Whether colors come from the value itself (stops) rather than from its level in the
    /// range (named maps).
    pub fn is_exact(&self) -> bool {
        matches!(self, Colormap::Stops(_))
    }

    /// The color of `value` mapped by `range`: stops interpolated at the value, or the named
    /// map's table at the value's level.
    pub fn rgb(&self, value: f64, table: &[[u8; 4]; COLORMAP_LEN], range: (f64, f64)) -> [u8; 3] {
        match self {
            Colormap::Stops(stops) => {
                let first = stops[0];
                let last = stops[stops.len() - 1];
                if value <= first.0 || value.is_nan() {
                    return first.1;
                }
                let Some(at) = stops.iter().position(|(v, _)| value <= *v) else {
                    return last.1;
                };
                let ((x0, c0), (x1, c1)) = (stops[at - 1], stops[at]);
                let t = (value - x0) / (x1 - x0);
                unit_rgb([0, 1, 2].map(|i| {
                    let (a, b) = (f64::from(c0[i]), f64::from(c1[i]));
                    (a + t * (b - a)) / 255.0
                }))
            }
            _ => {
                let [r, g, b, _] = table[usize::from(crate::levels::level8(value, range))];
                [r, g, b]
            }
        }
    }
}

fn colorous_rgb(gradient: colorous::Gradient, n: usize) -> [u8; 3] {
    let c = gradient.eval_rational(n, COLORMAP_LEN);
    [c.r, c.g, c.b]
}

fn unit_rgb(c: [f64; 3]) -> [u8; 3] {
    c.map(|x| (x.clamp(0.0, 1.0) * 255.0 + 0.5).floor() as u8)
}

/// Linear interpolation between sorted stops, flat beyond the ends.
fn interpolate(stops: &[(f64, [f64; 3])], x: f64) -> [f64; 3] {
    let (first, last) = (stops[0], stops[stops.len() - 1]);
    if x <= first.0 {
        return first.1;
    }
    for pair in stops.windows(2) {
        let ((x0, c0), (x1, c1)) = (pair[0], pair[1]);
        if x <= x1 {
            let t = if x1 > x0 { (x - x0) / (x1 - x0) } else { 1.0 };
            return [0, 1, 2].map(|i| c0[i] + t * (c1[i] - c0[i]));
        }
    }
    last.1
}

impl FromStr for Colormap {
    type Err = Error;

    /// `gray`, `terrain`, `viridis`, `magma`, or stops `value:#rrggbb,value:#rrggbb,...` (at
    /// least two, values finite and increasing).
    fn from_str(text: &str) -> Result<Self> {
        match text {
            "gray" | "grey" => return Ok(Colormap::Gray),
            "terrain" => return Ok(Colormap::Terrain),
            "viridis" => return Ok(Colormap::Viridis),
            "magma" => return Ok(Colormap::Magma),
            _ => {}
        }
        if !text.contains(':') {
            return Err(Error::output(
                "colormap",
                format!(
                    "{} is neither gray|terrain|viridis|magma nor a list of \
                     value:#rrggbb stops such as -1:#0000ff,0:#ffffff,1:#ff0000",
                    crate::text::quoted(text)
                ),
            ));
        }
        let stops = text
            .split(',')
            .map(parse_stop)
            .collect::<Result<Vec<_>>>()?;
        if !(2..=MAX_STOPS).contains(&stops.len()) {
            return Err(Error::output(
                "colormap",
                format!("give 2..={MAX_STOPS} stops, got {}", stops.len()),
            ));
        }
        // In f32 too: the GPU interpolates between the stops' f32 values.
        if let Some(pair) = stops.windows(2).find(|p| p[1].0 as f32 <= p[0].0 as f32) {
            return Err(Error::output(
                "colormap",
                format!(
                    "stop values must increase (in f32 too): {} comes after {}",
                    pair[1].0, pair[0].0
                ),
            ));
        }
        Ok(Colormap::Stops(stops))
    }
}

fn parse_stop(stop: &str) -> Result<(f64, [u8; 3])> {
    let bad = |why: &str| {
        Error::output(
            "colormap",
            format!("stop {}: {why}", crate::text::quoted(stop)),
        )
    };
    let (value, color) = stop
        .trim()
        .split_once(':')
        .ok_or_else(|| bad("write it as value:#rrggbb"))?;
    let value: f64 = value
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.abs() <= f64::from(f32::MAX))
        .ok_or_else(|| bad("the value is not a finite number within f32 (|v| <= 3.4e38)"))?;
    let hex = color
        .trim()
        .strip_prefix('#')
        .filter(|h| h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit()))
        .ok_or_else(|| bad("the color must be # and six hex digits"))?;
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad("bad hex"));
    Ok((value, [channel(0)?, channel(2)?, channel(4)?]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_maps_have_their_published_ends() {
        let gray = Colormap::Gray.table((-1.0, 1.0));
        assert_eq!((gray[0], gray[255]), ([0, 0, 0, 255], [255, 255, 255, 255]));
        // viridis runs from #440154 to #fde725, magma from #000004 to #fcfdbf (matplotlib).
        let v = Colormap::Viridis.table((0.0, 1.0));
        assert_eq!(
            (v[0], v[255]),
            ([0x44, 0x01, 0x54, 255], [0xfd, 0xe7, 0x25, 255])
        );
        let m = Colormap::Magma.table((0.0, 1.0));
        assert_eq!(
            (m[0], m[255]),
            ([0x00, 0x00, 0x04, 255], [0xfc, 0xfd, 0xbf, 255])
        );
        let t = Colormap::Terrain.table((0.0, 1.0));
        assert_eq!((t[0], t[255]), ([51, 51, 153, 255], [255, 255, 255, 255]));
    }

    #[test]
    fn stops_interpolate_in_value_units_and_bad_stops_are_errors() {
        let map: Colormap = "-1:#000000, 1:#ff0000".parse().unwrap();
        assert_eq!(map.stops_range(), Some((-1.0, 1.0)));
        let table = map.table((-1.0, 1.0));
        assert_eq!(table[0], [0, 0, 0, 255]);
        assert_eq!(table[255], [255, 0, 0, 255]);
        assert_eq!(table[128][0], 128); // value 0.0039 -> 50.2% of the way
        for bad in [
            "0:#fff",
            "x:#ffffff,1:#000000",
            "0:#ffffff",
            "1:#000000,0:#ffffff",
            "blue",
        ] {
            let err = bad.parse::<Colormap>().unwrap_err();
            assert!(
                matches!(
                    err,
                    Error::InvalidOutput {
                        field: "colormap",
                        ..
                    }
                ),
                "{bad}"
            );
        }
    }
}
