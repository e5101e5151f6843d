//! Progress on stderr for long work: percentage, rate and ETA through `indicatif`, drawn only
//! on a terminal and never with `--quiet`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Work below this many samples (texels x octaves) finishes in well under a second: no bar.
const WORTH_A_BAR: u64 = 20_000_000;

/// A bar over `total` texels; hidden unless stderr is a terminal, `quiet` is off and the work
/// is long enough to watch.
pub fn texel_bar(total: u64, samples: u64, quiet: bool, what: &str) -> ProgressBar {
    let shown = !quiet && std::io::stderr().is_terminal() && samples >= WORTH_A_BAR;
    let target = if shown {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    let template = format!(
        "gpu-noise: {what} {{bar:30}} {{percent:>3}}% {{human_pos}}/{{human_len}} texels \
         {{per_sec}} ETA {{eta}}"
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// A spinner with the elapsed time for work of unknown length (a GPU pipeline build, which
/// can take many seconds for a large graph on a software adapter); shown as the bars are.
pub fn spinner(what: &str) -> ProgressBar {
    let quiet = crate::QUIET.load(std::sync::atomic::Ordering::Relaxed);
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner();
    if let Ok(style) =
        ProgressStyle::with_template(&format!("gpu-noise: {what} {{spinner}} {{elapsed}}"))
    {
        spinner.set_style(style);
    }
    spinner.enable_steady_tick(std::time::Duration::from_millis(200));
    spinner
}
