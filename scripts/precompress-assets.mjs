// Run by `npm run build` after `remix build`: writes a brotli copy (quality 11, the
// smallest) beside each script and style sheet of public/build, which app/server.mjs sends
// to browsers that accept brotli instead of compressing the file again on every request.
// The build's file names carry a hash of their content, so a copy already there is current.
// Usage: node scripts/precompress-assets.mjs [dir]   (default public/build)
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const dir = path.resolve(process.argv[2] ?? "public/build");
const COMPRESSIBLE = /\.(js|css|json|svg)$/;

const files = (await readdir(dir, { recursive: true })).filter((f) => COMPRESSIBLE.test(f));
let raw = 0;
let compressed = 0;
let written = 0;
await Promise.all(
  files.map(async (file) => {
    const source = path.join(dir, file);
    const target = `${source}.br`;
    const [input, existing] = await Promise.all([readFile(source), stat(target).catch(() => null)]);
    raw += input.length;
    if (existing && existing.mtimeMs >= (await stat(source)).mtimeMs) {
      compressed += existing.size;
      return;
    }
    const output = await brotli(input, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length },
    });
    await writeFile(target, output);
    compressed += output.length;
    written++;
  }),
);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`precompressed ${files.length} assets (${written} written): ${kb(raw)} → ${kb(compressed)} brotli`);
