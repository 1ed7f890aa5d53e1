import type { ApiDoc } from "../../protocol/schemas.js";
import {
  type ApiDefinition,
  ApiFailure,
  constraintsOf,
  type ParameterDefinition,
} from "../api-definition.js";
import { emailApis } from "./email.js";
import { filesApis } from "./files.js";
import { musicApis } from "./music.js";
import { notesApis } from "./notes.js";
import { paymentsApis } from "./payments.js";
import { phoneApis } from "./phone.js";
import { supervisorApis } from "./supervisor.js";
import { todoApis } from "./todo.js";

/** Each app of the offline world with its one-line description (as `show_app_descriptions` lists them). */
export const appDescriptions: Readonly<Record<string, string>> = {
  api_docs: "Documentation of every app's APIs.",
  supervisor: "Your supervisor's profile, account passwords, payment cards, and task completion.",
  music: "A music streaming app: songs, playlists, liked songs.",
  payments: "A peer-to-peer payments app: send money, payment requests, balance, cards.",
  email: "An email app: inbox, sent mail, drafts.",
  notes: "A note-taking app with tags.",
  todo: "A to-do app: projects and their tasks.",
  phone: "Your phone: contacts, text messages, alarms.",
  files: "A file system: directories and text files.",
};

function apiDocsApis(): ApiDefinition[] {
  return [
    {
      app: "api_docs",
      name: "show_app_descriptions",
      method: "GET",
      path: "/app_descriptions",
      description: "List the apps with a description of each.",
      parameters: [],
      auth: false,
      response: [{ name: "string", description: "string" }],
      handle: () => Object.entries(appDescriptions).map(([name, description]) => ({ name, description })),
    },
    {
      app: "api_docs",
      name: "show_api_descriptions",
      method: "GET",
      path: "/api_descriptions/{app_name}",
      description: "List the APIs of an app with a description of each.",
      parameters: [{ name: "app_name", type: "string", description: "The app.", required: true }],
      auth: false,
      // upstream: list[NameDescriptionResponse] (ace-agent/ace-appworld src/appworld/collections/apis.pyi:64-66)
      response: [{ name: "string", description: "string" }],
      handle: ({ arguments: values }) =>
        apisOfApp(values.app_name as string).map((api) => ({ name: api.name, description: api.description })),
    },
    {
      app: "api_docs",
      name: "show_api_doc",
      method: "GET",
      path: "/api_doc/{app_name}/{api_name}",
      description: "Show the full documentation of one API: parameters and response schemas.",
      parameters: [
        { name: "app_name", type: "string", description: "The app.", required: true },
        { name: "api_name", type: "string", description: "The API.", required: true },
      ],
      auth: false,
      response: { api_name: "string", description: "string", parameters: "list", response_schemas: "dict" },
      handle: ({ arguments: values }) => {
        const {
          app_name: _app,
          path: _path,
          method: _method,
          ...shown
        } = documentApi(findApi(values.app_name as string, values.api_name as string));
        return shown;
      },
    },
  ];
}

/** Every API of the offline world. */
export const allApis: readonly ApiDefinition[] = [
  ...apiDocsApis(),
  ...supervisorApis,
  ...musicApis,
  ...paymentsApis,
  ...emailApis,
  ...notesApis,
  ...todoApis,
  ...phoneApis,
  ...filesApis,
];

const byKey = new Map(allApis.map((api) => [`${api.app}.${api.name}`, api]));

/** The APIs of an app, or a 404 naming the apps. */
export function apisOfApp(app: string): ApiDefinition[] {
  const apis = allApis.filter((api) => api.app === app);
  if (apis.length === 0)
    throw new ApiFailure(404, `No app named "${app}". Apps: ${Object.keys(appDescriptions).join(", ")}.`);
  return apis;
}

/** One API, or a 404. */
export function findApi(app: string, name: string): ApiDefinition {
  const api = byKey.get(`${app}.${name}`);
  if (api === undefined) {
    apisOfApp(app);
    throw new ApiFailure(404, `No API named "${name}" in app "${app}".`);
  }
  return api;
}

/** The access-token parameter every authenticated API takes first. */
export const accessTokenParameter: ParameterDefinition = {
  name: "access_token",
  type: "string",
  description: "Access token obtained from the app's login API.",
  required: true,
};

/** The doc of an API in AppWorld's api-doc shape. */
export function documentApi(api: ApiDefinition): ApiDoc {
  const parameters = api.auth ? [accessTokenParameter, ...api.parameters] : api.parameters;
  return {
    app_name: api.app,
    api_name: api.name,
    path: api.path,
    method: api.method,
    description: api.description,
    parameters: parameters.map((parameter) => ({
      name: parameter.name,
      type: parameter.type,
      required: parameter.required === true,
      description: parameter.description,
      default: parameter.required === true ? null : (parameter.default ?? null),
      constraints: constraintsOf(parameter),
    })),
    response_schemas: { success: api.response, failure: { message: "string" } },
  };
}

/** All docs by app and API (what GET /api_docs returns). */
export function allApiDocs(): Record<string, Record<string, ApiDoc>> {
  const docs: Record<string, Record<string, ApiDoc>> = {};
  for (const api of allApis) {
    docs[api.app] ??= {};
    (docs[api.app] as Record<string, ApiDoc>)[api.name] = documentApi(api);
  }
  return docs;
}
