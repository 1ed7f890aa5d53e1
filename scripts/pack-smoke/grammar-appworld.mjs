import { createAppWorldGrammar, grammarPlugin, readView } from "@hs/grammar-appworld";

// A view as the AppWorld react preset renders it after two cells (apps listed, passwords shown), then the
// grammar's decisions on it, taking the first option each time, up to a finished action.
const view = {
  actionFormat: "text",
  tools: [],
  messages: [
    {
      role: "user",
      content:
        "My name is: Ada Stone. My personal email is ada.stone@example.com and phone number is 5550100.\nTask: How many notes do I have?",
    },
    { role: "assistant", content: "Apps.\n```python\nprint(apis.api_docs.show_app_descriptions())\n```" },
    { role: "user", content: "[{'name': 'notes', 'description': 'A note-taking app with tags.'}]" },
    {
      role: "assistant",
      content: "Passwords.\n```python\nprint(apis.supervisor.show_account_passwords())\n```",
    },
    { role: "user", content: "[{'account_name': 'notes', 'password': 'pw1'}]" },
  ],
};
if (grammarPlugin.benchmark !== "appworld") throw new Error(`plugin names ${grammarPlugin.benchmark}`);
const read = readView(view);
if (read.apps[0] !== "notes" || read.passwords.get("notes") !== "pw1")
  throw new Error(`view read as apps ${JSON.stringify(read.apps)}`);
const grammar = createAppWorldGrammar();
const first = grammar.next(view, []);
if (first.done || first.decision.options.length === 0) throw new Error("no first decision");
const chosen = [];
let step = first;
while (!step.done && chosen.length < 64) {
  chosen.push(step.decision.options[0].label);
  step = grammar.next(view, chosen);
}
if (!step.done || !step.content.includes("```python"))
  throw new Error(`grammar did not finish after ${chosen.join(" ")}`);
const options = first.decision.options.map((option) => option.label).join(", ");
console.log(
  `grammar-appworld: first decision "${first.decision.name}" [${options}]; ${chosen.length} choices -> ${JSON.stringify(step.content.split("\n")[0])}`,
);
