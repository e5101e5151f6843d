//! WGSL text of a host value: the bytes a renderer would upload into a binding, written as a
//! constant expression of the binding's own type, each member read at the offset and each
//! element at the stride naga laid out for that type (so the constant and the buffer agree
//! member for member, CONVENTIONS §15).

use std::fmt::Write;

use naga::{ArraySize, Handle, Module, Scalar, ScalarKind, Type, TypeInner};

/// What went wrong writing a value: a type the exported bindings never hold.
pub(crate) type LiteralError = String;

/// Writes types and values of `module`.
pub(crate) struct Literals<'a> {
    pub module: &'a Module,
}

impl Literals<'_> {
    /// The WGSL name of `ty`, with `count` elements for a runtime-sized array (a storage
    /// binding's data, which a constant must size).
    pub fn type_text(&self, ty: Handle<Type>, count: Option<u32>) -> Result<String, LiteralError> {
        let t = &self.module.types[ty];
        Ok(match t.inner {
            TypeInner::Scalar(s) => scalar_name(s)?.to_string(),
            TypeInner::Vector { size, scalar } => {
                format!("vec{}<{}>", size as u8, scalar_name(scalar)?)
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => format!(
                "mat{}x{}<{}>",
                columns as u8,
                rows as u8,
                scalar_name(scalar)?
            ),
            TypeInner::Array { base, size, .. } => {
                let n = match (size, count) {
                    (ArraySize::Constant(n), _) => n.get(),
                    (ArraySize::Dynamic, Some(n)) => n,
                    _ => return Err("an array of unknown length".into()),
                };
                format!("array<{}, {n}>", self.type_text(base, None)?)
            }
            TypeInner::Struct { .. } => t.name.clone().ok_or("an unnamed struct")?,
            ref other => return Err(format!("a binding of type {other:?}")),
        })
    }

    /// The bytes of a whole binding of type `ty` as a WGSL constant expression.
    pub fn value(&self, ty: Handle<Type>, bytes: &[u8]) -> Result<String, LiteralError> {
        let mut out = String::with_capacity(bytes.len() * 3);
        self.write(&mut out, ty, self.element_count(ty, bytes), bytes, 0)?;
        Ok(out)
    }

    /// Elements of a runtime-sized array holding `bytes`; `None` for a sized type.
    pub fn element_count(&self, ty: Handle<Type>, bytes: &[u8]) -> Option<u32> {
        match self.module.types[ty].inner {
            TypeInner::Array {
                size: ArraySize::Dynamic,
                stride,
                ..
            } => Some(bytes.len() as u32 / stride),
            _ => None,
        }
    }

    fn write(
        &self,
        out: &mut String,
        ty: Handle<Type>,
        count: Option<u32>,
        bytes: &[u8],
        at: usize,
    ) -> Result<(), LiteralError> {
        match self.module.types[ty].inner {
            TypeInner::Scalar(s) => write_scalar(out, s, word(bytes, at)?)?,
            TypeInner::Vector { size, scalar } => {
                let _ = write!(out, "vec{}<{}>(", size as u8, scalar_name(scalar)?);
                for i in 0..size as usize {
                    separate(out, i);
                    write_scalar(out, scalar, word(bytes, at + 4 * i)?)?;
                }
                out.push(')');
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                // Columns of `rows` scalars, each aligned as a vector of that size: 8 bytes
                // for two f32, 16 for three or four (WGSL's layout rules).
                let column_stride = if rows as usize == 2 { 8 } else { 16 };
                let _ = write!(out, "{}(", self.type_text(ty, None)?);
                for c in 0..columns as usize {
                    for r in 0..rows as usize {
                        separate(out, c * rows as usize + r);
                        write_scalar(out, scalar, word(bytes, at + c * column_stride + 4 * r)?)?;
                    }
                }
                out.push(')');
            }
            TypeInner::Array { base, stride, .. } => {
                let n = count.map_or_else(|| self.length(ty), Ok)?;
                let _ = write!(out, "{}(", self.type_text(ty, Some(n))?);
                for i in 0..n as usize {
                    separate(out, i);
                    self.write(out, base, None, bytes, at + i * stride as usize)?;
                }
                out.push(')');
            }
            TypeInner::Struct { ref members, .. } => {
                let _ = write!(out, "{}(", self.type_text(ty, None)?);
                for (i, m) in members.iter().enumerate() {
                    separate(out, i);
                    self.write(out, m.ty, None, bytes, at + m.offset as usize)?;
                }
                out.push(')');
            }
            ref other => return Err(format!("a value of type {other:?}")),
        }
        Ok(())
    }

    fn length(&self, ty: Handle<Type>) -> Result<u32, LiteralError> {
        match self.module.types[ty].inner {
            TypeInner::Array {
                size: ArraySize::Constant(n),
                ..
            } => Ok(n.get()),
            _ => Err("a nested array of unknown length".into()),
        }
    }
}

fn separate(out: &mut String, i: usize) {
    if i > 0 {
        out.push_str(", ");
    }
}

fn word(bytes: &[u8], at: usize) -> Result<u32, LiteralError> {
    let b = bytes.get(at..at + 4).ok_or_else(|| {
        format!(
            "the value ends at byte {} before byte {}",
            bytes.len(),
            at + 4
        )
    })?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn scalar_name(s: Scalar) -> Result<&'static str, LiteralError> {
    Ok(match (s.kind, s.width) {
        (ScalarKind::Uint, 4) => "u32",
        (ScalarKind::Sint, 4) => "i32",
        (ScalarKind::Float, 4) => "f32",
        _ => return Err(format!("a {s:?} scalar")),
    })
}

/// One scalar: integers with their suffix; an f32 as the shortest decimal that reads back to
/// the same bits (Rust's `{:?}`), which WGSL rounds to nearest, so the constant is exact.
fn write_scalar(out: &mut String, s: Scalar, bits: u32) -> Result<(), LiteralError> {
    match s.kind {
        ScalarKind::Uint => {
            let _ = write!(out, "{bits}u");
        }
        ScalarKind::Sint => {
            let _ = write!(out, "{}i", bits as i32);
        }
        ScalarKind::Float => {
            let v = f32::from_bits(bits);
            if !v.is_finite() {
                return Err(format!("a non-finite f32 ({v})"));
            }
            let _ = write!(out, "{v:?}f");
        }
        _ => return Err(format!("a {s:?} scalar")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A struct written from bytes reads back, through naga's constant evaluator, as the same
    /// bytes: members at their layout's offsets, an f32 that needs all 9 digits exact.
    #[test]
    fn a_struct_constant_holds_the_bytes_it_was_written_from() {
        let source = "struct S { a: u32, v: vec3<f32>, w: array<vec4<i32>, 2>, m: mat3x3<f32> }\n\
                      @group(0) @binding(0) var<uniform> s: S;";
        let module = naga::front::wgsl::parse_str(source).unwrap();
        let ty = module.global_variables.iter().next().unwrap().1.ty;
        let mut bytes = vec![0u8; 112];
        bytes[0..4].copy_from_slice(&7u32.to_le_bytes());
        bytes[16..20].copy_from_slice(&0.1f32.to_le_bytes());
        bytes[20..24].copy_from_slice(&f32::from_bits(0x3f80_0001).to_le_bytes());
        bytes[32..36].copy_from_slice(&(-5i32).to_le_bytes());
        // m: column 1, row 2 at 64 + 16 + 8 (columns of three f32 are 16 bytes apart).
        bytes[88..92].copy_from_slice(&2.5f32.to_le_bytes());
        let lit = Literals { module: &module };
        let text = lit.value(ty, &bytes).unwrap();
        assert!(text.starts_with("S(7u, vec3<f32>(0.1f, 1.0000001f, 0.0f), array<vec4<i32>, 2>("));
        assert!(text.contains("vec4<i32>(-5i, 0i, 0i, 0i)"));
        let check = format!(
            "struct S {{ a: u32, v: vec3<f32>, w: array<vec4<i32>, 2>, m: mat3x3<f32> }}\n\
             const c = {text};\n\
             const_assert c.v.y == 1.0000001f && c.w[0].x == -5i && c.a == 7u && c.m[1][2] == 2.5f;"
        );
        naga::front::wgsl::parse_str(&check).unwrap();
    }
}
