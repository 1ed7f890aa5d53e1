import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const bundles = { vega: "vega.min.js", "vega-lite": "vega-lite.min.js" } as const;
const cache = new Map<string, Buffer>();

/**
 * The browser bundle of an installed chart library (`vega`, `vega-lite`), read from the package this
 * dashboard depends on: both packages keep their entry file and their minified browser bundle in `build/`.
 */
export async function vendorScript(name: keyof typeof bundles): Promise<Buffer> {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const entry = fileURLToPath(import.meta.resolve(name));
  const script = await readFile(join(dirname(entry), bundles[name]));
  cache.set(name, script);
  return script;
}
