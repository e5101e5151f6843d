//! Constant expressions must be finite: one that evaluates to NaN or an infinity is a
//! shader-creation error in WGSL, which Chrome's Tint enforces and naga's validation does not
//! (naga folds what it can and keeps `bitcast<f32>(literal)` as it is). Every module the crate
//! parses passes this check too, so such a shader fails `cargo test`, not a browser.

/// A constant expression that evaluates to NaN or an infinity is a shader-creation error in
/// WGSL: Chrome's Tint refuses the module, while naga folds it into a literal and lets it
/// through (a graph's gradient function once did so, and every graph with a kind without
/// derivatives failed to build in Chrome). Every float literal naga folded must be finite.
pub(super) fn check_finite_constants(module: &naga::Module) -> Result<(), String> {
    let functions = (module.functions.iter().map(|(_, f)| f))
        .chain(module.entry_points.iter().map(|e| &e.function));
    let arenas = std::iter::once((String::from("module scope"), &module.global_expressions)).chain(
        functions.map(|f| {
            (
                format!("fn {}", f.name.as_deref().unwrap_or("?")),
                &f.expressions,
            )
        }),
    );
    for (place, expressions) in arenas {
        for (_, e) in expressions.iter() {
            let value = match *e {
                naga::Expression::Literal(l) => float_literal(l),
                // `bitcast<f32>(literal)`, which naga keeps unfolded.
                naga::Expression::As {
                    expr,
                    kind: naga::ScalarKind::Float,
                    convert: None,
                } => match expressions[expr] {
                    naga::Expression::Literal(naga::Literal::U32(bits)) => {
                        Some(f64::from(f32::from_bits(bits)))
                    }
                    naga::Expression::Literal(naga::Literal::I32(bits)) => {
                        Some(f64::from(f32::from_bits(bits as u32)))
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some(v) = value.filter(|v| !v.is_finite()) {
                return Err(format!(
                    "{place}: a constant expression evaluates to {v}, a shader-creation error in \
                     WGSL (Tint refuses it); make the value at run time"
                ));
            }
        }
    }
    Ok(())
}

fn float_literal(l: naga::Literal) -> Option<f64> {
    match l {
        naga::Literal::F32(v) => Some(f64::from(v)),
        naga::Literal::F64(v) | naga::Literal::AbstractFloat(v) => Some(v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::wgsl::validate;

    #[test]
    fn a_constant_nan_fails_and_a_run_time_one_passes() {
        let constant = "fn f() -> f32 { let x = bitcast<f32>(0x7fc00000u); return x; }";
        let message = validate(constant).unwrap_err().to_string();
        assert!(
            message.contains("NaN") && message.contains("fn f"),
            "{message}"
        );
        let infinite = "fn f() -> f32 { return bitcast<f32>(0x7f800000u); }";
        assert!(validate(infinite).is_err());
        let run_time = "fn f() -> f32 { var b = 0x7fc00000u; return bitcast<f32>(b); }";
        validate(run_time).unwrap();
        validate("fn f() -> f32 { return bitcast<f32>(0x3f800000u); }").unwrap();
    }
}
