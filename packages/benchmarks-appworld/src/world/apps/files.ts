import {
  type ApiCallContext,
  type ApiDefinition,
  ApiFailure,
  pageOf,
  pageParameters,
} from "../api-definition.js";
import { insertRow, type Row, rowsOf } from "../database.js";
import { accountApis } from "./account-apis.js";
import { presentRow } from "./collection.js";

const fileView = { singular: "file" };
const pathPattern = /^\/([A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/;

function checkPath(path: string): void {
  if (!pathPattern.test(path))
    throw new ApiFailure(422, `"${path}" is not an absolute path like /documents/plan.txt.`);
}

function parentOf(path: string): string {
  const parent = path.slice(0, path.lastIndexOf("/"));
  return parent === "" ? "/" : parent;
}

function directoryExists(context: ApiCallContext, path: string): boolean {
  return (
    path === "/" ||
    rowsOf(context.database, "files.directories").some(
      (row) => row.owner === context.user && row.path === path,
    )
  );
}

function fileAt(context: ApiCallContext, path: string): Row {
  const row = rowsOf(context.database, "files.files").find(
    (candidate) => candidate.owner === context.user && candidate.path === path,
  );
  if (row === undefined) throw new ApiFailure(404, `No file at ${path}.`);
  return row;
}

function placeFile(context: ApiCallContext, path: string): void {
  checkPath(path);
  if (!directoryExists(context, parentOf(path)))
    throw new ApiFailure(404, `The directory ${parentOf(path)} does not exist.`);
  if (rowsOf(context.database, "files.files").some((row) => row.owner === context.user && row.path === path))
    throw new ApiFailure(409, `A file already exists at ${path}.`);
}

const pathParameter = {
  name: "path",
  type: "string" as const,
  description: "Absolute path of the file.",
  required: true,
};

function showFilesApi(): ApiDefinition {
  return {
    app: "files",
    name: "show_files",
    method: "GET",
    path: "/files",
    description: "Get a page of the files directly or indirectly inside a directory.",
    parameters: [
      { name: "directory", type: "string", description: "Absolute directory path.", default: "/" },
      ...pageParameters,
    ],
    auth: true,
    response: [{ file_id: 1, path: "string", content: "string", created_at: "string" }],
    handle: (context) => {
      const directory = context.arguments.directory as string;
      const prefix = directory.endsWith("/") ? directory : `${directory}/`;
      const rows = rowsOf(context.database, "files.files").filter(
        (row) => row.owner === context.user && String(row.path).startsWith(prefix),
      );
      return pageOf(rows, context.arguments).map((row) => presentRow(fileView, row));
    },
  };
}

function showFileApi(): ApiDefinition {
  return {
    app: "files",
    name: "show_file",
    method: "GET",
    path: "/file",
    description: "Get a file by its path.",
    parameters: [pathParameter],
    auth: true,
    response: { file_id: 1, path: "string", content: "string" },
    handle: (context) => presentRow(fileView, fileAt(context, context.arguments.path as string)),
  };
}

function createFileApi(): ApiDefinition {
  return {
    app: "files",
    name: "create_file",
    method: "POST",
    path: "/file",
    description: "Create a file in an existing directory.",
    parameters: [
      pathParameter,
      { name: "content", type: "string", description: "Text of the file.", default: "" },
    ],
    auth: true,
    response: { message: "string", file_id: 1 },
    handle: (context) => {
      placeFile(context, context.arguments.path as string);
      const row = insertRow(context.database, "files.files", {
        owner: context.user,
        path: context.arguments.path,
        content: context.arguments.content,
        created_at: context.database.datetime,
      });
      return { message: "File created.", file_id: row.id };
    },
  };
}

function updateFileApi(): ApiDefinition {
  return {
    app: "files",
    name: "update_file",
    method: "PUT",
    path: "/file",
    description: "Replace the content of a file.",
    parameters: [
      pathParameter,
      { name: "content", type: "string", description: "New text.", required: true },
    ],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      fileAt(context, context.arguments.path as string).content = context.arguments.content;
      return { message: "File updated." };
    },
  };
}

function deleteFileApi(): ApiDefinition {
  return {
    app: "files",
    name: "delete_file",
    method: "DELETE",
    path: "/file",
    description: "Delete a file.",
    parameters: [pathParameter],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      const rows = rowsOf(context.database, "files.files");
      rows.splice(rows.indexOf(fileAt(context, context.arguments.path as string)), 1);
      return { message: "File deleted." };
    },
  };
}

function moveFileApi(): ApiDefinition {
  return {
    app: "files",
    name: "move_file",
    method: "POST",
    path: "/file/move",
    description: "Move or rename a file.",
    parameters: [
      { name: "source_path", type: "string", description: "Current path.", required: true },
      { name: "destination_path", type: "string", description: "New path.", required: true },
    ],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      const row = fileAt(context, context.arguments.source_path as string);
      placeFile(context, context.arguments.destination_path as string);
      row.path = context.arguments.destination_path;
      return { message: "File moved." };
    },
  };
}

function copyFileApi(): ApiDefinition {
  return {
    app: "files",
    name: "copy_file",
    method: "POST",
    path: "/file/copy",
    description: "Copy a file to a new path.",
    parameters: [
      { name: "source_path", type: "string", description: "Path of the file to copy.", required: true },
      { name: "destination_path", type: "string", description: "Path of the copy.", required: true },
    ],
    auth: true,
    response: { message: "string", file_id: 1 },
    handle: (context) => {
      const source = fileAt(context, context.arguments.source_path as string);
      placeFile(context, context.arguments.destination_path as string);
      const row = insertRow(context.database, "files.files", {
        owner: context.user,
        path: context.arguments.destination_path,
        content: source.content,
        created_at: context.database.datetime,
      });
      return { message: "File copied.", file_id: row.id };
    },
  };
}

function appendToFileApi(): ApiDefinition {
  return {
    app: "files",
    name: "append_to_file",
    method: "POST",
    path: "/file/append",
    description: "Add text at the end of a file.",
    parameters: [
      pathParameter,
      { name: "content", type: "string", description: "Text to add.", required: true },
    ],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      const row = fileAt(context, context.arguments.path as string);
      row.content = `${String(row.content)}${String(context.arguments.content)}`;
      return { message: "Text appended." };
    },
  };
}

function fileApis(): ApiDefinition[] {
  return [
    showFilesApi(),
    showFileApi(),
    createFileApi(),
    updateFileApi(),
    deleteFileApi(),
    moveFileApi(),
    copyFileApi(),
    appendToFileApi(),
  ];
}

function directoryApis(): ApiDefinition[] {
  const directoryParameter = {
    name: "path",
    type: "string" as const,
    description: "Absolute directory path.",
    required: true,
  };
  return [
    {
      app: "files",
      name: "show_directories",
      method: "GET",
      path: "/directories",
      description: "Get a page of your directories.",
      parameters: [...pageParameters],
      auth: true,
      response: [{ directory_id: 1, path: "string" }],
      handle: (context) =>
        pageOf(
          rowsOf(context.database, "files.directories").filter((row) => row.owner === context.user),
          context.arguments,
        ).map((row) => presentRow({ singular: "directory" }, row)),
    },
    {
      app: "files",
      name: "create_directory",
      method: "POST",
      path: "/directories",
      description: "Create a directory inside an existing one.",
      parameters: [directoryParameter],
      auth: true,
      response: { message: "string", directory_id: 1 },
      handle: (context) => {
        const path = context.arguments.path as string;
        checkPath(path);
        if (directoryExists(context, path)) throw new ApiFailure(409, `${path} already exists.`);
        if (!directoryExists(context, parentOf(path)))
          throw new ApiFailure(404, `The directory ${parentOf(path)} does not exist.`);
        const row = insertRow(context.database, "files.directories", { owner: context.user, path });
        return { message: "Directory created.", directory_id: row.id };
      },
    },
    {
      app: "files",
      name: "delete_directory",
      method: "DELETE",
      path: "/directories",
      description: "Delete an empty directory.",
      parameters: [directoryParameter],
      auth: true,
      response: { message: "string" },
      handle: (context) => {
        const path = context.arguments.path as string;
        const rows = rowsOf(context.database, "files.directories");
        const row = rows.find((candidate) => candidate.owner === context.user && candidate.path === path);
        if (row === undefined) throw new ApiFailure(404, `No directory ${path}.`);
        const busy = [...rowsOf(context.database, "files.files"), ...rows].some(
          (other) => other.owner === context.user && String(other.path).startsWith(`${path}/`),
        );
        if (busy) throw new ApiFailure(409, `${path} is not empty.`);
        rows.splice(rows.indexOf(row), 1);
        return { message: "Directory deleted." };
      },
    },
  ];
}

/** The files app (in the spirit of AppWorld's file_system). */
export const filesApis: ApiDefinition[] = [...accountApis("files"), ...fileApis(), ...directoryApis()];
