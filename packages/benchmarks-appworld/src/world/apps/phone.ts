import { type ApiDefinition, ApiFailure } from "../api-definition.js";
import { insertRow } from "../database.js";
import { accountApis } from "./account-apis.js";
import { type CollectionDefinition, collectionApis } from "./collection.js";

/** Relationships a contact may have. */
export const relationships = ["friend", "family", "coworker", "roommate", "neighbor"] as const;

const contacts: CollectionDefinition = {
  app: "phone",
  table: "phone.contacts",
  singular: "contact",
  plural: "contacts",
  owned: true,
  operations: ["list", "show", "create", "update", "delete"],
  searchFields: ["first_name", "last_name", "email", "phone_number"],
  fields: [
    {
      name: "first_name",
      type: "string",
      description: "First name.",
      requiredOnCreate: true,
      editable: true,
    },
    { name: "last_name", type: "string", description: "Last name.", requiredOnCreate: true, editable: true },
    {
      name: "phone_number",
      type: "string",
      description: "Phone number.",
      requiredOnCreate: true,
      editable: true,
    },
    { name: "email", type: "string", description: "Email.", default: null, editable: true },
    {
      name: "relationship",
      type: "string",
      description: "How you know them.",
      default: "friend",
      editable: true,
      filter: true,
      choices: relationships,
    },
  ],
};

const messages: CollectionDefinition = {
  app: "phone",
  table: "phone.messages",
  singular: "text_message",
  plural: "text_messages",
  owned: true,
  operations: ["list", "show", "delete"],
  searchFields: ["message"],
  fields: [
    { name: "sender", type: "string", description: "Phone number of the sender.", filter: true },
    { name: "receiver", type: "string", description: "Phone number of the receiver.", filter: true },
    { name: "message", type: "string", description: "Text." },
    { name: "created_at", type: "string", description: "When it was sent." },
  ],
};

const alarms: CollectionDefinition = {
  app: "phone",
  table: "phone.alarms",
  singular: "alarm",
  plural: "alarms",
  owned: true,
  operations: ["list", "show", "create", "update", "delete"],
  searchFields: ["label"],
  fields: [
    {
      name: "time",
      type: "string",
      description: "Time of day, HH:MM (24 hours).",
      requiredOnCreate: true,
      editable: true,
    },
    { name: "label", type: "string", description: "Label.", default: "", editable: true },
    {
      name: "enabled",
      type: "boolean",
      description: "Whether it rings.",
      default: true,
      editable: true,
      filter: true,
    },
    {
      name: "repeat_days",
      type: "list[string]",
      description: "Weekdays it repeats on, e.g. monday.",
      default: [],
      editable: true,
    },
  ],
};

/** The phone app: contacts, text messages, alarms (in the spirit of AppWorld's phone). */
export const phoneApis: ApiDefinition[] = [
  ...accountApis("phone"),
  ...collectionApis(contacts),
  ...collectionApis(messages),
  {
    app: "phone",
    name: "send_text_message",
    method: "POST",
    path: "/text_messages",
    description: "Send a text message to a phone number.",
    parameters: [
      { name: "phone_number", type: "string", description: "Phone number of the receiver.", required: true },
      { name: "message", type: "string", description: "Text.", required: true, nonEmpty: true },
    ],
    auth: true,
    response: { message: "string", text_message_id: 1 },
    handle: ({ database, arguments: values, user }) => {
      const me = database.people.find((person) => person.email === user);
      const receiver = database.people.find((person) => person.phone_number === values.phone_number);
      if (me === undefined || receiver === undefined)
        throw new ApiFailure(404, `No phone with number ${String(values.phone_number)}.`);
      const common = {
        sender: me.phone_number,
        receiver: receiver.phone_number,
        message: values.message,
        created_at: database.datetime,
      };
      const row = insertRow(database, "phone.messages", { owner: user, ...common });
      insertRow(database, "phone.messages", { owner: receiver.email, ...common });
      return { message: "Message sent.", text_message_id: row.id };
    },
  },
  ...collectionApis(alarms),
  {
    app: "phone",
    name: "show_relationships",
    method: "GET",
    path: "/relationships",
    description: "List the relationships a contact can have.",
    parameters: [],
    auth: false,
    response: ["string"],
    handle: () => [...relationships],
  },
];
