//! Typed nodes from a node's checked fields: which `Op` each type of the table builds, with the
//! checks that span several fields (a clamp's max at least its min, a rotation's axis only in
//! 3D and 4D).

use std::str::FromStr;

use super::node::{Combiner, Modifier, Op, Source, Warp};
use super::read::NodeReader;
use crate::error::Result;
use crate::kinds::param::check_octave_scale;
use crate::kinds::{Fractal, Kind};

impl NodeReader<'_> {
    pub(super) fn op(&self) -> Result<Op> {
        let t = self.ty.name;
        if let Ok(kind) = t.parse::<Kind>() {
            return self.source(kind);
        }
        Ok(match t {
            "constant" => Op::Constant(self.number("value")?),
            "coordinate" => {
                let axis: AxisName = self.choice("axis")?;
                if axis.0 >= self.dims as usize {
                    return Err(self.err("axis", format!("the graph has {} dims", self.dims)));
                }
                Op::Coordinate {
                    axis: axis.0,
                    frequency: self.number("frequency")?,
                }
            }
            "fbm" | "turbulence" | "ridged" | "billow" => Op::Fractal {
                source: self.input("source")?,
                fractal: t
                    .parse::<Fractal>()
                    .map_err(|e| self.err("type", e.to_string()))?,
                octaves: self.whole("octaves")?,
                lacunarity: self.lacunarity("octaves")?,
                persistence: self.number("persistence")?,
            },
            "ridged-multifractal" => Op::RidgedMulti {
                source: self.input("source")?,
                octaves: self.whole("octaves")?,
                lacunarity: self.lacunarity("octaves")?,
                h: self.number("h")?,
                offset: self.number("offset")?,
                gain: self.number("gain")?,
            },
            "translate" => Op::Translate {
                source: self.input("source")?,
                by: self.vector("by")?,
            },
            "scale" => Op::Scale {
                source: self.input("source")?,
                by: self.vector("by")?,
            },
            "rotate" => self.rotate()?,
            "warp" => self.warp()?,
            "blend" => Op::Blend {
                a: self.input("a")?,
                b: self.input("b")?,
                control: self.input("control")?,
            },
            "select" => self.select()?,
            _ => match self.ty.category {
                super::meta::Category::Modifier => Op::Modify {
                    source: self.input("source")?,
                    modifier: Modifier::read(self)
                        .unwrap_or_else(|| Err(self.err("type", "is not a modifier")))?,
                },
                _ => self.combine()?,
            },
        })
    }

    /// A select, whose ramp `threshold +- falloff` and `2 falloff` must stay within f32's
    /// range (the GPU forms them in f32).
    fn select(&self) -> Result<Op> {
        let (threshold, falloff) = (self.number("threshold")?, self.number("falloff")?);
        let (t, f) = (threshold as f32, falloff as f32);
        if !((t + f).is_finite() && (t - f).is_finite() && (2.0 * f).is_finite()) {
            return Err(self.err(
                "falloff",
                format!(
                    "threshold +- falloff and 2 x falloff must stay within f32's range (3.4e38), \
                     got threshold {threshold:e} and falloff {falloff:e}"
                ),
            ));
        }
        Ok(Op::Select {
            a: self.input("a")?,
            b: self.input("b")?,
            control: self.input("control")?,
            threshold,
            falloff,
        })
    }

    fn source(&self, kind: Kind) -> Result<Op> {
        if !(kind.min_dims()..=kind.max_dims()).contains(&self.dims) {
            return Err(self.err(
                "type",
                format!(
                    "{kind} noise supports {}..={} dims; the graph has {}",
                    kind.min_dims(),
                    kind.max_dims(),
                    self.dims
                ),
            ));
        }
        Ok(Op::Source(Source {
            kind,
            frequency: self.number("frequency")?,
            seed: self.seed()?,
            interp: if kind.interpolates() {
                self.choice("interp")?
            } else {
                kind.default_interp()
            },
            fields: super::kind_fields::read_kind_fields(self, kind)?,
        }))
    }

    fn rotate(&self) -> Result<Op> {
        if self.dims < 2 {
            return Err(self.err(
                "type",
                "a 1D graph has nothing to turn; rotate needs 2+ dims",
            ));
        }
        if self.dims == 2 && self.get("axis").is_some() {
            return Err(self.err("axis", "2D turns in the plane; axis is for 3D and 4D"));
        }
        Ok(Op::Rotate {
            source: self.input("source")?,
            degrees: self.number("degrees")?,
            axis: self.axis3("axis")?,
        })
    }

    /// `lacunarity`, checked with the count `key` (octaves or iterations) by the rule flat specs
    /// share ([`check_octave_scale`]).
    fn lacunarity(&self, key: &str) -> Result<f64> {
        let lacunarity = self.number("lacunarity")?;
        check_octave_scale(lacunarity, self.whole(key)?)
            .map_err(|reason| self.err("lacunarity", reason))?;
        Ok(lacunarity)
    }

    fn warp(&self) -> Result<Op> {
        let mode: WarpMode = self.choice("mode")?;
        Ok(Op::Warp(Warp {
            source: self.input("source")?,
            by: self.input_list("by")?,
            amplitude: self.number("amplitude")?,
            iterations: self.whole("iterations")?,
            progressive: mode.0,
            lacunarity: self.lacunarity("iterations")?,
            gain: self.number("gain")?,
        }))
    }

    fn combine(&self) -> Result<Op> {
        let (combiner, inputs) =
            Combiner::read(self).unwrap_or_else(|| Err(self.err("type", "is not a combiner")))?;
        Ok(Op::Combine { combiner, inputs })
    }
}

/// `x`..`w` as an axis index.
struct AxisName(usize);

impl FromStr for AxisName {
    type Err = ();
    fn from_str(s: &str) -> std::result::Result<Self, ()> {
        ["x", "y", "z", "w"]
            .iter()
            .position(|a| *a == s)
            .map(AxisName)
            .ok_or(())
    }
}

/// `progressive` (true) or `independent`.
struct WarpMode(bool);

impl FromStr for WarpMode {
    type Err = ();
    fn from_str(s: &str) -> std::result::Result<Self, ()> {
        match s {
            "independent" => Ok(WarpMode(false)),
            "progressive" => Ok(WarpMode(true)),
            _ => Err(()),
        }
    }
}
