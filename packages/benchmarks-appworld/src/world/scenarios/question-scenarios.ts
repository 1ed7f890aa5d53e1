import { insertRow, type Row, rowsOf, type WorldDatabase } from "../database.js";
import {
  countScenario,
  lookupScenario,
  ownRows,
  type Selection,
  sumScenario,
  supervisorEmail,
} from "./families.js";
import { pythonLiteral } from "./python-literal.js";
import type { ScenarioDefinition } from "./scenario.js";
import { solutionPrelude } from "./scenario.js";
import {
  findContactCode,
  likedSongs,
  nameOf,
  personOf,
  playlistSongSelection,
  variantIndex,
} from "./selections.js";

const months = [
  { key: "2026-02", name: "February" },
  { key: "2026-03", name: "March" },
  { key: "2026-04", name: "April" },
];

function prioritySelection(): Selection<number> {
  return {
    app: "todo",
    listApi: "show_tasks",
    table: "todo.tasks",
    setup: (_database, variant) => ({ value: variant, listArguments: `priority=${variant}` }),
    select: (database, priority) =>
      ownRows(database, "todo.tasks").filter((row) => row.priority === priority),
    pythonFilter: () => "True",
  };
}

function likedGenreSelection(): Selection<string> {
  return {
    app: "music",
    listApi: "show_liked_songs",
    table: "music.songs",
    setup: (database, variant) => {
      const genres = [...new Set(likedSongs(database).map((song) => song.genre as string))].sort();
      return { value: genres[variantIndex(variant) % genres.length] as string };
    },
    select: (database, genre) => likedSongs(database).filter((song) => song.genre === genre),
    pythonFilter: (genre) => `item['genre'] == ${pythonLiteral(genre)}`,
  };
}

function enabledAlarmSelection(): Selection<null> {
  return {
    app: "phone",
    listApi: "show_alarms",
    table: "phone.alarms",
    setup: (database, variant) => {
      insertRow(database, "phone.alarms", {
        owner: supervisorEmail(database),
        time: `0${variant + 5}:10`,
        label: "Vitamins",
        enabled: true,
        repeat_days: [],
      });
      return { value: null, listArguments: "enabled=True" };
    },
    select: (database) => ownRows(database, "phone.alarms").filter((row) => row.enabled === true),
    pythonFilter: () => "True",
  };
}

function directoryFileSelection(): Selection<string> {
  return {
    app: "files",
    listApi: "show_files",
    table: "files.files",
    setup: (_database, variant) => {
      const directory = ["/documents", "/downloads", "/photos"][variantIndex(variant)] as string;
      return { value: directory, listArguments: `directory=${pythonLiteral(directory)}` };
    },
    select: (database, directory) =>
      ownRows(database, "files.files").filter((row) => String(row.path).startsWith(`${directory}/`)),
    pythonFilter: () => "True",
  };
}

function receivedRequestSelection(): Selection<string> {
  return {
    app: "payments",
    listApi: "show_payment_requests",
    table: "payments.requests",
    setup: (database, variant) => {
      const status = ["pending", "approved", "denied"][variantIndex(variant)] as string;
      insertRow(database, "payments.requests", {
        requester: personOf(database, variant).email,
        payer: supervisorEmail(database),
        amount: 12 + variant,
        description: "Parking",
        status,
        created_at: "2026-05-01T10:00:00",
      });
      return { value: status, listArguments: `direction="received", status=${pythonLiteral(status)}` };
    },
    select: (database, status) =>
      rowsOf(database, "payments.requests").filter(
        (row) => row.payer === supervisorEmail(database) && row.status === status,
      ),
    pythonFilter: () => "True",
  };
}

function textsFromSelection(): Selection<{ first_name: string; last_name: string; phone: string }> {
  return {
    app: "phone",
    listApi: "show_text_messages",
    table: "phone.messages",
    setup: (database, variant) => {
      const person = personOf(database, variant, 5);
      const me = database.people[0];
      for (let index = 0; index < variant; index += 1) {
        insertRow(database, "phone.messages", {
          owner: supervisorEmail(database),
          sender: person.phone_number,
          receiver: me?.phone_number,
          message: `Running ${index + 5} minutes late`,
          created_at: "2026-05-13T18:00:00",
        });
      }
      return {
        value: { first_name: person.first_name, last_name: person.last_name, phone: person.phone_number },
        listArguments: "sender=contact['phone_number']",
      };
    },
    select: (database, { phone }) =>
      ownRows(database, "phone.messages").filter((row) => row.sender === phone),
    pythonFilter: () => "True",
    pythonPrepare: (person) => findContactCode(person),
  };
}

function receivedInMonthSelection(): Selection<{ key: string; name: string }> {
  return {
    app: "payments",
    listApi: "show_transactions",
    table: "payments.transactions",
    setup: (database, variant, random) => {
      const month = months[variantIndex(variant)] as { key: string; name: string };
      insertRow(database, "payments.transactions", {
        sender: personOf(database, variant, 2).email,
        receiver: supervisorEmail(database),
        amount: random.integer(15, 90),
        description: "Tickets",
        created_at: `${month.key}-15T20:00:00`,
      });
      return { value: month, listArguments: 'direction="received"' };
    },
    select: (database, month) =>
      rowsOf(database, "payments.transactions").filter(
        (row) => row.receiver === supervisorEmail(database) && String(row.created_at).startsWith(month.key),
      ),
    pythonFilter: (month) => `item['created_at'].startswith(${pythonLiteral(month.key)})`,
  };
}

function pendingToPaySelection(): Selection<null> {
  return {
    app: "payments",
    listApi: "show_payment_requests",
    table: "payments.requests",
    setup: (database, variant) => {
      insertRow(database, "payments.requests", {
        requester: personOf(database, variant, 3).email,
        payer: supervisorEmail(database),
        amount: 20 + variant * 5,
        description: "Groceries",
        status: "pending",
        created_at: "2026-05-02T10:00:00",
      });
      return { value: null, listArguments: 'direction="received", status="pending"' };
    },
    select: (database) =>
      rowsOf(database, "payments.requests").filter(
        (row) => row.payer === supervisorEmail(database) && row.status === "pending",
      ),
    pythonFilter: () => "True",
  };
}

function plantedTitleSelection(
  table: "todo.tasks" | "phone.alarms" | "notes.notes",
  app: string,
  listApi: string,
  field: string,
  titles: readonly string[],
  plant: (title: string, variant: 1 | 2 | 3, database: WorldDatabase) => Record<string, unknown>,
): Selection<string> {
  return {
    app,
    listApi,
    table,
    setup: (database, variant) => {
      const title = titles[variantIndex(variant)] as string;
      insertRow(database, table, { owner: supervisorEmail(database), ...plant(title, variant, database) });
      return { value: title };
    },
    select: (database, title) => ownRows(database, table).filter((row) => row[field] === title),
    pythonFilter: (title) => `item[${pythonLiteral(field)}] == ${pythonLiteral(title)}`,
  };
}

function catalogSongSelection(): Selection<string> {
  const titles = ["Lighthouse Keeper", "Paper Satellites", "Saltwater Choir"];
  return {
    app: "music",
    listApi: "show_songs",
    table: "music.songs",
    setup: (database, variant) => {
      const title = titles[variantIndex(variant)] as string;
      insertRow(database, "music.songs", {
        title,
        artist: ["Ana Ferro", "Low Orbit", "Mira Sol"][variantIndex(variant)],
        album: "Single",
        genre: "folk",
        duration_seconds: 201,
        release_year: 2024,
      });
      return { value: title, listArguments: `query=${pythonLiteral(title)}` };
    },
    select: (database, title) => rowsOf(database, "music.songs").filter((row) => row.title === title),
    pythonFilter: (title) => `item['title'] == ${pythonLiteral(title)}`,
  };
}

function plantedFileSelection(): Selection<string> {
  const files = ["/documents/wifi.txt", "/documents/locker.txt", "/documents/gate-code.txt"];
  const contents = ["network: HomeNet-5G", "locker 214, code 5831", "gate code 4471#"];
  return {
    app: "files",
    listApi: "show_files",
    table: "files.files",
    setup: (database, variant) => {
      const path = files[variantIndex(variant)] as string;
      insertRow(database, "files.files", {
        owner: supervisorEmail(database),
        path,
        content: contents[variantIndex(variant)],
        created_at: "2026-05-01T09:00:00",
      });
      return { value: path, listArguments: 'directory="/documents"' };
    },
    select: (database, path) => ownRows(database, "files.files").filter((row) => row.path === path),
    pythonFilter: (path) => `item['path'] == ${pythonLiteral(path)}`,
  };
}

function directAnswerScenario(
  id: string,
  app: string,
  instruction: string,
  code: string,
  answer: (rows: { database: Parameters<ScenarioDefinition["build"]>[0] }) => string | number,
): ScenarioDefinition {
  return {
    id,
    difficulty: 1,
    apps: [app],
    build: (database) => ({
      instruction,
      solution: `${solutionPrelude}${code}`,
      effect: () => {},
      answer: answer({ database }),
    }),
  };
}

/** Question scenarios (difficulty 1) beyond the first set. */
export const questionScenarios: ScenarioDefinition[] = [
  countScenario(
    "todoprioritycount",
    prioritySelection(),
    (priority) => `How many of my to-do tasks, done or not, have priority ${priority}?`,
  ),
  countScenario(
    "playlistsongcount",
    playlistSongSelection(),
    ({ title }) => `How many songs are in my music playlist "${title}"?`,
  ),
  countScenario(
    "likedgenrecount",
    likedGenreSelection(),
    (genre) => `How many of the songs I liked on the music app are ${genre} songs?`,
  ),
  countScenario(
    "alarmoncount",
    enabledAlarmSelection(),
    () => "How many of my phone alarms are turned on right now?",
  ),
  countScenario(
    "dirfilecount",
    directoryFileSelection(),
    (directory) => `How many files are in my ${directory} directory, counting its subdirectories too?`,
  ),
  countScenario(
    "requeststatuscount",
    receivedRequestSelection(),
    (status) => `How many of the payment requests sent to me on the payments app are ${status}?`,
  ),
  countScenario(
    "textsfromcount",
    textsFromSelection(),
    (person) => `How many text messages has my contact ${nameOf(person)} sent me?`,
  ),
  sumScenario(
    "receivedmonthtotal",
    receivedInMonthSelection(),
    "amount",
    (month) => `How much money did I receive on the payments app in ${month.name} 2026, in total?`,
  ),
  sumScenario(
    "pendingtopaytotal",
    pendingToPaySelection(),
    "amount",
    () => "What is the total amount of the payment requests I still have to pay (pending ones sent to me)?",
  ),
  sumScenario(
    "playlistduration",
    playlistSongSelection(),
    "duration_seconds",
    ({ title }) => `What is the total length in seconds of the songs in my playlist "${title}"?`,
  ),
  lookupScenario(
    "taskduedate",
    plantedTitleSelection(
      "todo.tasks",
      "todo",
      "show_tasks",
      "title",
      ["Renew car insurance", "Cancel gym trial", "Submit expense report"],
      (title, variant, database) => ({
        project_id: (ownRows(database, "todo.projects")[0] as Row).id,
        title,
        due_date: `2026-06-0${variant + 2}`,
        priority: 2,
        completed: false,
      }),
    ),
    "due_date",
    (title) => `When is my to-do task "${title}" due? Answer with the date as YYYY-MM-DD.`,
  ),
  lookupScenario(
    "alarmtime",
    plantedTitleSelection(
      "phone.alarms",
      "phone",
      "show_alarms",
      "label",
      ["Flight to Oslo", "Call grandma", "Pick up dry cleaning"],
      (label, variant) => ({ time: `1${variant}:4${variant}`, label, enabled: true, repeat_days: [] }),
    ),
    "time",
    (label) => `At what time is my alarm labelled "${label}" set? Answer as HH:MM.`,
  ),
  lookupScenario(
    "notecontent",
    plantedTitleSelection(
      "notes.notes",
      "notes",
      "show_notes",
      "title",
      ["Bike lock code", "Spare key location", "Router password"],
      (title, variant) => ({
        title,
        content: ["3-9-1-4", "under the blue flower pot", "correct-horse-battery"][variant - 1],
        tags: ["ideas"],
        pinned: false,
        created_at: "2026-04-01T10:00:00",
      }),
    ),
    "content",
    (title) => `What does my note titled "${title}" say? Answer with its content only.`,
  ),
  lookupScenario(
    "songartist",
    catalogSongSelection(),
    "artist",
    (title) => `Who is the artist of the song "${title}" in the music catalog?`,
  ),
  lookupScenario(
    "filecontent",
    plantedFileSelection(),
    "content",
    (path) => `What is written in my file ${path}? Answer with the file's content.`,
  ),
  directAnswerScenario(
    "paymentbalance",
    "payments",
    "What is my current balance on the payments app?",
    "token = login('payments')\napis.supervisor.complete_task(answer=apis.payments.show_balance(access_token=token)['balance'])\n",
    ({ database }) =>
      rowsOf(database, "payments.balances").find((row) => row.owner === supervisorEmail(database))
        ?.amount as number,
  ),
  directAnswerScenario(
    "cardlastfour",
    "supervisor",
    "What are the last four digits of my payment card?",
    "apis.supervisor.complete_task(answer=apis.supervisor.show_payment_cards()[0]['last_four'])\n",
    ({ database }) => (ownRows(database, "payments.cards")[0] as Row).last_four as string,
  ),
];
