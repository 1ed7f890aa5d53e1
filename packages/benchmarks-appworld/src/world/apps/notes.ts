import { type ApiDefinition, ApiFailure } from "../api-definition.js";
import { rowsOf } from "../database.js";
import { accountApis } from "./account-apis.js";
import { type CollectionDefinition, collectionApis, findRow } from "./collection.js";

const notes: CollectionDefinition = {
  app: "notes",
  table: "notes.notes",
  singular: "note",
  plural: "notes",
  owned: true,
  operations: ["list", "show", "create", "update", "delete"],
  searchFields: ["title", "content"],
  fields: [
    { name: "title", type: "string", description: "Title.", requiredOnCreate: true, editable: true },
    { name: "content", type: "string", description: "Text of the note.", default: "", editable: true },
    { name: "tags", type: "list[string]", description: "Tags.", default: [], filter: true },
    {
      name: "pinned",
      type: "boolean",
      description: "Whether it is pinned.",
      default: false,
      editable: true,
      filter: true,
    },
  ],
  onCreate: ({ database }) => ({ created_at: database.datetime }),
};

function tagApi(name: "add_note_tag" | "remove_note_tag"): ApiDefinition {
  const adding = name === "add_note_tag";
  return {
    app: "notes",
    name,
    method: adding ? "POST" : "DELETE",
    path: "/notes/{note_id}/tags",
    description: adding ? "Add a tag to a note." : "Remove a tag from a note.",
    parameters: [
      { name: "note_id", type: "integer", description: "The note's id.", required: true },
      { name: "tag", type: "string", description: "The tag.", required: true, nonEmpty: true },
    ],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      const note = findRow(notes, context);
      const tag = context.arguments.tag as string;
      const tags = [...(note.tags as string[])];
      if (adding === tags.includes(tag))
        throw new ApiFailure(
          409,
          adding ? "The note already has that tag." : "The note does not have that tag.",
        );
      note.tags = adding ? [...tags, tag] : tags.filter((existing) => existing !== tag);
      return { message: adding ? "Tag added." : "Tag removed." };
    },
  };
}

/** The notes app (in the spirit of AppWorld's simple_note). */
export const notesApis: ApiDefinition[] = [
  ...accountApis("notes"),
  ...collectionApis(notes),
  tagApi("add_note_tag"),
  tagApi("remove_note_tag"),
  {
    app: "notes",
    name: "show_tags",
    method: "GET",
    path: "/tags",
    description: "List the tags used on your notes with how many notes carry each.",
    parameters: [],
    auth: true,
    response: [{ tag: "string", note_count: 1 }],
    handle: ({ database, user }) => {
      const counts = new Map<string, number>();
      for (const row of rowsOf(database, "notes.notes")) {
        if (row.owner !== user) continue;
        for (const tag of row.tags as string[]) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      }
      return [...counts]
        .sort(([left], [right]) => left.localeCompare(right))
        .map(([tag, note_count]) => ({ tag, note_count }));
    },
  },
];
