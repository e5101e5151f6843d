// Spec text: a spec file's JSON (the tool's `--spec`), kept exact. Seeds are u64 and offsets
// f64: integers beyond 2^53 stay BigInt (JSON.parse's source text), and numbers are written
// with JavaScript's shortest round-trip form, which Rust's parser reads back to the same f64.

const BIG = "\u0000big:";

/** Parses spec JSON, keeping integers that a double cannot hold as BigInt. */
export function parseSpec(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value === "number" && !Number.isSafeInteger(value) && context?.source &&
        /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  });
}

/** Writes spec JSON; BigInts as plain digits, `raw` values (a graph's own text) verbatim. */
export function specText(spec, raw = {}) {
  const slots = [];
  const text = JSON.stringify(spec, (key, value) => {
    if (typeof value === "bigint") return `${BIG}${value}`;
    if (key in raw && raw[key] !== undefined && spec[key] === value) {
      slots.push(raw[key]);
      return `${BIG}raw:${slots.length - 1}`;
    }
    return value;
  }, 2);
  return text.replace(/"\\u0000big:(raw:)?([-\d]+)"/g, (_, isRaw, n) => (isRaw ? slots[Number(n)] : n));
}

/** The part `key` of the page's address (`#spec=...&layout=...`), decoded, or null. */
function fromAddress(key) {
  const match = location.hash.match(new RegExp(`[#&]${key}=([^&]*)`));
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** The spec in the page's address (`#spec=...`), or null. */
export function specFromAddress() {
  return fromAddress("spec");
}

/** The node editor's layout in the page's address (`&layout=...`: node name to [x, y]), or
 *  null. */
export function layoutFromAddress() {
  const text = fromAddress("layout");
  try {
    const layout = text === null ? null : JSON.parse(text);
    return layout !== null && typeof layout === "object" ? layout : null;
  } catch {
    return null;
  }
}

/** Puts the spec (and a graph's node `layout`, where given) in the address: a new history entry
 *  when `push` (a settled view, so Back returns to it), else in place (the frames of one drag
 *  or one edit). */
export function specToAddress(text, push = false, layout = null) {
  const tail = layout ? `&layout=${encodeURIComponent(JSON.stringify(layout))}` : "";
  const hash = `#spec=${encodeURIComponent(text)}${tail}`;
  if (location.hash === hash) return;
  if (push) history.pushState(null, "", hash);
  else history.replaceState(null, "", hash);
}
