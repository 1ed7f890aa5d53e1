import { describe, expect, it } from "vitest";
// @ts-expect-error the authoring script is plain JavaScript without type declarations
import * as authoring from "../../scripts/bundled-constants.mjs";
import { bundledAuthor, bundledTestCommand } from "./bundled-mirror.js";

describe("bundled constants", () => {
  it("the generator and the mirror builder agree on author, committer and test command", () => {
    const environment = authoring.bundledCommitEnvironment("2024-01-01T00:00:00Z");
    expect(environment.GIT_AUTHOR_NAME).toBe(bundledAuthor.name);
    expect(environment.GIT_COMMITTER_EMAIL).toBe(bundledAuthor.email);
    expect(authoring.bundledTestCommand.join(" ")).toBe(bundledTestCommand);
    expect(authoring.commitMessage("semver").trim()).toBe("semver: snapshot");
  });
});
