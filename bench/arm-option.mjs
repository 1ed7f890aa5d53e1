// `--arm NAME=DIR` of the experiment bench scripts: runs trained outside an `hs quickstart`
// experiment (DIR/seed-S, one run per seed), measured beside its methods.

/** The arms of the `--arm` values, in order; a value that is not NAME=DIR stops the script (exit 2). */
export function armsOf(values) {
  return values.map((argument) => {
    const [name, ...rest] = argument.split("=");
    const directory = rest.join("=");
    if (name === "" || directory === "") {
      process.stderr.write(`--arm ${argument}: expected NAME=DIR (DIR/seed-S holds one run per seed)\n`);
      process.exit(2);
    }
    return { name, directory };
  });
}
