//! User strings as messages show them. A key, a name or a value that a user (or a downloaded
//! graph) wrote can hold escape sequences that a terminal obeys (ESC, OSC 52 writes the
//! clipboard) and can be a megabyte long; every message shows it escaped, quoted and cut to a
//! short prefix, so an error can neither drive the user's terminal nor bury the reason.

/// Most characters of a user's string that a message shows; past them the string's length in
/// bytes is given instead.
pub const QUOTED_CHARS: usize = 40;

/// Most characters of a message built by another library (serde_json's, zarrs') over user
/// input, after [`tamed`]: enough for any reason and its list of choices.
pub const MESSAGE_CHARS: usize = 600;

/// `text` in double quotes with its quotes, backslashes and non-printing characters escaped
/// (Rust's `{:?}`: ESC shows as `\u{1b}`), its first [`QUOTED_CHARS`] characters only, then
/// `... (N bytes)`.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &text[..cut], text.len()),
    }
}

/// A field or key name as a message's field slot shows it: as it is when it is a short run of
/// printable ASCII with no quote or backslash (every name the tool defines), else [`quoted`].
pub fn label(name: &str) -> String {
    let plain = !name.is_empty()
        && name.len() <= QUOTED_CHARS
        && name
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\');
    if plain {
        name.to_string()
    } else {
        quoted(name)
    }
}

/// Another library's message about user input, made safe to print: each span between
/// backticks (where serde quotes a variant or a field it read) cut to [`QUOTED_CHARS`], every
/// non-printing character escaped, and the whole cut to [`MESSAGE_CHARS`].
pub fn tamed(message: &str) -> String {
    let mut out = String::new();
    for (i, span) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        match span.char_indices().nth(QUOTED_CHARS) {
            Some((cut, _)) if i % 2 == 1 => {
                escape_into(&mut out, &span[..cut]);
                out.push_str(&format!("... ({} bytes)", span.len()));
            }
            _ => escape_into(&mut out, span),
        }
    }
    match out.char_indices().nth(MESSAGE_CHARS) {
        None => out,
        Some((cut, _)) => format!("{}... (message cut)", &out[..cut]),
    }
}

/// Most characters of a path a message shows (its start, then `...`).
pub const PATH_CHARS: usize = 300;

/// A path as a message shows it: lossy where it is no UTF-8 (the file keeps its bytes), every
/// non-printing character escaped, cut to [`PATH_CHARS`].
pub fn shown_path(path: &std::path::Path) -> String {
    let lossy = path.to_string_lossy();
    let mut out = String::new();
    match lossy.char_indices().nth(PATH_CHARS) {
        None => escape_into(&mut out, &lossy),
        Some((cut, _)) => {
            escape_into(&mut out, &lossy[..cut]);
            out.push_str("...");
        }
    }
    out
}

/// `text` with every control or other non-printing character as its `\u{..}` escape.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_control() || is_invisible_format(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
}

/// Format characters that reorder or hide text on a terminal (bidirectional overrides and
/// isolates, zero-width characters): shown escaped, as `{:?}` shows them.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{feff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_escaped_and_long_strings_cut() {
        let osc52 = "\u{1b}]52;c;aGVsbG8=\u{7}";
        let q = quoted(osc52);
        assert!(!q.contains('\u{1b}') && !q.contains('\u{7}'), "{q}");
        assert!(q.starts_with('"') && q.contains("\\u{1b}"), "{q}");
        let long = "k".repeat(900_000);
        let q = quoted(&long);
        assert!(q.len() < 80 && q.ends_with("... (900000 bytes)"), "{q}");
        // Cut on a character boundary, not inside a multi-byte character.
        assert_eq!(
            quoted(&"é".repeat(50))
                .chars()
                .filter(|&c| c == 'é')
                .count(),
            QUOTED_CHARS
        );
    }

    #[test]
    fn plain_names_stay_plain_and_others_are_quoted() {
        assert_eq!(label("frequency"), "frequency");
        assert_eq!(label("by[0]"), "by[0]");
        assert_eq!(label("a b"), "\"a b\"");
        assert_eq!(label("x\u{1b}[31m"), "\"x\\u{1b}[31m\"");
        assert_eq!(label(""), "\"\"");
    }

    #[test]
    fn paths_are_shown_escaped_and_cut() {
        let p = std::path::Path::new("out/\u{1b}]52;c;x\u{7}.png");
        assert_eq!(shown_path(p), "out/\\u{1b}]52;c;x\\u{7}.png");
        let long = "d/".repeat(1000);
        assert!(shown_path(std::path::Path::new(&long)).ends_with("d/..."));
    }

    #[test]
    fn other_libraries_messages_lose_their_escapes_and_their_length() {
        let serde = format!(
            "unknown variant `{}\u{1b}]52;c;x\u{7}`, expected one of `perlin`, `value`",
            "A".repeat(10_000_000)
        );
        let t = tamed(&serde);
        assert!(t.len() < 200, "{} bytes", t.len());
        assert!(
            !t.contains('\u{1b}') && t.contains("10000009 bytes)"),
            "{t}"
        );
        assert!(t.ends_with("expected one of `perlin`, `value`"), "{t}");
        let plain = "expected value at line 1 column 5";
        assert_eq!(tamed(plain), plain);
        assert!(tamed(&"x\u{202e}".repeat(1000)).ends_with("(message cut)"));
        assert!(!tamed("a\u{202e}b").contains('\u{202e}'));
    }
}
