//! `gpu-noise shader`: a spec's or graph's noise as a shader for another engine (WGSL, GLSL,
//! HLSL, MSL, SPIR-V), written by naga from the crate's verified WGSL (CONVENTIONS §15).

use std::io::Write;
use std::process::ExitCode;

use gpu_noise::low_level::export::OutputFile;
use std::path::{Path, PathBuf};

use gpu_noise::gpu::shader_export::{
    KERNEL_BINDINGS, MODULE_TABLES_BINDING, ShaderCode, ShaderForm, ShaderLang, export_shader_with,
};
use gpu_noise::{Error, Result};

use crate::args::ShaderArgs;
use crate::world::World;

pub fn run(args: ShaderArgs) -> Result<ExitCode> {
    let layer = crate::spec_layers(&args.noise)?;
    let graph = crate::graph::load(args.graph.as_deref(), &layer)?;
    let world = World::of(&layer, graph)?;
    let lang = args.lang.lang();
    let form = if args.kernel {
        ShaderForm::Kernel
    } else {
        ShaderForm::Module
    };
    check_flags(&args, lang)?;
    let binding = args.tables_binding.unwrap_or(MODULE_TABLES_BINDING);
    let exported = export_shader_with(&world.job, lang, form, binding)?;
    let tables_path = tables_path(&args, exported.tables.is_some())?;
    let bytes = match (&exported.code, &args.import_path) {
        (ShaderCode::Text(text), Some(path)) => {
            format!("#define_import_path {path}\n\n{text}").into_bytes()
        }
        (code, _) => code.bytes(),
    };
    match &args.output {
        Some(path) => write_file(path, &bytes)?,
        None if exported.code.text().is_none()
            && std::io::IsTerminal::is_terminal(&std::io::stdout()) =>
        {
            return Err(Error::InvalidSpec {
                field: "output",
                reason: "SPIR-V is binary: give a file (-o noise.spv) or redirect stdout".into(),
            });
        }
        None => std::io::stdout()
            .write_all(&bytes)
            .map_err(crate::stdout_error)?,
    }
    if let (Some(words), Some(path)) = (&exported.tables, tables_path) {
        write_file(&path, bytemuck::cast_slice(words))?;
        let at = if args.kernel {
            KERNEL_BINDINGS[2]
        } else {
            binding
        };
        note!(
            "gpu-noise: tables: {} words ({} bytes) in {}: bind them as a read-only storage \
             buffer at set 0, binding {at}",
            words.len(),
            words.len() * 4,
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The flags that do not go together.
fn check_flags(args: &ShaderArgs, lang: ShaderLang) -> Result<()> {
    if let Some(path) = &args.import_path {
        if lang != ShaderLang::Wgsl || args.kernel {
            return Err(Error::InvalidSpec {
                field: "import_path",
                reason: "names a WGSL module for naga_oil's #import (Bevy): it takes --lang \
                         wgsl without --kernel"
                    .into(),
            });
        }
        check_import_path(path)?;
    }
    if args.kernel && args.tables_binding.is_some() {
        return Err(Error::InvalidSpec {
            field: "tables_binding",
            reason: format!(
                "places a module's tables; a kernel's are at binding {} (CONVENTIONS §15)",
                KERNEL_BINDINGS[2]
            ),
        });
    }
    Ok(())
}

/// Where the tables go: `--tables`, else beside `-o` as `<output>.tables`; a shader that reads
/// tables written to stdout needs `--tables`.
fn tables_path(args: &ShaderArgs, reads_tables: bool) -> Result<Option<PathBuf>> {
    if !reads_tables {
        return Ok(None);
    }
    match (&args.tables, &args.output) {
        (Some(path), _) => Ok(Some(path.clone())),
        (None, Some(output)) => {
            let mut name = output.clone().into_os_string();
            name.push(".tables");
            Ok(Some(PathBuf::from(name)))
        }
        (None, None) => Err(Error::InvalidSpec {
            field: "tables",
            reason: "this shader reads the lattice's tables from a buffer: give a file for them \
                     (--tables noise.tables), or -o, beside which they are written"
                .into(),
        }),
    }
}

/// `bytes` into `path`, written beside it and renamed: no partial file is ever left there.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let file = OutputFile::create(path)?;
    let mut sink = file.sink()?;
    let written = sink.write_all(bytes).and_then(|()| sink.flush());
    drop(sink);
    written.map_err(|e| Error::io(path, e))?;
    file.commit()
}

/// An import path is `::`-separated WGSL identifiers (naga_oil's rule), given here as it will
/// stand in the shader.
fn check_import_path(path: &str) -> Result<()> {
    let is_identifier = |part: &str| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if path.split("::").all(is_identifier) {
        Ok(())
    } else {
        Err(Error::InvalidSpec {
            field: "import_path",
            reason: format!(
                "{} is not a path of identifiers joined by :: (e.g. gpu_noise or my_game::noise)",
                gpu_noise::low_level::text::quoted(path)
            ),
        })
    }
}
