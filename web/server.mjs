// The previewer's request handler: web/www, and the npm packages it loads under /vendor/NAME
// (three.js for the 3D view, Drawflow for the node editor), pinned by package-lock.json
// (`npm ci --prefix web`). web/serve.mjs listens with it; the browser tests serve the page
// through it too, so what they test is what users run.
import { fileURLToPath } from "node:url";
import sirv from "sirv";

const VENDORED = ["three", "drawflow"];

/**
 * Whether a Range header is one that sirv serves safely: a single `bytes=a-b`, `bytes=a-` or
 * `bytes=-n` range with a <= b. sirv hands `bytes=100-50` to fs.createReadStream, which
 * throws a RangeError that took the whole server down with one request.
 */
export function servableRange(header) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return false;
  return m[1] === "" || m[2] === "" || Number(m[1]) <= Number(m[2]);
}

/** A handler for http.createServer serving the previewer from the web/ folder `webDir`. */
export function createHandler(webDir = fileURLToPath(new URL(".", import.meta.url))) {
  const files = sirv(`${webDir}/www`, { dev: true, extensions: ["html"] });
  const vendored = VENDORED.map((name) => [
    `/vendor/${name}`,
    sirv(`${webDir}/node_modules/${name}`, { dev: true }),
  ]);
  return (req, res) => {
    const notFound = () => {
      res.statusCode = 404;
      res.end("not found");
    };
    try {
      const range = req.headers.range;
      if (range !== undefined && !servableRange(range)) {
        // 416 Range Not Satisfiable (RFC 9110 §15.5.17), before sirv sees it.
        res.statusCode = 416;
        res.setHeader("Content-Type", "text/plain");
        return res.end("unsatisfiable range: give one bytes=start-end range with start <= end");
      }
      for (const [prefix, serve] of vendored) {
        if (req.url.startsWith(`${prefix}/`)) {
          req.url = req.url.slice(prefix.length);
          return serve(req, res, notFound);
        }
      }
      return files(req, res, notFound);
    } catch (e) {
      // One bad request answers 500; the server keeps serving everyone else.
      console.error(`gpu-noise previewer: ${req.method} ${JSON.stringify(req.url).slice(0, 200)}: ${e.message}`);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  };
}
