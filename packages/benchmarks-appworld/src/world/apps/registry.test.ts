import { describe, expect, it } from "vitest";
import { apiDocSchema } from "../../protocol/schemas.js";
import { allApiDocs, allApis, appDescriptions } from "./registry.js";

describe("offline world API registry", () => {
  it("has at least 7 apps beside supervisor and api_docs and at least 120 APIs, each a valid AppWorld api doc", () => {
    const apps = Object.keys(appDescriptions).filter((app) => app !== "supervisor" && app !== "api_docs");
    expect(apps.length).toBeGreaterThanOrEqual(7);
    expect(allApis.length).toBeGreaterThanOrEqual(120);
    const docs = allApiDocs();
    for (const app of Object.keys(appDescriptions))
      expect(Object.keys(docs[app] ?? {}).length).toBeGreaterThan(0);
    for (const byName of Object.values(docs))
      for (const doc of Object.values(byName)) apiDocSchema.parse(doc);
  });

  it("names every API once per app and documents paging on list APIs", () => {
    const keys = allApis.map((api) => `${api.app}.${api.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    const notesList = allApiDocs().notes?.show_notes;
    expect(notesList?.parameters.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(["access_token", "page_index", "page_limit"]),
    );
    expect(notesList?.parameters.find((parameter) => parameter.name === "page_limit")?.constraints).toEqual([
      "value >= 1",
      "value <= 20",
    ]);
  });
});
