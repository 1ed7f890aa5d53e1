// Mean steps, seconds and success of the episodes an `hs eval --trajectories FILE` run wrote.
// Usage: node bench/appworld-trajectory-stats.mjs FILE...
import { readFileSync } from "node:fs";

for (const file of process.argv.slice(2)) {
  const episodes = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const seconds = episodes.map((episode) => episode.timings.wallMs / 1000);
  const reasons = {};
  for (const episode of episodes) reasons[episode.endReason] = (reasons[episode.endReason] ?? 0) + 1;
  console.log(
    JSON.stringify({
      file,
      episodes: episodes.length,
      success: mean(episodes.map((episode) => (episode.success ? 1 : 0))),
      meanSteps: Number(mean(episodes.map((episode) => episode.steps.length)).toFixed(2)),
      meanSeconds: Number(mean(seconds).toFixed(3)),
      endReasons: reasons,
    }),
  );
}
