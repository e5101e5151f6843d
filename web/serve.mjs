// Serves web/www on localhost (WebGPU needs a secure context, and localhost is one) and prints
// the address. `bash web/preview` builds first; `PORT=9000 node web/serve.mjs` picks the port.
import http from "node:http";
import { fileURLToPath } from "node:url";
import sirv from "sirv";

const root = fileURLToPath(new URL("./www", import.meta.url));
const port = Number(process.env.PORT ?? 8080);
const files = sirv(root, { dev: true, extensions: ["html"] });
// Packages from npm, pinned by package-lock.json (`npm ci --prefix web`), under /vendor/NAME:
// three.js (the 3D view) and Drawflow (the node editor).
const VENDORED = ["three", "drawflow"].map((name) => [
  `/vendor/${name}`,
  sirv(fileURLToPath(new URL(`./node_modules/${name}`, import.meta.url)), { dev: true }),
]);
const notFound = (res) => () => {
  res.statusCode = 404;
  res.end("not found");
};
http
  .createServer((req, res) => {
    for (const [prefix, serve] of VENDORED) {
      if (req.url.startsWith(`${prefix}/`)) {
        req.url = req.url.slice(prefix.length);
        return serve(req, res, notFound(res));
      }
    }
    return files(req, res, notFound(res));
  })
  .listen(port, "127.0.0.1", () => {
    console.log(`gpu-noise previewer: http://localhost:${port}/`);
  })
  .on("error", (e) => {
    console.error(`cannot serve on port ${port}: ${e.message} (set PORT to another)`);
    process.exit(2);
  });
