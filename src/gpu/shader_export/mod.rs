//! Shader export (CONVENTIONS §15): a job's noise as WGSL, GLSL, HLSL, MSL or SPIR-V for another
//! engine's shaders, every language written by naga's backends from the same verified WGSL that
//! the crate's kernels run, with the job's tables and numbers baked in as constants.
//!
//! Two forms:
//! - a [`ShaderForm::Module`]: the noise functions and the job's entry function,
//!   `gn_graph_value(t)` (its value at image texel `t`, a `vec3<u32>`: exact at any offset) and,
//!   where every noise has derivatives, `gn_graph_value_d(t)` (value and gradient per texel),
//!   for a user's own shader to include;
//! - a [`ShaderForm::Kernel`]: a complete compute shader, the crate's `render_buffer` kernel,
//!   which fills a storage buffer of f32 for a window: its parameters
//!   ([`RenderParams`](crate::low_level::gpu::RenderParams)) at set 0, binding 0 and the output at
//!   set 0, binding 1, workgroups of [`KERNEL_WORKGROUP`], each invocation [`KERNEL_ROWS`] rows.
//!
//! The job's numbers (frames, parameters) are baked into the shader; the tables of a table
//! lattice, which are large, are a read-only storage buffer the caller fills with
//! [`ExportedShader::tables`] (set 0, binding 2). A job on a hash lattice (the default `prime`
//! or `hash`) reads no tables, and its module binds nothing at all.
//!
//! ```
//! use gpu_noise::gpu::shader_export::{ShaderForm, ShaderLang, export_shader};
//! use gpu_noise::spec::LatticeKind;
//! let mut spec = gpu_noise::NoiseSpec::new(gpu_noise::Kind::Perlin, 2);
//! let glsl = export_shader(&spec.validate()?, ShaderLang::Glsl, ShaderForm::Module)?;
//! assert!(glsl.code.text().unwrap().contains("float gn_graph_value(uvec3 "));
//! assert!(glsl.tables.is_none()); // the default lattice binds nothing
//! spec.lattice = LatticeKind::Table;
//! let glsl = export_shader(&spec.validate()?, ShaderLang::Glsl, ShaderForm::Module)?;
//! assert_eq!(glsl.tables.map(|t| t.len()), Some(512 + 4 * 256 + 256)); // one seed's tables
//! # Ok::<(), gpu_noise::Error>(())
//! ```

mod bake;
mod langs;
mod literal;

use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};
use naga::{Expression, Module, ResourceBinding, ShaderStage};

use crate::error::{Error, Result};
use crate::job::Job;
use crate::wgsl::sources;

/// The kernel's entry point (GLSL names it `main`).
pub const KERNEL_ENTRY: &str = "render_buffer";
/// The kernel's bindings at set 0: the parameters (a uniform `RenderParams`), the output (a
/// read-write storage buffer of f32, rows of `words_per_row` values) and the tables (a
/// read-only storage buffer of [`ExportedShader::tables`], where the job reads tables).
pub const KERNEL_BINDINGS: [u32; 3] = [0, 1, 2];
/// The module's binding of the tables at set 0 unless the caller names another.
pub const MODULE_TABLES_BINDING: u32 = 2;
/// The kernel's workgroup size.
pub const KERNEL_WORKGROUP: [u32; 3] = [sources::TILE_SIZE, sources::TILE_SIZE, 1];
/// Rows of texels one kernel invocation computes: dispatch `ceil(width / 8)` x
/// `ceil(height / (8 * KERNEL_ROWS))` x `depth` workgroups.
pub const KERNEL_ROWS: u32 = sources::GRAPH_PROGRAM_ROWS;
/// The module form's stand-in entry point, which keeps the entry functions through compaction
/// and is dropped from what is written.
const MODULE_ENTRY: &str = "gn_export_entry";

/// A shading language the export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderLang {
    /// WGSL (wgpu, Bevy, the browser).
    Wgsl,
    /// GLSL 450 for Vulkan (Godot 4's RenderingDevice, glslang).
    Glsl,
    /// HLSL, shader model 5.1 (Unity compute shaders, Unreal).
    Hlsl,
    /// Metal Shading Language 2.1.
    Msl,
    /// SPIR-V 1.0 (kernel form only: SPIR-V is not included into source).
    Spirv,
}

impl ShaderLang {
    /// Every language, in the order the docs list them.
    pub const ALL: [ShaderLang; 5] = [
        ShaderLang::Wgsl,
        ShaderLang::Glsl,
        ShaderLang::Hlsl,
        ShaderLang::Msl,
        ShaderLang::Spirv,
    ];

    /// The language's name as the CLI's `--lang` takes it.
    pub fn name(self) -> &'static str {
        match self {
            ShaderLang::Wgsl => "wgsl",
            ShaderLang::Glsl => "glsl",
            ShaderLang::Hlsl => "hlsl",
            ShaderLang::Msl => "msl",
            ShaderLang::Spirv => "spirv",
        }
    }

    /// The usual file extension of a shader in this language.
    pub fn extension(self) -> &'static str {
        match self {
            ShaderLang::Wgsl => "wgsl",
            ShaderLang::Glsl => "glsl",
            ShaderLang::Hlsl => "hlsl",
            ShaderLang::Msl => "metal",
            ShaderLang::Spirv => "spv",
        }
    }
}

/// What the export writes: functions to include, or a compute shader to dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderForm {
    /// The noise functions and `gn_graph_value(t)`, no bindings.
    Module,
    /// The crate's `render_buffer` kernel, complete.
    Kernel,
}

/// An exported shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShaderCode {
    /// Source text.
    Text(String),
    /// SPIR-V words.
    Binary(Vec<u32>),
}

/// An exported shader and the data it binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportedShader {
    /// The shader.
    pub code: ShaderCode,
    /// The tables as the shader reads them (CONVENTIONS §15): a read-only storage buffer of
    /// these words (little-endian u32) at set 0, [`KERNEL_BINDINGS`]`[2]` in a kernel, the
    /// binding asked for in a module. `None` where the job reads no tables (a hash lattice, or
    /// a kind without tables): then a module binds nothing.
    pub tables: Option<Vec<u32>>,
}

impl ShaderCode {
    /// The source text (`None` for SPIR-V).
    pub fn text(&self) -> Option<&str> {
        match self {
            ShaderCode::Text(text) => Some(text),
            ShaderCode::Binary(_) => None,
        }
    }

    /// The bytes of the file: the text as UTF-8, SPIR-V's words little-endian.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            ShaderCode::Text(text) => text.as_bytes().to_vec(),
            ShaderCode::Binary(words) => words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        }
    }
}

/// `job`'s noise in `lang`, as a module or a kernel (the module docs; CONVENTIONS §15), a
/// module's tables at set 0, binding [`MODULE_TABLES_BINDING`]. An error names the language
/// and what it cannot express.
pub fn export_shader(job: &Job, lang: ShaderLang, form: ShaderForm) -> Result<ExportedShader> {
    export_shader_with(job, lang, form, MODULE_TABLES_BINDING)
}

/// [`export_shader`] with a module's tables at set 0, binding `tables_binding` (a kernel's are
/// always at [`KERNEL_BINDINGS`]`[2]`).
pub fn export_shader_with(
    job: &Job,
    lang: ShaderLang,
    form: ShaderForm,
    tables_binding: u32,
) -> Result<ExportedShader> {
    if lang == ShaderLang::Spirv && form == ShaderForm::Module {
        return Err(translation_error(
            lang,
            "SPIR-V has no form to include into another shader: export the kernel, or include the \
             GLSL module in your shader and compile it (glslangValidator -V)",
        ));
    }
    let space = match lang {
        ShaderLang::Msl => bake::DataSpace::Const,
        _ => bake::DataSpace::Private,
    };
    let tables_binding = match form {
        ShaderForm::Module => tables_binding,
        ShaderForm::Kernel => KERNEL_BINDINGS[2],
    };
    let (mut module, entry) = specialized(job, form, space)?;
    let reads_tables = rebind(&mut module, tables_binding)?;
    if form == ShaderForm::Module && lang != ShaderLang::Glsl {
        module.entry_points.clear();
    }
    let info = validate(&module)?;
    let code = langs::write(lang, form, &module, &info, &entry)
        .map_err(|reason| translation_error(lang, &reason))?;
    let code = match (code, lang, form) {
        (ShaderCode::Text(text), ShaderLang::Glsl, ShaderForm::Module) => {
            ShaderCode::Text(glsl_functions(&text))
        }
        (code, _, _) => code,
    };
    let tables = reads_tables.then(|| crate::wgsl::tables::table_words(&job.plan().tables));
    Ok(ExportedShader { code, tables })
}

/// A language that cannot take the job: bad input, naming the language (the CLI's `--lang`).
fn translation_error(lang: ShaderLang, reason: &str) -> Error {
    Error::InvalidSpec {
        field: "lang",
        reason: format!("{}: {reason}", lang.name()),
    }
}

fn validate(module: &Module) -> Result<ModuleInfo> {
    Validator::new(ValidationFlags::all(), Capabilities::default())
        .validate(module)
        .map_err(|e| Error::Shader(format!("the exported module: {e:?}")))
}

/// The job's module for `form`: baked, compacted to its one entry point, its override constants
/// set to the job's values, and (a kernel) its bindings renumbered to set 0.
fn specialized(job: &Job, form: ShaderForm, space: bake::DataSpace) -> Result<(Module, String)> {
    let (tail, entry) = match form {
        ShaderForm::Module => (module_stub(job), MODULE_ENTRY),
        ShaderForm::Kernel => (sources::graph_kernels_tail(), KERNEL_ENTRY),
    };
    let (mut module, constants) = compacted(job, (&tail, entry), space, &[])?;
    let unused = unused_constants(&module, &constants);
    if !unused.is_empty() {
        module = compacted(job, (&tail, entry), space, &unused)?.0;
    }
    let info = validate(&module)?;
    // The graph program's constants (a flat spec is exported as its one-node graph), those
    // the compacted module still declares.
    let mut constants = naga::back::PipelineConstants::default();
    for (name, value) in super::pipelines::GraphKey::of(job).constants() {
        if module
            .overrides
            .iter()
            .any(|(_, o)| o.name.as_deref() == Some(name))
        {
            constants.insert(name.to_string(), value);
        }
    }
    let (module, _) = naga::back::pipeline_constants::process_overrides(
        &module,
        &info,
        Some((ShaderStage::Compute, entry)),
        &constants,
    )
    .map_err(|e| Error::Shader(format!("setting the exported module's constants: {e}")))?;
    Ok((module.into_owned(), entry.to_string()))
}

/// The stand-in entry point that keeps `gn_graph_value` (and `gn_graph_value_d` where the job
/// has a gradient) through compaction; names as the library writes them, before namespacing.
fn module_stub(job: &Job) -> String {
    let gradient = if job.check_gradient().is_ok() {
        "    _ = graph_value_d(id);\n"
    } else {
        ""
    };
    format!(
        "@compute @workgroup_size(1)\nfn {MODULE_ENTRY}(@builtin(global_invocation_id) id: \
         vec3<u32>) {{\n    _ = graph_value(id);\n{gradient}}}\n"
    )
}

/// The baked source (the names in `empty` left as empty private variables) parsed, validated
/// and compacted to `entry`, with the names of the constants baked.
fn compacted(
    job: &Job,
    (tail, entry): (&str, &str),
    space: bake::DataSpace,
    empty: &[String],
) -> Result<(Module, Vec<String>)> {
    let baked = bake::baked_source(job, tail, space, empty)?;
    let mut module = sources::parse_module(&baked.source).map_err(Error::Shader)?;
    module.entry_points.retain(|e| e.name == entry);
    naga::compact::compact(&mut module, naga::compact::KeepUnused::No);
    Ok((module, baked.constants))
}

/// The baked constants no function reads (the tables of a hash lattice, say): compaction keeps
/// named constants, so these are baked again as empty variables, which it drops.
fn unused_constants(module: &Module, baked: &[String]) -> Vec<String> {
    let functions = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|e| &e.function));
    let mut read = std::collections::HashSet::new();
    for function in functions {
        for (_, expression) in function.expressions.iter() {
            if let Expression::Constant(c) = expression {
                read.insert(*c);
            }
        }
    }
    module
        .constants
        .iter()
        .filter(|(handle, _)| !read.contains(handle))
        .filter_map(|(_, c)| c.name.clone())
        .filter(|name| baked.contains(name))
        .collect()
}

/// Every binding at set 0: a kernel's parameters stay at binding 0 and its output moves from
/// (2, 0) to binding 1; the tables move from the library's (1, 1) to `tables_binding`. Anything
/// else bound is an error: the export binds nothing else. Whether the tables are bound.
fn rebind(module: &mut Module, tables_binding: u32) -> Result<bool> {
    let mut tables = false;
    for (_, global) in module.global_variables.iter_mut() {
        let Some(binding) = &mut global.binding else {
            continue;
        };
        let number = match (binding.group, binding.binding) {
            (0, 0) => KERNEL_BINDINGS[0],
            (2, 0) => KERNEL_BINDINGS[1],
            (sources::KERNEL_NOISE_GROUP, 1) if global.name.as_deref() == Some(bake::TABLES) => {
                tables = true;
                tables_binding
            }
            (group, b) => {
                return Err(Error::Shader(format!(
                    "the exported shader binds group {group}, binding {b}, beyond its own"
                )));
            }
        };
        *binding = ResourceBinding {
            group: 0,
            binding: number,
        };
    }
    Ok(tables)
}

/// The GLSL module: naga's GLSL with its stand-in `main` and the compute stage's lines taken
/// off, which leaves the constants, structs and functions for a shader of the user's to follow
/// its own `#version` line.
fn glsl_functions(text: &str) -> String {
    let body = text
        .find("\nvoid main(")
        .map_or(text, |end| &text[..end + 1]);
    body.lines()
        .filter(|line| !line.starts_with("#version") && !line.starts_with("layout(local_size"))
        .map(|line| format!("{line}\n"))
        .collect()
}
