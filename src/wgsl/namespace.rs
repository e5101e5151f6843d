//! The library's namespace: every module-scope name the noise library declares (functions,
//! structs, constants, overrides, bindings) reaches a caller's shader with the prefix `gn_`
//! (`GN_` for names in capitals), so a host shader keeps its own `lerp`, `value` or `Lattice`
//! (CONVENTIONS §11). The files in `shaders/` keep the names of the CPU twin, which they mirror;
//! the prefix is added when a module is composed, by rewriting identifier tokens.
//!
//! The rewrite knows just enough WGSL: comments and numbers are copied as they are; a name after
//! `.` is a member or swizzle, a name before `:` in a struct body is a member, and the arguments
//! of `@builtin` and `@interpolate` are WGSL's own words, so those stay. Every other occurrence of
//! a declared name is renamed, locals that shadow one included, which keeps them consistent.
//! naga's view of the composed module checks the result (tests/suite/namespace.rs).

use std::collections::HashSet;

/// The prefix of the library's names (`GN_` for names without lower-case letters).
pub const PREFIX: &str = "gn_";

/// `name` as the library's namespace spells it.
pub fn prefixed(name: &str) -> String {
    if name.chars().any(|c| c.is_ascii_lowercase()) {
        format!("{PREFIX}{name}")
    } else {
        format!("{}{name}", PREFIX.to_ascii_uppercase())
    }
}

/// One token of WGSL source: a name, or any other run of text copied as it is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token<'a> {
    Name(&'a str),
    Other(&'a str),
}

impl Token<'_> {
    fn text(&self) -> &str {
        match self {
            Token::Name(t) | Token::Other(t) => t,
        }
    }

    /// Whitespace and comments: what a parser skips between tokens.
    fn is_blank(&self) -> bool {
        match self {
            Token::Name(_) => false,
            Token::Other(t) => {
                t.starts_with("//") || t.starts_with("/*") || t.chars().all(char::is_whitespace)
            }
        }
    }
}

/// Splits `source` into names, numbers, comments, whitespace runs and single symbols.
fn tokens(source: &str) -> Vec<Token<'_>> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let c = bytes[i];
        let name = c.is_ascii_alphabetic() || c == b'_';
        i = if source[i..].starts_with("//") {
            source[i..].find('\n').map_or(bytes.len(), |n| i + n)
        } else if source[i..].starts_with("/*") {
            block_comment_end(source, i)
        } else if name || c.is_ascii_digit() {
            // A number's suffix and exponent letters stay with it (`2u`, `1e5f`, `0x1Fu`).
            let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || (!name && *b == b'.');
            bytes[i..]
                .iter()
                .position(|b| !word(b))
                .map_or(bytes.len(), |n| i + n)
        } else if c.is_ascii_whitespace() {
            bytes[i..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .map_or(bytes.len(), |n| i + n)
        } else {
            i + source[i..].chars().next().map_or(1, char::len_utf8)
        };
        let text = &source[start..i];
        out.push(if name {
            Token::Name(text)
        } else {
            Token::Other(text)
        });
    }
    out
}

/// The end of the (nested) block comment opening at `start`.
fn block_comment_end(source: &str, start: usize) -> usize {
    let mut depth = 0;
    let mut i = start;
    while i < source.len() {
        if source[i..].starts_with("/*") {
            depth += 1;
            i += 2;
        } else if source[i..].starts_with("*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += source[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    source.len()
}

/// The significant tokens (no blanks), in order.
fn significant<'a>(all: &[Token<'a>]) -> Vec<Token<'a>> {
    all.iter().copied().filter(|t| !t.is_blank()).collect()
}

/// The names declared at module scope: the name after `fn`, `struct`, `const`, `override`,
/// `alias` or `var` (past its `<...>`) outside every brace.
pub(crate) fn declared_names(source: &str) -> HashSet<String> {
    let toks = significant(&tokens(source));
    let mut names = HashSet::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match toks[i] {
            Token::Other("{") => depth += 1,
            Token::Other("}") => depth = depth.saturating_sub(1),
            Token::Name(keyword) if depth == 0 => {
                let mut j = i + 1;
                let declares = matches!(keyword, "fn" | "struct" | "const" | "override" | "alias");
                if keyword == "var" && toks.get(j) == Some(&Token::Other("<")) {
                    while j < toks.len() && toks[j] != Token::Other(">") {
                        j += 1;
                    }
                    j += 1;
                }
                if (declares || keyword == "var")
                    && let Some(Token::Name(name)) = toks.get(j)
                {
                    names.insert(name.to_string());
                    i = j;
                }
            }
            _ => {}
        }
        i += 1;
    }
    names
}

/// Where a name stands, from the significant tokens around it.
struct Context {
    /// Brace depth of each open struct body's `{` (a stack: struct bodies do not nest, but a
    /// malformed source must not panic).
    struct_bodies: Vec<usize>,
    depth: usize,
    /// The parenthesis depth at which an `@builtin(`/`@interpolate(` argument list opened.
    attribute_words: Option<usize>,
    parens: usize,
}

/// `source` with every occurrence of a name in `names` prefixed (see the module's docs).
pub(crate) fn rename(source: &str, names: &HashSet<String>) -> String {
    let all = tokens(source);
    let mut out = String::with_capacity(source.len() + source.len() / 8);
    let mut ctx = Context {
        struct_bodies: Vec::new(),
        depth: 0,
        attribute_words: None,
        parens: 0,
    };
    let mut previous: [Token; 2] = [Token::Other(""), Token::Other("")];
    for (i, token) in all.iter().enumerate() {
        if token.is_blank() {
            out.push_str(token.text());
            continue;
        }
        match token {
            Token::Name(name)
                if names.contains(*name)
                    && !keeps_its_name(&ctx, previous[1], next_significant(&all, i)) =>
            {
                out.push_str(&prefixed(name))
            }
            _ => out.push_str(token.text()),
        }
        track(&mut ctx, previous, *token);
        previous = [previous[1], *token];
    }
    out
}

/// A member access or swizzle, a struct member's declaration, or an attribute's WGSL word.
fn keeps_its_name(ctx: &Context, before: Token, after: Option<Token>) -> bool {
    let member_access = before == Token::Other(".");
    let in_struct = ctx.struct_bodies.last() == Some(&ctx.depth);
    let member_declaration = in_struct && after == Some(Token::Other(":"));
    member_access || member_declaration || ctx.attribute_words.is_some()
}

fn next_significant<'a>(all: &[Token<'a>], i: usize) -> Option<Token<'a>> {
    all[i + 1..].iter().copied().find(|t| !t.is_blank())
}

/// Updates the braces, struct bodies and attribute argument lists after `token`.
fn track(ctx: &mut Context, previous: [Token; 2], token: Token) {
    match token {
        Token::Other("{") => {
            ctx.depth += 1;
            // `struct Name {`: the name is the token before the brace.
            if previous[0] == Token::Name("struct") {
                ctx.struct_bodies.push(ctx.depth);
            }
        }
        Token::Other("}") => {
            if ctx.struct_bodies.last() == Some(&ctx.depth) {
                ctx.struct_bodies.pop();
            }
            ctx.depth = ctx.depth.saturating_sub(1);
        }
        Token::Other("(") => {
            ctx.parens += 1;
            let words = [Token::Name("builtin"), Token::Name("interpolate")];
            if previous[0] == Token::Other("@") && words.contains(&previous[1]) {
                ctx.attribute_words = Some(ctx.parens);
            }
        }
        Token::Other(")") => {
            if ctx.attribute_words == Some(ctx.parens) {
                ctx.attribute_words = None;
            }
            ctx.parens = ctx.parens.saturating_sub(1);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitals_take_the_capital_prefix() {
        assert_eq!(prefixed("lerp"), "gn_lerp");
        assert_eq!(prefixed("Lattice"), "gn_Lattice");
        assert_eq!(prefixed("TABLE_SIZE"), "GN_TABLE_SIZE");
        assert_eq!(prefixed("PERLIN2_C1"), "GN_PERLIN2_C1");
    }

    #[test]
    fn members_swizzles_comments_numbers_and_builtins_keep_their_text() {
        let source = "struct value { value: f32, x: u32 }\n\
                      // value in a comment\n\
                      /* value /* nested */ value */\n\
                      const x: f32 = 1e5f;\n\
                      @compute @workgroup_size(x) fn f(@builtin(x) id: vec3<u32>) {\n\
                      let v = value(1.0, 2u); let w = v.value + v\n.x; }\n";
        let names = declared_names(source);
        let expected: HashSet<String> = ["value", "x", "f"].map(String::from).into();
        assert_eq!(names, expected);
        let out = rename(source, &names);
        assert_eq!(
            out,
            "struct gn_value { value: f32, x: u32 }\n\
             // value in a comment\n\
             /* value /* nested */ value */\n\
             const gn_x: f32 = 1e5f;\n\
             @compute @workgroup_size(gn_x) fn gn_f(@builtin(x) id: vec3<u32>) {\n\
             let v = gn_value(1.0, 2u); let w = v.value + v\n.x; }\n"
        );
    }

    #[test]
    fn var_templates_are_not_names() {
        let names = declared_names("@group(G) @binding(0) var<storage, read> table: array<u32>;");
        assert_eq!(names, HashSet::from(["table".to_string()]));
    }
}
