import type { ApiDefinition } from "../api-definition.js";
import { rowsOf } from "../database.js";

/** The supervisor app: who the user is, their passwords, and completing the task (as AppWorld's). */
export const supervisorApis: ApiDefinition[] = [
  {
    app: "supervisor",
    name: "show_profile",
    method: "GET",
    path: "/profile",
    description: "Show your supervisor's profile.",
    parameters: [],
    auth: false,
    response: { first_name: "string", last_name: "string", email: "string", phone_number: "string" },
    handle: ({ database }) => ({ ...database.people[0] }),
  },
  {
    app: "supervisor",
    name: "show_account_passwords",
    method: "GET",
    path: "/account_passwords",
    description: "Show your supervisor's app account passwords.",
    parameters: [],
    auth: false,
    response: [{ account_name: "string", password: "string" }],
    handle: ({ database }) =>
      rowsOf(database, "supervisor.accounts")
        .filter((row) => row.email === database.people[0]?.email)
        .map((row) => ({ account_name: row.app, password: row.password })),
  },
  {
    app: "supervisor",
    name: "show_payment_cards",
    method: "GET",
    path: "/payment_cards",
    description: "Show your supervisor's payment cards.",
    parameters: [],
    auth: false,
    response: [{ card_name: "string", last_four: "string", expiry: "string" }],
    handle: ({ database }) =>
      rowsOf(database, "payments.cards")
        .filter((row) => row.owner === database.people[0]?.email)
        .map(({ card_name, last_four, expiry }) => ({ card_name, last_four, expiry })),
  },
  {
    app: "supervisor",
    name: "complete_task",
    method: "POST",
    path: "/complete_task",
    description: "Mark the active task as complete, with the answer when the task asks a question.",
    parameters: [
      {
        name: "answer",
        type: "string | number",
        description: "The answer (a number is given as a number), when there is one.",
        default: null,
      },
    ],
    auth: false,
    response: { message: "string" },
    handle: ({ session, arguments: values }) => {
      session.completed = true;
      session.answer = values.answer ?? null;
      return { message: "Marked the active task complete." };
    },
  },
];
