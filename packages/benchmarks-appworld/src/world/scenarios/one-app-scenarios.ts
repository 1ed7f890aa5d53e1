import { insertRow, type Person, type Row, rowsOf, type WorldDatabase } from "../database.js";
import type { Random } from "../random.js";
import { noteTags, taskTitles } from "../seed-vocabulary.js";
import {
  countScenario,
  forEachScenario,
  lookupScenario,
  ownRows,
  type Selection,
  singleCallScenario,
  sumScenario,
  supervisorEmail,
} from "./families.js";
import { pythonLiteral } from "./python-literal.js";
import type { ScenarioDefinition } from "./scenario.js";

const variantIndex = (variant: 1 | 2 | 3) => variant - 1;

/** A person other than the supervisor, chosen per variant among the first contacts. */
export function otherPerson(database: WorldDatabase, variant: 1 | 2 | 3, offset = 0): Person {
  return database.people[1 + ((variantIndex(variant) * 3 + offset) % 8)] as Person;
}

function fullName(person: Person): string {
  return `${person.first_name} ${person.last_name}`;
}

/** The supervisor's note tags present in the world, one per variant. */
function noteTagSelection(): Selection<string> {
  return {
    app: "notes",
    listApi: "show_notes",
    table: "notes.notes",
    setup: (database, variant) => {
      const present = noteTags.filter((tag) =>
        ownRows(database, "notes.notes").some((row) => (row.tags as string[]).includes(tag)),
      );
      const tag = present[variantIndex(variant) % present.length] as string;
      return { value: tag, listArguments: `tags=${pythonLiteral(tag)}` };
    },
    select: (database, tag) =>
      ownRows(database, "notes.notes").filter((row) => (row.tags as string[]).includes(tag)),
    pythonFilter: (tag) => `${pythonLiteral(tag)} in item['tags']`,
  };
}

function ownProject(database: WorldDatabase, variant: 1 | 2 | 3): Row {
  const projects = ownRows(database, "todo.projects");
  return projects[variantIndex(variant) % projects.length] as Row;
}

function projectTaskSelection(which: "open" | "done"): Selection<{ project: string; id: number }> {
  return {
    app: "todo",
    listApi: "show_tasks",
    table: "todo.tasks",
    setup: (database, variant) => {
      const project = ownProject(database, variant);
      const completed = which === "done";
      insertRow(database, "todo.tasks", {
        owner: supervisorEmail(database),
        project_id: project.id,
        title: taskTitles[variant + 5],
        due_date: "2026-05-20",
        priority: 3,
        completed,
      });
      insertRow(database, "todo.tasks", {
        owner: supervisorEmail(database),
        project_id: project.id,
        title: taskTitles[variant + 9],
        due_date: "2026-05-22",
        priority: 2,
        completed: !completed,
      });
      return {
        value: { project: project.name as string, id: project.id },
        listArguments: "project_id=project_id",
      };
    },
    pythonPrepare: ({ project }) =>
      `project_id = [p for p in every_page(apis.todo.show_projects, access_token=token) if p['name'] == ${pythonLiteral(project)}][0]['project_id']\n`,
    select: (database, { id }) =>
      ownRows(database, "todo.tasks").filter(
        (row) => row.project_id === id && row.completed === (which === "done"),
      ),
    pythonFilter: () => `item['completed'] == ${which === "done" ? "True" : "False"}`,
  };
}

function contactSelection(): Selection<string> {
  const relationshipsByVariant = ["family", "coworker", "friend"];
  return {
    app: "phone",
    listApi: "show_contacts",
    table: "phone.contacts",
    setup: (_database, variant) => {
      const relationship = relationshipsByVariant[variantIndex(variant)] as string;
      return { value: relationship, listArguments: `relationship=${pythonLiteral(relationship)}` };
    },
    select: (database, relationship) =>
      ownRows(database, "phone.contacts").filter((row) => row.relationship === relationship),
    pythonFilter: (relationship) => `item['relationship'] == ${pythonLiteral(relationship)}`,
  };
}

function unreadFromSelection(): Selection<Person> {
  return {
    app: "email",
    listApi: "show_emails",
    table: "email.emails",
    setup: (database, variant, random: Random) => {
      const person = otherPerson(database, variant);
      for (let index = 0; index < 1 + variant; index += 1) {
        insertRow(database, "email.emails", {
          owner: supervisorEmail(database),
          folder: "inbox",
          sender: person.email,
          recipients: [supervisorEmail(database)],
          subject: `Update ${random.integer(1, 99)}`,
          body: "Details inside.",
          is_read: index === 0,
          is_starred: false,
          created_at: "2026-05-13T07:00:00",
        });
      }
      return { value: person, listArguments: `folder="inbox", sender=${pythonLiteral(person.email)}` };
    },
    select: (database, person) =>
      ownRows(database, "email.emails").filter(
        (row) => row.folder === "inbox" && row.sender === person.email && row.is_read === false,
      ),
    pythonFilter: () => "not item['is_read']",
  };
}

function paymentsFromSelection(direction: "sent" | "received"): Selection<Person> {
  return {
    app: "payments",
    listApi: "show_transactions",
    table: "payments.transactions",
    setup: (database, variant, random) => {
      const person = otherPerson(database, variant, 1);
      const me = supervisorEmail(database);
      for (let index = 0; index < 2; index += 1) {
        insertRow(database, "payments.transactions", {
          sender: direction === "sent" ? me : person.email,
          receiver: direction === "sent" ? person.email : me,
          amount: random.integer(10, 60),
          description: "Shared costs",
          created_at: "2026-04-02T12:00:00",
        });
      }
      return { value: person, listArguments: `direction=${pythonLiteral(direction)}` };
    },
    select: (database, person) => {
      const me = supervisorEmail(database);
      return rowsOf(database, "payments.transactions").filter((row) =>
        direction === "sent"
          ? row.sender === me && row.receiver === person.email
          : row.sender === person.email && row.receiver === me,
      );
    },
    pythonFilter: (person) =>
      `item[${pythonLiteral(direction === "sent" ? "receiver" : "sender")}] == ${pythonLiteral(person.email)}`,
  };
}

function contactByName(): Selection<Person> {
  return {
    app: "phone",
    listApi: "show_contacts",
    table: "phone.contacts",
    setup: (database, variant) => ({ value: otherPerson(database, variant, 2) }),
    select: (database, person) =>
      ownRows(database, "phone.contacts").filter(
        (row) => row.first_name === person.first_name && row.last_name === person.last_name,
      ),
    pythonFilter: (person) =>
      `item['first_name'] == ${pythonLiteral(person.first_name)} and item['last_name'] == ${pythonLiteral(person.last_name)}`,
  };
}

/** Scenarios on one app. */
export const oneAppScenarios: ScenarioDefinition[] = [
  countScenario("notestagcount", noteTagSelection(), (tag) => `How many of my notes are tagged "${tag}"?`),
  countScenario(
    "todoopencount",
    projectTaskSelection("open"),
    ({ project }) => `How many tasks in my "${project}" to-do project are not done yet?`,
  ),
  countScenario(
    "contactrelcount",
    contactSelection(),
    (relationship) => `How many of my phone contacts are saved as "${relationship}"?`,
  ),
  countScenario(
    "unreadfromcount",
    unreadFromSelection(),
    (person) => `How many unread emails from ${fullName(person)} are in my inbox?`,
  ),
  sumScenario(
    "paidtototal",
    paymentsFromSelection("sent"),
    "amount",
    (person) => `How much money in total have I sent to ${fullName(person)} on the payments app?`,
  ),
  sumScenario(
    "paidbytotal",
    paymentsFromSelection("received"),
    "amount",
    (person) => `How much money in total have I received from ${fullName(person)} on the payments app?`,
  ),
  lookupScenario(
    "contactphone",
    contactByName(),
    "phone_number",
    (person) => `What is the phone number of my contact ${fullName(person)}?`,
  ),
  lookupScenario(
    "contactemail",
    contactByName(),
    "email",
    (person) => `What email address do I have saved for my phone contact ${fullName(person)}?`,
  ),
  forEachScenario(
    "notestagdelete",
    noteTagSelection(),
    {
      api: "delete_note",
      arguments: (row) => ({ note_id: row.id }),
      pythonArguments: () => "note_id=item['note_id']",
    },
    (tag) => `Delete every note of mine tagged "${tag}".`,
  ),
  forEachScenario(
    "notestagpin",
    noteTagSelection(),
    {
      api: "update_note",
      arguments: (row) => ({ note_id: row.id, pinned: true }),
      pythonArguments: () => "note_id=item['note_id'], pinned=True",
    },
    (tag) => `Pin all my notes that are tagged "${tag}".`,
  ),
  forEachScenario(
    "todocompleteall",
    projectTaskSelection("open"),
    {
      api: "complete_task",
      arguments: (row) => ({ task_id: row.id }),
      pythonArguments: () => "task_id=item['task_id']",
    },
    ({ project }) => `Mark every unfinished task in my "${project}" to-do project as done.`,
  ),
  forEachScenario(
    "tododeletedone",
    projectTaskSelection("done"),
    {
      api: "delete_task",
      arguments: (row) => ({ task_id: row.id }),
      pythonArguments: () => "task_id=item['task_id']",
    },
    ({ project }) => `Delete all the tasks I already finished in my "${project}" to-do project.`,
  ),
  forEachScenario(
    "unreadfrommark",
    unreadFromSelection(),
    {
      api: "mark_email_read",
      arguments: (row) => ({ email_id: row.id }),
      pythonArguments: () => "email_id=item['email_id']",
    },
    (person) => `Mark all unread emails from ${fullName(person)} in my inbox as read.`,
  ),
  singleCallScenario(
    "notecreate",
    "notes",
    "create_note",
    (_database, variant) => {
      const title = ["Gift ideas for Sam", "Questions for the landlord", "Marathon training week 3"][
        variantIndex(variant)
      ] as string;
      const content = [
        "Board game, scarf, cookbook",
        "Heating, parking spot, lease renewal",
        "Mon 5k easy, Wed intervals, Sat 18k long run",
      ][variantIndex(variant)] as string;
      const tag = ["ideas", "finance", "health"][variantIndex(variant)] as string;
      return { value: { title, content, tag }, arguments: { title, content, tags: [tag] } };
    },
    ({ title, content, tag }) =>
      `Create a note titled "${title}" with the content "${content}" and tag it "${tag}".`,
  ),
  singleCallScenario(
    "todoadd",
    "todo",
    "create_task",
    (database, variant) => {
      const project = ownProject(database, variant);
      const title = ["Buy paint for the fence", "Send the signed contract", "Book a table for Friday"][
        variantIndex(variant)
      ] as string;
      const due = ["2026-05-21", "2026-05-18", "2026-05-15"][variantIndex(variant)] as string;
      return {
        value: { project: project.name as string, title, due },
        arguments: { project_id: project.id, title, due_date: due, priority: 2 },
        lookup: `project_id = [p for p in every_page(apis.todo.show_projects, access_token=token) if p['name'] == ${pythonLiteral(project.name)}][0]['project_id']\n`,
        pythonArguments: `project_id=project_id, title=${pythonLiteral(title)}, due_date=${pythonLiteral(due)}, priority=2`,
      };
    },
    ({ project, title, due }) =>
      `Add a task "${title}" due on ${due} with priority 2 to my "${project}" to-do project.`,
  ),
];
