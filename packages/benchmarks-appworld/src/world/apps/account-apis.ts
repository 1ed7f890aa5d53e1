import { type ApiDefinition, ApiFailure } from "../api-definition.js";
import { rowsOf } from "../database.js";

/**
 * The account APIs every app has in AppWorld's spirit: `login` (username = email, password from the
 * supervisor app) yielding an access token, `logout`, `show_account`, and a public `show_profile`.
 */
export function accountApis(app: string): ApiDefinition[] {
  return [
    {
      app,
      name: "login",
      method: "POST",
      path: "/auth/token",
      description: `Log in to your ${app} account and get an access token.`,
      parameters: [
        { name: "username", type: "string", description: "Your account's email.", required: true },
        { name: "password", type: "string", description: "Your account's password.", required: true },
      ],
      auth: false,
      response: { access_token: "string", token_type: "string" },
      handle: ({ database, arguments: values, session }) => {
        const account = rowsOf(database, "supervisor.accounts").find(
          (row) => row.app === app && row.email === values.username,
        );
        if (account === undefined || account.password !== values.password) {
          throw new ApiFailure(401, "Invalid credentials.");
        }
        session.tokensIssued += 1;
        const token = `${app}-${session.tokensIssued.toString(36)}-${String(values.username).length.toString(36)}${session.tokensIssued * 7919}`;
        session.tokens.set(token, { app, email: String(values.username) });
        return { access_token: token, token_type: "Bearer" };
      },
    },
    {
      app,
      name: "logout",
      method: "DELETE",
      path: "/auth/token",
      description: `Log out of your ${app} account (the access token stops working).`,
      parameters: [],
      auth: true,
      response: { message: "string" },
      handle: ({ session, user }) => {
        for (const [token, owner] of session.tokens) {
          if (owner.app === app && owner.email === user) session.tokens.delete(token);
        }
        return { message: "Logged out." };
      },
    },
    {
      app,
      name: "show_account",
      method: "GET",
      path: "/account",
      description: `Show your ${app} account details.`,
      parameters: [],
      auth: true,
      response: { first_name: "string", last_name: "string", email: "string", phone_number: "string" },
      handle: ({ database, user }) => {
        const person = database.people.find((candidate) => candidate.email === user);
        if (person === undefined) throw new ApiFailure(404, "Account not found.");
        return { ...person };
      },
    },
    {
      app,
      name: "show_profile",
      method: "GET",
      path: "/users/{email}",
      description: `Show the public profile of a ${app} user.`,
      parameters: [{ name: "email", type: "string", description: "The user's email.", required: true }],
      auth: false,
      response: { first_name: "string", last_name: "string", email: "string" },
      handle: ({ database, arguments: values }) => {
        const person = database.people.find((candidate) => candidate.email === values.email);
        if (person === undefined)
          throw new ApiFailure(404, `No ${app} user with email ${String(values.email)}.`);
        return { first_name: person.first_name, last_name: person.last_name, email: person.email };
      },
    },
  ];
}
