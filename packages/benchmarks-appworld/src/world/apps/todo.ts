import type { ApiDefinition } from "../api-definition.js";
import { accountApis } from "./account-apis.js";
import { type CollectionDefinition, collectionApis, findRow } from "./collection.js";

const projects: CollectionDefinition = {
  app: "todo",
  table: "todo.projects",
  singular: "project",
  plural: "projects",
  owned: true,
  operations: ["list", "show", "create", "update", "delete"],
  searchFields: ["name"],
  fields: [
    { name: "name", type: "string", description: "Project name.", requiredOnCreate: true, editable: true },
    {
      name: "color",
      type: "string",
      description: "Colour label.",
      default: "grey",
      editable: true,
      choices: ["grey", "red", "blue", "green", "yellow"],
    },
  ],
};

const tasks: CollectionDefinition = {
  app: "todo",
  table: "todo.tasks",
  singular: "task",
  plural: "tasks",
  owned: true,
  operations: ["list", "show", "create", "update", "delete"],
  searchFields: ["title"],
  fields: [
    {
      name: "project_id",
      type: "integer",
      description: "Id of the project it belongs to.",
      requiredOnCreate: true,
      filter: true,
      editable: true,
    },
    { name: "title", type: "string", description: "What to do.", requiredOnCreate: true, editable: true },
    { name: "due_date", type: "string", description: "Due date, YYYY-MM-DD.", default: null, editable: true },
    {
      name: "priority",
      type: "integer",
      description: "Priority 1 (highest) to 4.",
      default: 4,
      editable: true,
      filter: true,
      minimum: 1,
    },
    { name: "completed", type: "boolean", description: "Whether it is done.", default: false, filter: true },
  ],
};

function completionApi(name: "complete_task" | "reopen_task"): ApiDefinition {
  const completing = name === "complete_task";
  return {
    app: "todo",
    name,
    method: "POST",
    path: `/tasks/{task_id}/${completing ? "complete" : "reopen"}`,
    description: completing ? "Mark a task as done." : "Mark a done task as not done.",
    parameters: [{ name: "task_id", type: "integer", description: "The task's id.", required: true }],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      findRow(tasks, context).completed = completing;
      return { message: completing ? "Task completed." : "Task reopened." };
    },
  };
}

/** The todo app (in the spirit of AppWorld's todoist). */
export const todoApis: ApiDefinition[] = [
  ...accountApis("todo"),
  ...collectionApis(projects),
  ...collectionApis(tasks),
  completionApi("complete_task"),
  completionApi("reopen_task"),
];
