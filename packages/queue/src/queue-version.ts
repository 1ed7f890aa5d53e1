import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/**
 * Version of this package, carried by every job and every result: a worker refuses a job of another
 * version and the trainer refuses a result of another version, since an episode run by other code
 * might differ from the one this process would have run.
 */
export const queuePackageVersion: string = manifest.version;

/** Name of the BullMQ queue the rollouts go through (one per project version, so versions never mix). */
export function rolloutQueueName(version: string = queuePackageVersion): string {
  return `hs-rollouts-${version.replaceAll(/[^A-Za-z0-9.-]/g, "_")}`;
}
