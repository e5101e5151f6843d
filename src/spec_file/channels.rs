//! The `channels` field of a spec file: what each texel of the output holds (CONVENTIONS §12).

use serde::{Deserialize, Serialize};

/// Normal maps' default height scale: the noise value times this many texels.
pub const DEFAULT_NORMAL_STRENGTH: f32 = 8.0;

/// `value`, `gradient` or `normal` (the tool's `--channels`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Channels {
    /// The noise value.
    #[default]
    Value,
    /// The value and its partial derivatives along the image axes.
    Gradient,
    /// A tangent-space normal map.
    Normal,
}

impl std::fmt::Display for Channels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Channels::Value => "value",
            Channels::Gradient => "gradient",
            Channels::Normal => "normal",
        })
    }
}
