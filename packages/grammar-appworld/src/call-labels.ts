import type { ToolCall } from "@hs/spec";

const quoted = "['\"]([A-Za-z_][A-Za-z0-9_]*)['\"]";
const docRead = new RegExp(`show_api_doc\\(app_name=${quoted}, api_name=${quoted}\\)`);
const apisRead = new RegExp(`show_api_descriptions\\(app_name=${quoted}\\)`);
const login = /\bapis\.([A-Za-z_][A-Za-z0-9_]*)\.login\(/;

/**
 * The grammar's decisions for a harness call's cell, read from its code: an API's doc, an app's API
 * list, the passwords, a login to one app (by the supervisor's email), or the app list. A cell doing
 * more than one of these (a login to every app in a loop) is none of them.
 */
export function appWorldCallLabels(call: ToolCall): string[][] {
  const code = call.arguments.code;
  if (typeof code !== "string" || /\bfor\b/.test(code)) return [];
  const doc = docRead.exec(code);
  if (doc !== null) return [["kind:doc", `api:${doc[1]}.${doc[2]}`]];
  const apis = apisRead.exec(code);
  if (apis !== null) return [["kind:apis", `app:${apis[1]}`]];
  const app = login.exec(code)?.[1];
  if (app !== undefined) return [["kind:login", `app:${app}`, "username:email"]];
  if (/show_account_passwords\(\)/.test(code)) return [["kind:passwords"]];
  if (/show_app_descriptions\(\)/.test(code)) return [["kind:apps"]];
  return [];
}
