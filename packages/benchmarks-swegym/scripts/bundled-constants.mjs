// Shared by the authoring generator and the run-time mirror builder (src/data/bundled-mirror.ts mirrors
// these values; a test checks they agree).

/** Author and committer of every bundled commit; the date is the instance's created_at. */
export function bundledCommitEnvironment(date) {
  return {
    GIT_AUTHOR_NAME: "Harness-S Fixtures",
    GIT_AUTHOR_EMAIL: "fixtures@harness-s.invalid",
    GIT_COMMITTER_NAME: "Harness-S Fixtures",
    GIT_COMMITTER_EMAIL: "fixtures@harness-s.invalid",
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
}

/** The commit message of a base commit. */
export function commitMessage(name) {
  return `${name}: snapshot\n`;
}

/** The test command of the bundled repositories. */
export const bundledTestCommand = ["/usr/bin/python3", "-m", "pytest", "-rA", "-p", "no:cacheprovider"];
