import grammarPlugin, { createSweGymGrammar, readView } from "@hs/grammar-swegym";

// A mini-swe-agent-style view (the PR description, a file listing and a numbered region), then the
// grammar's decisions on it: the first option each time up to a finished action, and an edit of a
// shown line; both must be a THOUGHT with exactly one bash block.
const task = `<pr_description>
Consider the following PR description:
\`clamp(5, 1, 3)\` returns 5; it should return 3.
</pr_description>`;
const view = {
  actionFormat: "text",
  tools: [],
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: task },
    {
      role: "assistant",
      content:
        "THOUGHT: list\n\n```bash\nfind . -name '*.py' -not -path './.git/*' | sort | head -n 200\n```",
    },
    {
      role: "user",
      content: "<returncode>0</returncode>\n<output>\n./pkg/__init__.py\n./pkg/core.py\n</output>",
    },
    { role: "assistant", content: "THOUGHT: look\n\n```bash\nnl -ba 'pkg/core.py' | sed -n '1,60p'\n```" },
    {
      role: "user",
      content:
        "<returncode>0</returncode>\n<output>\n     1\tdef clamp(value, low, high):\n     2\t    if value > high:\n     3\t        return high\n     4\t    return value\n</output>",
    },
  ],
};
if (grammarPlugin.benchmark !== "swegym") throw new Error(`plugin names ${grammarPlugin.benchmark}`);
const grammar = createSweGymGrammar();
const read = readView(view);
if (read.files.length !== 2 || read.shown.get("pkg/core.py")?.get(2)?.text !== "    if value > high:")
  throw new Error(`view read as ${JSON.stringify({ files: read.files })}`);
const finish = (labels) => {
  let step = grammar.next(view, labels);
  while (!step.done && labels.length < 64) {
    labels.push(step.decision.options[0].label);
    step = grammar.next(view, labels);
  }
  const blocks = step.content.match(/```bash\s*\n[\s\S]*?\n```/g) ?? [];
  if (!step.done || blocks.length !== 1) throw new Error(`no single bash block after ${labels.join(" ")}`);
  return { labels, step };
};
const first = grammar.next(view, []);
const kinds = first.decision.options.map((option) => option.label);
if (!kinds.includes("kind:submit") || !kinds.includes("kind:edit"))
  throw new Error(`kinds ${kinds.join(", ")}`);
const edit = finish(["kind:edit", "line:pkg/core.py:2"]);
if (!edit.step.toolCalls[0].arguments.command.includes("<<'HS_EDIT'"))
  throw new Error("edit is not the edit script");
const any = finish([]);
console.log(
  `grammar-swegym: first decision "${first.decision.name}" [${kinds.join(", ")}]; ${any.labels.join(" ")} -> ${JSON.stringify(any.step.content.split("\n")[0])}; edit ${edit.labels.slice(1).join(" ")}`,
);
