// The noise controls, built from the library's own description of every kind, fractal and
// parameter (wasm `controls()`): each input shows its allowed range and default, and a new
// parameter in the library's node table appears here without a change to the page.

/** A labelled input for one parameter of the node table. */
export function paramInput(p, onChange) {
  const label = document.createElement("label");
  label.title = p.doc;
  const name = document.createElement("span");
  name.textContent = p.name;
  label.append(name);
  let input;
  if (p.type === "choice") {
    input = document.createElement("select");
    for (const o of p.options) input.append(new Option(o, o));
  } else {
    input = document.createElement("input");
    input.type = "text";
    input.inputMode = "decimal";
    input.spellcheck = false;
  }
  input.id = `param-${p.name}`;
  input.dataset.param = p.name;
  input.addEventListener("change", () => onChange(p, input.value));
  label.append(input);
  const range = document.createElement("small");
  range.textContent = rangeText(p);
  label.append(range);
  return label;
}

/** `0..=1`, `(0, 64]`, `1..=16`, or `degrees | isotropic`. */
export function rangeText(p) {
  switch (p.type) {
    case "number": {
      // f64's largest number is no bound a person reads: it shows as infinity.
      const unbounded = p.max >= Number.MAX_VALUE;
      const max = unbounded ? "∞)" : `${p.max}]`;
      return p.min_open ? `(${p.min}, ${max}` : unbounded ? `>= ${p.min}` : `${p.min}..=${p.max}`;
    }
    case "whole":
      return `${p.min}..=${p.max}`;
    case "orientation":
      return "degrees | isotropic";
    default:
      return "";
  }
}

/** An input's text as the JSON value of its parameter: a number, a whole number, or a name. */
export function paramValue(p, text) {
  const t = text.trim();
  if (p.type === "choice") return t;
  if (p.type === "orientation" && t === "isotropic") return t;
  if (t === "" || !Number.isFinite(Number(t))) {
    throw new Error(`${p.name}: ${JSON.stringify(t)} is not a number (${rangeText(p)})`);
  }
  return Number(t);
}

/** Shows a value in its input (numbers in full: the shortest text that reads back exactly),
 *  except in the input being typed in, unless `force` (a refused value is put back). */
export function showValue(input, value, force = false) {
  if (input && (force || document.activeElement !== input)) input.value = String(value);
}

/** Replaces a select's options. */
export function setOptions(select, names, value) {
  select.replaceChildren(...names.map((n) => new Option(n, n)));
  if (value !== undefined) select.value = String(value);
}
