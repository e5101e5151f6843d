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
  const problem = document.createElement("small");
  problem.className = "field-error";
  problem.id = `param-${p.name}-error`;
  problem.setAttribute("role", "alert");
  problem.hidden = true;
  input.setAttribute("aria-describedby", problem.id);
  label.append(range, problem);
  return label;
}

/** Shows `message` at a parameter's input (null clears it): the input keeps what was typed. */
export function showFieldError(input, message) {
  const problem = input && document.getElementById(`${input.id}-error`);
  if (!problem) return;
  problem.hidden = !message;
  problem.textContent = message ?? "";
  input.setAttribute("aria-invalid", String(Boolean(message)));
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

/** An input's text as the JSON value of its parameter (a number, a whole number, or a name),
 *  checked against the node table's range; an error says why in the library's words
 *  (`octaves: must be a whole number in 1..=16, got 2.5`, `jitter: must be in [0, 1], got 3`). */
export function paramValue(p, text) {
  const t = text.trim();
  if (p.type === "choice") return t;
  if (p.type === "orientation" && t === "isotropic") return t;
  const x = Number(t);
  const got = JSON.stringify(t);
  if (t === "" || !Number.isFinite(x)) {
    const what = p.type === "whole" ? `a whole number in ${p.min}..=${p.max}` : p.type === "orientation" ? "degrees or \"isotropic\"" : "a number";
    throw new Error(`${p.name}: must be ${what}, got ${got}`);
  }
  if (p.type === "whole" && !(Number.isInteger(x) && x >= p.min && x <= p.max)) {
    throw new Error(`${p.name}: must be a whole number in ${p.min}..=${p.max}, got ${t}`);
  }
  if (p.type === "number") {
    const low = p.min_open ? x > p.min : x >= p.min;
    if (!(low && x <= p.max)) {
      const range = p.max >= Number.MAX_VALUE ? `a finite number ${p.min_open ? ">" : ">="} ${p.min}` : `in ${p.min_open ? "(" : "["}${p.min}, ${p.max}]`;
      throw new Error(`${p.name}: must be ${range}, got ${t}`);
    }
  }
  return x;
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
