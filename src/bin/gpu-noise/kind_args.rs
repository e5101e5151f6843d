//! The kinds' own flags and spec-file fields (`--jitter`, `"gabor_bandwidth"`...), made from
//! the node table through `gpu_noise::low_level::graph`: names, value types, ranges, defaults
//! and help text are the table's, so a kind's new parameter needs no change here.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use gpu_noise::graph::Value;
use gpu_noise::low_level::graph::KindField;
use gpu_noise::low_level::graph::meta::ParamType;
use gpu_noise::low_level::spec_file::KindParams;

/// The kinds' flags for clap, around the library's [`KindParams`] (clap's traits cannot be
/// implemented on it here).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KindArgs(pub KindParams);

/// The flag of a parameter: `gabor_bandwidth` is `--gabor-bandwidth`.
pub fn flag_of(name: &str) -> String {
    format!("--{}", name.replace('_', "-"))
}

/// `--help` text: the kinds, the doc, the range and the default(s), all from the table.
fn help(row: &KindField) -> String {
    let Some(param) = row.param() else {
        return String::new();
    };
    // clap lists a choice's names itself.
    let range = match param.ty {
        ParamType::Choice { .. } => None,
        ty => ty.range_text(),
    };
    let range = range.map_or(String::new(), |r| format!(", {r}"));
    let (owners, default) = (row.owners(), row.default_text());
    format!("{owners}: {}{range} [default: {default}]", param.doc)
}

/// The flag's value parser: numbers, one of the names, or degrees and `isotropic`.
fn arg(row: &KindField) -> Arg {
    let ty = row.param().map(|p| p.ty);
    let arg = Arg::new(row.name)
        .long(flag_of(row.name)[2..].to_string())
        .value_name(row.name.to_uppercase())
        .help(help(row))
        .allow_hyphen_values(true);
    match ty {
        Some(ParamType::Choice { options, .. }) => {
            arg.value_parser(PossibleValuesParser::new(options).map(Value::Text))
        }
        Some(ParamType::Orientation { .. }) => {
            arg.value_name("DEGREES|isotropic")
                .value_parser(|text: &str| match text {
                    "isotropic" => Ok(Value::Text(text.into())),
                    _ => text.parse::<f64>().map(Value::Number).map_err(|_| {
                        format!("{text:?} is neither a number of degrees nor isotropic")
                    }),
                })
        }
        _ => arg.value_parser(|text: &str| {
            text.parse::<f64>()
                .map(Value::Number)
                .map_err(|_| format!("{text:?} is not a number"))
        }),
    }
}

impl Args for KindArgs {
    fn augment_args(cmd: Command) -> Command {
        KindField::all().fold(cmd, |cmd, row| cmd.arg(arg(row)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for KindArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = KindField::all().filter_map(|row| {
            let value = matches.get_one::<Value>(row.name)?;
            Some((row.name.to_string(), value.clone()))
        });
        Ok(KindArgs(KindParams(given.collect())))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        let over = Self::from_arg_matches(matches)?;
        self.0 = std::mem::take(&mut self.0).overlay(over.0);
        Ok(())
    }
}
