export * from "./charts.js";
export * from "./experiment.js";
export * from "./render-chart.js";
export * from "./statistics.js";
export * from "./write-report.js";
