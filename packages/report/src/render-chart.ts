import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

/** A chart rendered to files. */
export interface RenderedChart {
  /** File stem, e.g. `learning-curves`. */
  name: string;
  /** Chart title. */
  title: string;
  /** The SVG text (inlined in the HTML report). */
  svg: string;
  /** Paths of the SVG and PNG files written. */
  files: { svg: string; png: string };
}

/** Renders a Vega-Lite spec to SVG and PNG files in a directory (headless, no browser). */
export async function renderChart(
  spec: TopLevelSpec,
  name: string,
  title: string,
  directory: string,
): Promise<RenderedChart> {
  const vegaSpec = compile({
    ...spec,
    title,
    config: { font: "DejaVu Sans", ...spec.config },
  } as TopLevelSpec).spec;
  const view = new View(parse(vegaSpec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  const png = new Resvg(svg, {
    fitTo: { mode: "zoom", value: 2 },
    background: "white",
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" },
  })
    .render()
    .asPng();
  const files = { svg: join(directory, `${name}.svg`), png: join(directory, `${name}.png`) };
  await writeFile(files.svg, svg);
  await writeFile(files.png, png);
  return { name, title, svg, files };
}
