import { type ApiDefinition, ApiFailure } from "../api-definition.js";
import { insertRow, type WorldDatabase } from "../database.js";
import { accountApis } from "./account-apis.js";
import { type CollectionDefinition, collectionApis, findRow } from "./collection.js";

const emails: CollectionDefinition = {
  app: "email",
  table: "email.emails",
  singular: "email",
  plural: "emails",
  owned: true,
  operations: ["list", "show", "delete"],
  searchFields: ["subject", "body", "sender"],
  fields: [
    {
      name: "folder",
      type: "string",
      description: "inbox or sent.",
      filter: true,
      choices: ["inbox", "sent"],
    },
    { name: "sender", type: "string", description: "Email of the sender.", filter: true },
    { name: "recipients", type: "list[string]", description: "Emails of the recipients." },
    { name: "subject", type: "string", description: "Subject." },
    { name: "body", type: "string", description: "Body." },
    { name: "is_read", type: "boolean", description: "Whether it was read.", filter: true },
    { name: "is_starred", type: "boolean", description: "Whether it is starred.", filter: true },
    { name: "created_at", type: "string", description: "When it was sent." },
  ],
};

const drafts: CollectionDefinition = {
  app: "email",
  table: "email.drafts",
  singular: "draft",
  plural: "drafts",
  owned: true,
  operations: ["list", "show", "create", "update", "delete"],
  searchFields: ["subject", "body"],
  fields: [
    {
      name: "recipients",
      type: "list[string]",
      description: "Emails of the recipients.",
      default: [],
      editable: true,
    },
    { name: "subject", type: "string", description: "Subject.", default: "", editable: true },
    { name: "body", type: "string", description: "Body.", default: "", editable: true },
  ],
};

/** Delivers an email: a copy in the sender's sent folder and one in each known recipient's inbox. */
export function deliverEmail(
  database: WorldDatabase,
  sender: string,
  recipients: string[],
  subject: string,
  body: string,
): number {
  const unknown = recipients.filter(
    (recipient) => !database.people.some((person) => person.email === recipient),
  );
  if (unknown.length > 0) throw new ApiFailure(404, `No mailbox for ${unknown.join(", ")}.`);
  if (recipients.length === 0) throw new ApiFailure(422, "An email needs at least one recipient.");
  const common = { sender, recipients, subject, body, is_starred: false, created_at: database.datetime };
  const sent = insertRow(database, "email.emails", {
    owner: sender,
    folder: "sent",
    is_read: true,
    ...common,
  });
  for (const recipient of recipients)
    insertRow(database, "email.emails", { owner: recipient, folder: "inbox", is_read: false, ...common });
  return sent.id;
}

function flagApi(
  name: string,
  field: "is_read" | "is_starred",
  value: boolean,
  description: string,
): ApiDefinition {
  return {
    app: "email",
    name,
    method: "POST",
    path: `/emails/{email_id}/${name.split("_")[0]}`,
    description,
    parameters: [{ name: "email_id", type: "integer", description: "The email's id.", required: true }],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      findRow(emails, context)[field] = value;
      return { message: "Done." };
    },
  };
}

function relayApi(name: "forward_email" | "reply_to_email"): ApiDefinition {
  const forwarding = name === "forward_email";
  return {
    app: "email",
    name,
    method: "POST",
    path: `/emails/{email_id}/${forwarding ? "forward" : "reply"}`,
    description: forwarding ? "Forward an email to other people." : "Reply to the sender of an email.",
    parameters: [
      { name: "email_id", type: "integer", description: "The email's id.", required: true },
      ...(forwarding
        ? [
            {
              name: "recipients",
              type: "list[string]" as const,
              description: "Emails to forward to.",
              required: true,
            },
          ]
        : []),
      {
        name: "body",
        type: "string",
        description: forwarding ? "Text put above the forwarded email." : "Text of the reply.",
        default: "",
      },
    ],
    auth: true,
    response: { message: "string", email_id: 1 },
    handle: (context) => {
      const original = findRow(emails, context);
      const body = context.arguments.body as string;
      const recipients = forwarding
        ? (context.arguments.recipients as string[])
        : [original.sender as string];
      const subject = `${forwarding ? "Fwd" : "Re"}: ${String(original.subject)}`;
      const text = forwarding ? `${body}\n\n---\n${String(original.body)}` : body;
      return {
        message: "Email sent.",
        email_id: deliverEmail(context.database, context.user, recipients, subject, text),
      };
    },
  };
}

/** The email app (in the spirit of AppWorld's gmail). */
export const emailApis: ApiDefinition[] = [
  ...accountApis("email"),
  ...collectionApis(emails),
  {
    app: "email",
    name: "send_email",
    method: "POST",
    path: "/emails",
    description: "Send an email.",
    parameters: [
      { name: "recipients", type: "list[string]", description: "Emails of the recipients.", required: true },
      { name: "subject", type: "string", description: "Subject.", required: true },
      { name: "body", type: "string", description: "Body.", default: "" },
    ],
    auth: true,
    response: { message: "string", email_id: 1 },
    handle: ({ database, arguments: values, user }) => ({
      message: "Email sent.",
      email_id: deliverEmail(
        database,
        user,
        values.recipients as string[],
        values.subject as string,
        values.body as string,
      ),
    }),
  },
  flagApi("mark_email_read", "is_read", true, "Mark an email as read."),
  flagApi("mark_email_unread", "is_read", false, "Mark an email as unread."),
  flagApi("star_email", "is_starred", true, "Star an email."),
  flagApi("unstar_email", "is_starred", false, "Remove the star of an email."),
  ...collectionApis(drafts),
  relayApi("forward_email"),
  relayApi("reply_to_email"),
];
