import * as tf from "@tensorflow/tfjs";
import "@tensorflow/tfjs-backend-wasm";

let ready: Promise<string> | undefined;

/**
 * Selects the tfjs wasm backend once per process. When wasm cannot start, falls back to the `cpu`
 * backend and says so on stderr. Resolves to the backend name in use.
 */
export function initializeBackend(): Promise<string> {
  ready ??= (async () => {
    try {
      const ok = await tf.setBackend("wasm");
      if (!ok) throw new Error("tf.setBackend('wasm') returned false");
      await tf.ready();
    } catch (error) {
      process.stderr.write(
        `@hs/policy-embedded: the tfjs wasm backend failed to start (${String(error)}); using the slower 'cpu' backend.\n`,
      );
      await tf.setBackend("cpu");
      await tf.ready();
    }
    return tf.getBackend();
  })();
  return ready;
}

export { tf };
