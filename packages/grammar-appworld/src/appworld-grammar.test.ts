import { execFileSync } from "node:child_process";
import { reactPreset, verlAgentPreset } from "@hs/benchmarks-appworld";
import type { PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { asNativeView, capturedEpisodes, episode } from "./__fixtures__/episode-views.js";
import { priorPick, seededPick, walk } from "./__fixtures__/walk.js";
import { createAppWorldGrammar } from "./appworld-grammar.js";
import { featureNames } from "./features.js";

const grammar = createAppWorldGrammar();
const allViews = capturedEpisodes.flatMap((entry) => entry.views);
const firstLabels = (view: PolicyView): string[] => {
  const step = grammar.next(view, []);
  return step.done ? [] : step.decision.options.map((option) => option.label);
};
const codeOf = (content: string, pattern: string): string | undefined =>
  new RegExp(pattern).exec(content)?.[1];

describe("decisions from captured views", () => {
  it("offers only what the first view makes possible, and the prior lists the apps first", () => {
    const view = episode("contactrelcount_1").views[0] as PolicyView;
    expect(firstLabels(view)).toEqual(["kind:apps", "kind:passwords", "kind:complete"]);
    const first = walk(grammar, view, priorPick(grammar));
    expect(first.labels).toEqual(["kind:apps"]);
    expect(first.action.content).toContain("print(apis.api_docs.show_app_descriptions())");
  });

  it("marks completing a question before any list is collected as unready, and not once one is", () => {
    const views = episode("contactrelcount_1").views as PolicyView[];
    const unready = featureNames.indexOf("kind:complete-unready");
    const completeFeatures = (view: PolicyView) => {
      const step = grammar.next(view, []);
      if (step.done) throw new Error("expected the kind decision");
      return step.decision.options.find((option) => option.label === "kind:complete")?.features ?? [];
    };
    expect(completeFeatures(views[0] as PolicyView)[unready]).toBe(1);
    expect(completeFeatures(views.at(-1) as PolicyView)[unready]).toBe(0);
    expect(grammar.prior?.[unready]).toBeLessThan(0);
  });

  it("offers the APIs of an app the view listed and the doc of an API it listed", () => {
    const [, afterApps, afterApis] = episode("contactrelcount_1").views as PolicyView[];
    const apis = walk(grammar, afterApps as PolicyView, priorPick(grammar));
    expect(apis.labels).toEqual(["kind:apis", "app:phone"]);
    const docStep = grammar.next(afterApis as PolicyView, ["kind:doc"]);
    if (docStep.done) throw new Error("expected the doc decision");
    expect(docStep.decision.options.map((option) => option.label)).toContain("api:phone.show_contacts");
  });

  it("logs in with the shown password, pages the list into a variable and counts it", () => {
    const views = episode("contactrelcount_1").views as PolicyView[];
    const prior = priorPick(grammar);
    const withPasswords = views.find((view) =>
      view.messages.some((message) => message.content.includes("'account_name': '")),
    ) as PolicyView;
    const login = walk(grammar, withPasswords, (decision) =>
      decision.name === "kind"
        ? decision.options.findIndex((option) => option.label === "kind:login")
        : prior(decision),
    );
    expect(login.labels.slice(0, 3)).toEqual(["kind:login", "app:phone", "username:email"]);
    expect(login.action.content).toMatch(
      /phone_token = apis\.phone\.login\(username="[^"]+@[^"]+", password="\w+"\)/,
    );
    const page = walk(grammar, views[6] as PolicyView, (decision) =>
      decision.name === "kind" ? decision.options.findIndex((option) => option.label === "kind:page") : 0,
    );
    expect(page.action.content).toContain("phone_show_contacts.extend(page)");
    expect(page.action.content).toContain("page_index += 1");
    const complete = walk(grammar, views.at(-1) as PolicyView, prior);
    expect(complete.labels.slice(0, 2)).toEqual(["kind:complete", "answer:count"]);
    expect(complete.action.content).toContain("apis.supervisor.complete_task(answer=answer)");
  });

  it("gives every view a non-empty decision each time, fixed-length features, and a reachable completion", () => {
    for (const view of allViews) {
      expect(firstLabels(view)).toContain("kind:complete");
      for (let seed = 0; seed < 6; seed += 1) {
        const result = walk(grammar, view, seededPick(seed));
        for (const decision of result.decisions) {
          expect(decision.options.length).toBeGreaterThan(0);
          expect(new Set(decision.options.map((option) => option.label)).size).toBe(decision.options.length);
          for (const option of decision.options) expect(option.features).toHaveLength(featureNames.length);
        }
      }
      const done = walk(grammar, view, (decision) =>
        decision.name === "kind"
          ? decision.options.findIndex((option) => option.label === "kind:complete")
          : 0,
      );
      expect(done.action.content).toContain("apis.supervisor.complete_task(");
    }
    expect(grammar.prior).toHaveLength(grammar.featureCount);
    expect(grammar.featureNames).toHaveLength(grammar.featureCount);
  });
});

describe("code in each preset's format", () => {
  const codes: string[] = [];
  it("writes a ```python block (react) and <think>/<code> tags (verl-agent) that the presets' rules read", () => {
    const reactRule =
      reactPreset.actionFormat.kind === "text" ? reactPreset.actionFormat.rules[0] : undefined;
    const verlRule =
      verlAgentPreset.actionFormat.kind === "text" ? verlAgentPreset.actionFormat.rules[0] : undefined;
    for (const entry of capturedEpisodes) {
      const rule = entry.preset === "react" ? reactRule : verlRule;
      for (const view of entry.views) {
        for (let seed = 0; seed < 4; seed += 1) {
          const { action } = walk(grammar, view, seededPick(seed * 7 + 1));
          const code = codeOf(action.content, rule?.pattern ?? "");
          expect(code, action.content).toBeDefined();
          expect(action.toolCalls).toEqual([]);
          codes.push(code as string);
        }
      }
    }
    expect(episode("notestagdelete_1").views[0]?.messages[0]?.content).toContain("<code>");
  });

  it("calls the native execute tool when the view offers it", () => {
    const view = asNativeView(episode("todoadd_1").views[5] as PolicyView);
    const { action } = walk(grammar, view, seededPick(3));
    expect(action.toolCalls).toHaveLength(1);
    expect(action.toolCalls[0]?.name).toBe("execute");
    expect(action.content).not.toContain("```");
    codes.push(String(action.toolCalls[0]?.arguments.code));
  });

  it("writes code that Python parses", () => {
    const script =
      "import ast, json, sys\nfor code in json.load(sys.stdin):\n    ast.parse(code)\nprint('ok')";
    const output = execFileSync("python3", ["-c", script], {
      input: JSON.stringify(codes),
      encoding: "utf8",
    });
    expect(codes.length).toBeGreaterThan(100);
    expect(output.trim()).toBe("ok");
  });
});

const templateStrings = new Set(["items", "...", "access_token", "/"]);

function proposedLiterals(code: string): string[] {
  const strings = [...code.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map(
    (match) => JSON.parse(`"${match[1]}"`) as string,
  );
  const numbers = [...code.matchAll(/=\s*\[?(-?\d+(?:\.\d+)?)\b/g)].map((match) => match[1] as string);
  return [...strings, ...numbers].filter(
    (text) => !templateStrings.has(text) && !/^logged in to \w+$/.test(text) && !["0", "20"].includes(text),
  );
}

describe("reads nothing but the view", () => {
  it("gives identical decisions on identical views, whatever task they came from", () => {
    for (const view of allViews.slice(0, 12)) {
      const copy = JSON.parse(JSON.stringify(view)) as PolicyView;
      for (let seed = 0; seed < 3; seed += 1)
        expect(walk(grammar, copy, seededPick(seed))).toEqual(walk(grammar, view, seededPick(seed)));
    }
  });

  it("carries nothing from one task's views to another's: a view decides the same before and after others", () => {
    const view = episode("todoadd_1").views[6] as PolicyView;
    const fresh = createAppWorldGrammar();
    const before = walk(fresh, view, seededPick(5));
    for (const other of [...episode("contactrelcount_1").views, ...episode("notestagdelete_1").views])
      walk(fresh, other, seededPick(2));
    expect(walk(fresh, view, seededPick(5))).toEqual(before);
    expect(walk(grammar, view, seededPick(5))).toEqual(before);
  });

  it("proposes only apps, APIs, ids and values that occur in the view", () => {
    let checked = 0;
    for (const view of allViews) {
      const text = view.messages.map((message) => message.content).join("\n");
      for (let seed = 0; seed < 6; seed += 1) {
        const code =
          codeOf(
            walk(grammar, view, seededPick(seed + 11)).action.content,
            "(?:```python\\n|<code>\\n)([\\s\\S]*?)(?:```|</code>)",
          ) ?? "";
        for (const [, app, api] of code.matchAll(/apis\.(\w+)\.(\w+)\(/g)) {
          expect(text).toContain(app as string);
          expect(text).toContain(api as string);
        }
        for (const literal of proposedLiterals(code)) {
          expect(text, `${literal} in ${code}`).toContain(literal.replace(/\n/g, "\\n"));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
