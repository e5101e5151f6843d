//! A job's WGSL for the shader export (CONVENTIONS §15): the graph's state, which a renderer
//! uploads into a binding, baked in as constants of the same types, and the tables bound as one
//! buffer of words, which the export hands over beside the shader.

use super::literal::Literals;
use crate::error::{Error, Result};
use crate::job::Job;
use crate::wgsl::prefixed;
use crate::wgsl::sources;

/// The tables' buffer in the exported WGSL, bound at the library's group, binding 1, until the
/// export renumbers it.
pub(crate) const TABLES: &str = "gn_noise_tables";

/// How the graph's state is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DataSpace {
    /// `const`: MSL's `constant` address space, where a private variable would be passed to
    /// every function as an argument.
    Const,
    /// `var<private>` with an initializer, which is never written: SPIR-V's private variable
    /// with a constant initializer. A `const` array indexed at run time is copied into a
    /// function variable at each such access by naga's SPIR-V backend (and by glslang's from
    /// GLSL), which lavapipe took over a minute to compile for one Perlin kernel. (Tables of
    /// 12 slots took lavapipe over 4 minutes either way, so they stay in a buffer.)
    Private,
}

/// The job's source with its data baked in, and the names of the constants that hold it.
pub(crate) struct Baked {
    pub source: String,
    pub constants: Vec<String>,
}

/// The job's namespaced library, graph code and `tail` (kernel files, or nothing for a module):
/// the tables bound as one buffer of words ([`TABLES`], `wgsl::tables::words_declarations`),
/// the graph's state baked in, a `const` or private variable per member (`gn_graph_state.params`
/// becomes `gn_graph_state_params`: naga's constant evaluator copies a member of a constant
/// struct into every function that reads it, where an array indexed at run time stays one
/// array), and the single-kind state, which a graph's code never reads, an empty private
/// variable. A name in `empty` is declared as an empty private variable too, which compaction
/// drops where nothing reads it.
pub(crate) fn baked_source(
    job: &Job,
    tail: &str,
    space: DataSpace,
    empty: &[String],
) -> Result<Baked> {
    let slots = job.plan().tables.len() as u32;
    let mut tables = crate::wgsl::tables::words_declarations(slots);
    if !reads_tables(job) {
        // The accessors stay (a lattice's mode is read at run time, so naga cannot drop
        // them), but no evaluation of this job takes the table lattice's branch: an unbound,
        // never-read private word stands in for the buffer, and the shader binds nothing.
        tables = replace_binding(
            &tables,
            "noise_tables",
            "var<private> noise_tables: array<u32, 1>;",
        )?;
    }
    let library = sources::graph_library_declaring(
        sources::KERNEL_NOISE_GROUP,
        &job.kernel().source,
        &tables,
    );
    let source = sources::namespaced(&library, tail);
    let module = sources::parse_module(&source).map_err(Error::Shader)?;
    let lit = Literals { module: &module };
    let mut baked = Baked {
        source,
        constants: Vec::new(),
    };
    let state = prefixed("graph_state");
    let naga::TypeInner::Struct { members, .. } =
        &module.types[global_type(&module, &state)?].inner
    else {
        return Err(bake_error(&state, "not a struct"));
    };
    let bytes = job.kernel_state();
    let mut declarations = String::new();
    for member in members {
        let name = format!("{state}_{}", member.name.as_deref().unwrap_or_default());
        let data = &bytes[(member.offset as usize).min(bytes.len())..];
        declarations.push_str(&baked.declare(&lit, (&name, member.ty), data, space, empty)?);
        declarations.push('\n');
    }
    baked.source = replace_binding(&baked.source, &state, &declarations)?
        .replace(&format!("{state}."), &format!("{state}_"));
    let flat = prefixed("noise_state");
    let ty = lit
        .type_text(global_type(&module, &flat)?, None)
        .map_err(|e| bake_error(&flat, &e))?;
    baked.source = replace_binding(&baked.source, &flat, &format!("var<private> {flat}: {ty};"))?;
    Ok(baked)
}

/// Whether the job's shader reads tables: a noise on the table lattice (§2) reads all three,
/// and a kind whose WGSL calls `lattice_gradient` (classic gradient noise) reads the gradient
/// table on every lattice. The kind's own shader file says which.
pub(crate) fn reads_tables(job: &Job) -> bool {
    (job.plan().instances).iter().any(|i| {
        i.lattice == crate::spec::LatticeKind::Table
            || i.kind.info().wgsl.contains("lattice_gradient(")
    })
}

impl Baked {
    /// `const name: T = value;` of `bytes` read as `ty`, or `var<private> name: T;` for a name
    /// in `empty`.
    fn declare(
        &mut self,
        lit: &Literals,
        (name, ty): (&str, naga::Handle<naga::Type>),
        bytes: &[u8],
        space: DataSpace,
        empty: &[String],
    ) -> Result<String> {
        let ty_text = lit
            .type_text(ty, lit.element_count(ty, bytes))
            .map_err(|e| bake_error(name, &e))?;
        if empty.iter().any(|e| e == name) {
            return Ok(format!("var<private> {name}: {ty_text};"));
        }
        let value = lit.value(ty, bytes).map_err(|e| bake_error(name, &e))?;
        self.constants.push(name.to_string());
        Ok(match space {
            DataSpace::Const => format!("const {name}: {ty_text} = {value};"),
            DataSpace::Private => format!("var<private> {name}: {ty_text} = {value};"),
        })
    }
}

fn bake_error(name: &str, reason: &str) -> Error {
    Error::Shader(format!("baking {name} into the exported shader: {reason}"))
}

fn global_type(module: &naga::Module, name: &str) -> Result<naga::Handle<naga::Type>> {
    module
        .global_variables
        .iter()
        .find(|(_, g)| g.name.as_deref() == Some(name))
        .map(|(_, g)| g.ty)
        .ok_or_else(|| Error::Shader(format!("the library declares no binding {name}")))
}

/// `source` with the one line that binds `name` (`@group(..) @binding(..) var<..> name: T;`)
/// replaced by `declaration`.
fn replace_binding(source: &str, name: &str, declaration: &str) -> Result<String> {
    let needle = format!(" {name}: ");
    let mut found = source.lines().filter(|line| {
        line.starts_with("@group(") && line.contains("var<") && line.contains(&needle)
    });
    match (found.next(), found.next()) {
        (Some(line), None) => Ok(source.replacen(line, declaration, 1)),
        _ => Err(Error::Shader(format!(
            "the library does not bind {name} on exactly one line"
        ))),
    }
}
