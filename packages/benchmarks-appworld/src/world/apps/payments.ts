import { type ApiCallContext, type ApiDefinition, ApiFailure } from "../api-definition.js";
import { insertRow, type Row, rowsOf, type WorldDatabase } from "../database.js";
import { accountApis } from "./account-apis.js";
import { type CollectionDefinition, collectionApis, findRow, presentRow } from "./collection.js";

const transactions: CollectionDefinition = {
  app: "payments",
  table: "payments.transactions",
  singular: "transaction",
  plural: "transactions",
  owned: false,
  operations: [],
  fields: [
    { name: "sender", type: "string", description: "Email of the payer." },
    { name: "receiver", type: "string", description: "Email of the payee." },
    { name: "amount", type: "number", description: "Amount in dollars." },
    { name: "description", type: "string", description: "Note of the payment." },
    { name: "created_at", type: "string", description: "When it was made." },
  ],
};

const requests: CollectionDefinition = {
  app: "payments",
  table: "payments.requests",
  singular: "payment_request",
  plural: "payment_requests",
  owned: false,
  operations: [],
  fields: [
    { name: "requester", type: "string", description: "Email of who asks to be paid." },
    { name: "payer", type: "string", description: "Email of who is asked to pay." },
    { name: "amount", type: "number", description: "Amount in dollars." },
    { name: "description", type: "string", description: "What it is for." },
    { name: "status", type: "string", description: "pending, approved or denied." },
    { name: "created_at", type: "string", description: "When it was made." },
  ],
};

const cards: CollectionDefinition = {
  app: "payments",
  table: "payments.cards",
  singular: "payment_card",
  plural: "payment_cards",
  owned: true,
  operations: ["list", "show"],
  fields: [
    { name: "card_name", type: "string", description: "Name on the card." },
    { name: "last_four", type: "string", description: "Last four digits." },
    { name: "expiry", type: "string", description: "Expiry, MM/YY." },
  ],
};

function balanceRow(database: WorldDatabase, email: string): Row {
  const existing = rowsOf(database, "payments.balances").find((row) => row.owner === email);
  return existing ?? insertRow(database, "payments.balances", { owner: email, amount: 0 });
}

/** Moves money and records the transaction; the sender's balance must cover it. */
export function transfer(
  database: WorldDatabase,
  sender: string,
  receiver: string,
  amount: number,
  description: string,
): Row {
  if (sender === receiver) throw new ApiFailure(422, "You cannot pay yourself.");
  if (!database.people.some((person) => person.email === receiver))
    throw new ApiFailure(404, `No user with email ${receiver}.`);
  const from = balanceRow(database, sender);
  if ((from.amount as number) < amount) throw new ApiFailure(422, "Insufficient balance.");
  const to = balanceRow(database, receiver);
  from.amount = Math.round(((from.amount as number) - amount) * 100) / 100;
  to.amount = Math.round(((to.amount as number) + amount) * 100) / 100;
  return insertRow(database, "payments.transactions", {
    sender,
    receiver,
    amount,
    description,
    created_at: database.datetime,
  });
}

const amountParameter = {
  name: "amount",
  type: "number" as const,
  description: "Amount in dollars.",
  required: true,
  minimum: 0.01,
};
const pageAndDirection = [
  {
    name: "direction",
    type: "string" as const,
    description: "sent, received or both.",
    default: "both",
    choices: ["sent", "received", "both"],
  },
  {
    name: "page_index",
    type: "integer" as const,
    description: "The index of the page to return.",
    default: 0,
    minimum: 0,
  },
  {
    name: "page_limit",
    type: "integer" as const,
    description: "The maximum number of results per page.",
    default: 5,
    minimum: 1,
    maximum: 20,
  },
];

function involving(row: Row, context: ApiCallContext, mine: string, theirs: string): boolean {
  const direction = context.arguments.direction;
  const sent = row[mine] === context.user;
  const received = row[theirs] === context.user;
  return direction === "sent" ? sent : direction === "received" ? received : sent || received;
}

function listApi(
  name: string,
  collection: CollectionDefinition,
  mine: string,
  theirs: string,
  extra: ApiDefinition["parameters"],
): ApiDefinition {
  return {
    app: "payments",
    name,
    method: "GET",
    path: `/${collection.plural}`,
    description: `Get a page of your ${collection.plural.replaceAll("_", " ")}, newest first.`,
    parameters: [...extra, ...pageAndDirection],
    auth: true,
    response: [
      {
        [`${collection.singular}_id`]: 1,
        ...Object.fromEntries(collection.fields.map((field) => [field.name, field.type])),
      },
    ],
    handle: (context) => {
      const status = context.arguments.status;
      const rows = rowsOf(context.database, collection.table)
        .filter((row) => involving(row, context, mine, theirs) && (status == null || row.status === status))
        .reverse();
      const index = context.arguments.page_index as number;
      const limit = context.arguments.page_limit as number;
      return rows.slice(index * limit, index * limit + limit).map((row) => presentRow(collection, row));
    },
  };
}

function involvedRow(
  collection: CollectionDefinition,
  context: ApiCallContext,
  fields: [string, string],
): Row {
  const row = findRow(collection, context);
  if (row[fields[0]] !== context.user && row[fields[1]] !== context.user)
    throw new ApiFailure(404, `The ${collection.singular} with id ${String(row.id)} does not exist.`);
  return row;
}

function decideApi(name: "approve_payment_request" | "deny_payment_request"): ApiDefinition {
  const approving = name === "approve_payment_request";
  return {
    app: "payments",
    name,
    method: "POST",
    path: `/payment_requests/{payment_request_id}/${approving ? "approve" : "deny"}`,
    description: approving
      ? "Pay a pending request someone sent you."
      : "Refuse a pending request someone sent you.",
    parameters: [
      { name: "payment_request_id", type: "integer", description: "The request's id.", required: true },
    ],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      const request = involvedRow(requests, context, ["payer", "payer"]);
      if (request.status !== "pending")
        throw new ApiFailure(409, `The request is already ${String(request.status)}.`);
      if (approving)
        transfer(
          context.database,
          context.user,
          request.requester as string,
          request.amount as number,
          request.description as string,
        );
      request.status = approving ? "approved" : "denied";
      return { message: approving ? "Request paid." : "Request denied." };
    },
  };
}

function actionApis(): ApiDefinition[] {
  return [
    {
      app: "payments",
      name: "send_money",
      method: "POST",
      path: "/transactions",
      description: "Send money to another user.",
      parameters: [
        { name: "receiver_email", type: "string", description: "Email of the payee.", required: true },
        amountParameter,
        { name: "description", type: "string", description: "Note of the payment.", default: "" },
      ],
      auth: true,
      response: { message: "string", transaction_id: 1 },
      handle: ({ database, arguments: values, user }) => {
        const row = transfer(
          database,
          user,
          values.receiver_email as string,
          values.amount as number,
          values.description as string,
        );
        return { message: "Money sent.", transaction_id: row.id };
      },
    },
    {
      app: "payments",
      name: "create_payment_request",
      method: "POST",
      path: "/payment_requests",
      description: "Ask another user to pay you.",
      parameters: [
        { name: "payer_email", type: "string", description: "Email of who should pay.", required: true },
        amountParameter,
        { name: "description", type: "string", description: "What it is for.", default: "" },
      ],
      auth: true,
      response: { message: "string", payment_request_id: 1 },
      handle: ({ database, arguments: values, user }) => {
        if (!database.people.some((person) => person.email === values.payer_email))
          throw new ApiFailure(404, `No user with email ${String(values.payer_email)}.`);
        const row = insertRow(database, "payments.requests", {
          requester: user,
          payer: values.payer_email,
          amount: values.amount,
          description: values.description,
          status: "pending",
          created_at: database.datetime,
        });
        return { message: "Request sent.", payment_request_id: row.id };
      },
    },
    {
      app: "payments",
      name: "show_balance",
      method: "GET",
      path: "/balance",
      description: "Show your balance.",
      parameters: [],
      auth: true,
      response: { balance: 0.0 },
      handle: ({ database, user }) => ({
        balance: rowsOf(database, "payments.balances").find((row) => row.owner === user)?.amount ?? 0,
      }),
    },
  ];
}

const idOf = (singular: string) => [
  {
    name: `${singular}_id`,
    type: "integer" as const,
    description: `The id of the ${singular.replaceAll("_", " ")}.`,
    required: true,
  },
];

/** The payments app (in the spirit of AppWorld's venmo). */
export const paymentsApis: ApiDefinition[] = [
  ...accountApis("payments"),
  listApi("show_transactions", transactions, "sender", "receiver", []),
  {
    app: "payments",
    name: "show_transaction",
    method: "GET",
    path: "/transactions/{transaction_id}",
    description: "Get one of your transactions.",
    parameters: idOf("transaction"),
    auth: true,
    response: { transaction_id: 1, sender: "string", receiver: "string", amount: 0.0 },
    handle: (context) => presentRow(transactions, involvedRow(transactions, context, ["sender", "receiver"])),
  },
  listApi("show_payment_requests", requests, "requester", "payer", [
    {
      name: "status",
      type: "string",
      description: "Only requests with this status.",
      default: null,
      choices: ["pending", "approved", "denied"],
    },
  ]),
  {
    app: "payments",
    name: "show_payment_request",
    method: "GET",
    path: "/payment_requests/{payment_request_id}",
    description: "Get one payment request you sent or received.",
    parameters: idOf("payment_request"),
    auth: true,
    response: { payment_request_id: 1, requester: "string", payer: "string", amount: 0.0, status: "string" },
    handle: (context) => presentRow(requests, involvedRow(requests, context, ["requester", "payer"])),
  },
  decideApi("approve_payment_request"),
  decideApi("deny_payment_request"),
  ...actionApis(),
  ...collectionApis(cards),
];
