//! naga's backends over the exported module: WGSL, GLSL 450, HLSL (shader model 5.1), MSL 2.1
//! and SPIR-V 1.0, each from the same compacted, specialized module. Nothing here is written by
//! hand per language but the bindings' numbers, which every language takes as the WGSL has them:
//! set (space) 0, the binding's number as its binding, register or buffer (CONVENTIONS §15).

use naga::back;
use naga::valid::ModuleInfo;
use naga::{Module, ResourceBinding, ShaderStage};

use super::{ShaderCode, ShaderForm, ShaderLang};

/// What a backend said when it could not write the module.
pub(super) type WriteError = String;

/// `module` (with its single entry point, the kernel or the module's stub) in `lang`.
pub(super) fn write(
    lang: ShaderLang,
    form: ShaderForm,
    module: &Module,
    info: &ModuleInfo,
    entry: &str,
) -> Result<ShaderCode, WriteError> {
    Ok(match lang {
        ShaderLang::Wgsl => ShaderCode::Text(
            back::wgsl::write_string(module, info, back::wgsl::WriterFlags::empty())
                .map_err(|e| e.to_string())?,
        ),
        ShaderLang::Glsl => ShaderCode::Text(glsl(module, info, entry)?),
        ShaderLang::Hlsl => ShaderCode::Text(hlsl(module, info)?),
        ShaderLang::Msl => ShaderCode::Text(msl(module, info, form, entry)?),
        ShaderLang::Spirv => ShaderCode::Binary(spirv(module, info, entry)?),
    })
}

/// The module's bindings (all at group 0 by now), each with its number.
fn bindings(module: &Module) -> impl Iterator<Item = (ResourceBinding, u32)> + '_ {
    module
        .global_variables
        .iter()
        .filter_map(|(_, g)| g.binding)
        .map(|b| (b, b.binding))
}

/// GLSL 450 for Vulkan (and Godot's RenderingDevice): `layout(binding = N)`, set 0.
fn glsl(module: &Module, info: &ModuleInfo, entry: &str) -> Result<String, WriteError> {
    let mut options = back::glsl::Options {
        version: back::glsl::Version::Desktop(450),
        ..Default::default()
    };
    for (resource, binding) in bindings(module) {
        options.binding_map.insert(resource, binding as u8);
    }
    let pipeline = back::glsl::PipelineOptions {
        shader_stage: ShaderStage::Compute,
        entry_point: entry.to_string(),
        multiview: None,
    };
    let mut out = String::new();
    let mut writer = back::glsl::Writer::new(
        &mut out,
        module,
        info,
        &options,
        &pipeline,
        naga::proc::BoundsCheckPolicies::default(),
    )
    .map_err(|e| e.to_string())?;
    writer.write().map_err(|e| e.to_string())?;
    Ok(out)
}

/// HLSL shader model 5.1, static initializers and local zero arrays in braces (for glslang):
/// binding N at register N of space 0 (`b0` the parameters, `u1` the output, `t2` the tables).
fn hlsl(module: &Module, info: &ModuleInfo) -> Result<String, WriteError> {
    let mut options = back::hlsl::Options::default();
    for (resource, register) in bindings(module) {
        let target = back::hlsl::BindTarget {
            space: 0,
            register,
            ..Default::default()
        };
        options.binding_map.insert(resource, target);
    }
    let pipeline = back::hlsl::PipelineOptions::default();
    let mut out = String::new();
    let mut writer = back::hlsl::Writer::new(&mut out, &options, &pipeline);
    writer
        .write(module, info, None)
        .map_err(|e| e.to_string())?;
    Ok(zero_arrays_in_braces(&brace_initializers(&out)))
}

/// naga zero-initializes a local array as `T v[N] = (T[N])0;`, which DXC and FXC take and
/// glslang's HLSL front end refuses ("array constructor needs one argument per array
/// element"): such a declaration is written `T v[N] = {(T)0, ...};` instead, the same zeros.
fn zero_arrays_in_braces(hlsl: &str) -> String {
    let mut out = String::with_capacity(hlsl.len());
    for line in hlsl.split_inclusive('\n') {
        out.push_str(&zero_array_line(line).unwrap_or_else(|| line.to_string()));
    }
    out
}

/// `line` rewritten where it is such a declaration.
fn zero_array_line(line: &str) -> Option<String> {
    let (head, cast) = line.split_once(" = (")?;
    let (ty, rest) = cast.split_once('[')?;
    let (count, tail) = rest.split_once("])0;")?;
    let n: usize = count.parse().ok()?;
    if !head.trim_start().starts_with(ty) || !tail.trim().is_empty() || n == 0 {
        return None;
    }
    let zeros = vec![format!("({ty})0"); n].join(", ");
    Some(format!("{head} = {{{zeros}}};{tail}"))
}

/// naga initializes a `static` (or `static const`) array or struct by calling a generated `Construct...`
/// function; DXC and FXC take that, but glslang's HLSL front end (Debian's 12.0) refuses any
/// call in a static initializer ("Recursion detected"). Each such initializer is rewritten as
/// the same values in braces, which all three take: `Construct...(a, b)` becomes `{a, b}`,
/// every other call (`float4(..)`) stays.
fn brace_initializers(hlsl: &str) -> String {
    let mut out = String::with_capacity(hlsl.len());
    for line in hlsl.split_inclusive('\n') {
        match line.split_once(" = Construct") {
            Some((head, _)) if line.starts_with("static ") => {
                let init = &line[head.len() + 3..];
                out.push_str(head);
                out.push_str(" = ");
                out.push_str(&braced(init));
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// `init` with each `Construct...(...)` call replaced by `{...}`.
fn braced(init: &str) -> String {
    let mut out = String::with_capacity(init.len());
    let mut closers = Vec::new();
    let mut rest = init;
    while let Some(i) = rest.find(['(', ')']) {
        let (before, after) = rest.split_at(i);
        if after.starts_with('(') {
            // The identifier just before the parenthesis, if it is a constructor of naga's.
            let name_start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |k| k + 1);
            if before[name_start..].starts_with("Construct") {
                out.push_str(&before[..name_start]);
                out.push('{');
                closers.push('}');
            } else {
                out.push_str(before);
                out.push('(');
                closers.push(')');
            }
        } else {
            out.push_str(before);
            out.push(closers.pop().unwrap_or(')'));
        }
        rest = &after[1..];
    }
    out.push_str(rest);
    out
}

/// MSL 2.1: a kernel's binding N at `[[buffer(N)]]`.
fn msl(
    module: &Module,
    info: &ModuleInfo,
    form: ShaderForm,
    entry: &str,
) -> Result<String, WriteError> {
    let mut options = back::msl::Options {
        lang_version: (2, 1),
        ..Default::default()
    };
    if form == ShaderForm::Kernel {
        let mut resources = back::msl::EntryPointResources::default();
        for (resource, slot) in bindings(module) {
            let target = back::msl::BindTarget {
                buffer: Some(slot as u8),
                mutable: slot == super::KERNEL_BINDINGS[1],
                ..Default::default()
            };
            resources.resources.insert(resource, target);
        }
        options
            .per_entry_point_map
            .insert(entry.to_string(), resources);
    }
    let pipeline = back::msl::PipelineOptions::default();
    back::msl::write_string(module, info, &options, &pipeline)
        .map(|(text, _)| text)
        .map_err(|e| e.to_string())
}

/// SPIR-V 1.0 for Vulkan: descriptor set 0, the bindings' own numbers.
fn spirv(module: &Module, info: &ModuleInfo, entry: &str) -> Result<Vec<u32>, WriteError> {
    let options = back::spv::Options {
        flags: back::spv::WriterFlags::empty(),
        ..Default::default()
    };
    let pipeline = back::spv::PipelineOptions {
        shader_stage: ShaderStage::Compute,
        entry_point: entry.to_string(),
    };
    back::spv::write_vec(module, info, &options, Some(&pipeline)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    /// Constructors of naga's become braces, nested ones too; other calls and other lines stay.
    #[test]
    fn static_initializers_become_braces() {
        let hlsl = "static const S s = ConstructS(Constructarray2_uint_(1u, 2u), float4(0.0, \
                    1.0, 2.0, 3.0));\nint f() { return ConstructS(1); }\n";
        assert_eq!(
            super::zero_arrays_in_braces("    float4 g[3] = (float4[3])0;\n    x = (float[2])0;\n"),
            "    float4 g[3] = {(float4)0, (float4)0, (float4)0};\n    x = (float[2])0;\n"
        );
        assert_eq!(
            super::brace_initializers(hlsl),
            "static const S s = {{1u, 2u}, float4(0.0, 1.0, 2.0, 3.0)};\n\
             int f() { return ConstructS(1); }\n"
        );
    }
}
