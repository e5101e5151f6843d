// Serves web/www on localhost (WebGPU needs a secure context, and localhost is one) and prints
// the address. `bash web/preview` builds first; `PORT=9000 node web/serve.mjs` picks the port.
import http from "node:http";
import { fileURLToPath } from "node:url";
import sirv from "sirv";

const root = fileURLToPath(new URL("./www", import.meta.url));
const port = Number(process.env.PORT ?? 8080);
const files = sirv(root, { dev: true, extensions: ["html"] });
// three.js (the 3D view) from the npm package, pinned by package-lock.json: `npm ci --prefix web`.
const three = sirv(fileURLToPath(new URL("./node_modules/three", import.meta.url)), { dev: true });
const VENDOR = "/vendor/three";
const notFound = (res) => () => {
  res.statusCode = 404;
  res.end("not found");
};
http
  .createServer((req, res) => {
    if (req.url.startsWith(`${VENDOR}/`)) {
      req.url = req.url.slice(VENDOR.length);
      return three(req, res, notFound(res));
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
