import { genres } from "./apps/music.js";
import { relationships } from "./apps/phone.js";
import { emptyDatabase, insertRow, type Person, type WorldDatabase } from "./database.js";
import { createRandom, type Random, seedOf } from "./random.js";
import {
  alarmLabels,
  artists,
  directories,
  domains,
  emailSubjects,
  firstNames,
  lastNames,
  noteTags,
  noteTitles,
  paymentDescriptions,
  projectNames,
  songNouns,
  songWords,
  taskTitles,
} from "./seed-vocabulary.js";

/** Apps with accounts (login). */
export const accountApps = ["music", "payments", "email", "notes", "todo", "phone", "files"] as const;
/** People in a world, the supervisor first. */
const peopleCount = 16;
/** The fixed date and time of every world. */
export const worldDatetime = "2026-05-14T09:30:00";

function makePeople(random: Random): Person[] {
  const firsts = random.shuffle(firstNames).slice(0, peopleCount);
  const lasts = random.shuffle(lastNames);
  return firsts.map((first, index) => {
    const last = lasts[index % lasts.length] as string;
    return {
      first_name: first,
      last_name: last,
      email: `${first.toLowerCase()}.${last.toLowerCase()}@${random.pick(domains)}`,
      phone_number: `555${String(2_000_000 + index * 317 + random.integer(0, 300))}`,
    };
  });
}

function password(random: Random): string {
  const letters = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789";
  return Array.from({ length: 10 }, () => letters[random.integer(0, letters.length - 1)]).join("");
}

function seedMusic(database: WorldDatabase, random: Random): void {
  for (let index = 0; index < 40; index += 1) {
    insertRow(database, "music.songs", {
      title: `${random.pick(songWords)} ${random.pick(songNouns)}`,
      artist: random.pick(artists),
      album: `${random.pick(songWords)} Sessions`,
      genre: random.pick(genres),
      duration_seconds: random.integer(120, 420),
      release_year: random.integer(2010, 2025),
    });
  }
  for (const person of database.people.slice(0, 4)) {
    for (const title of random
      .shuffle(["Road trip", "Focus", "Morning run", "Dinner party", "Rainy days", "Throwbacks"])
      .slice(0, 3)) {
      const songIds = random
        .shuffle(Array.from({ length: 40 }, (_, index) => index + 1))
        .slice(0, random.integer(2, 7));
      insertRow(database, "music.playlists", {
        owner: person.email,
        title,
        is_public: random.next() < 0.5,
        song_ids: songIds,
      });
    }
    for (const songId of random.shuffle(Array.from({ length: 40 }, (_, index) => index + 1)).slice(0, 8)) {
      insertRow(database, "music.liked_songs", { owner: person.email, song_id: songId });
    }
  }
}

function seedPayments(database: WorldDatabase, random: Random): void {
  const [supervisor, ...others] = database.people as [Person, ...Person[]];
  for (const person of database.people) {
    insertRow(database, "payments.balances", { owner: person.email, amount: random.integer(500, 3000) });
  }
  for (let index = 0; index < 14; index += 1) {
    const other = random.pick(others.slice(0, 8));
    const outgoing = random.next() < 0.5;
    insertRow(database, "payments.transactions", {
      sender: outgoing ? supervisor.email : other.email,
      receiver: outgoing ? other.email : supervisor.email,
      amount: random.integer(5, 120),
      description: random.pick(paymentDescriptions),
      created_at: `2026-0${random.integer(1, 4)}-${String(random.integer(10, 28))}T12:00:00`,
    });
  }
  for (let index = 0; index < 8; index += 1) {
    const other = random.pick(others.slice(0, 8));
    const incoming = index % 2 === 0;
    insertRow(database, "payments.requests", {
      requester: incoming ? other.email : supervisor.email,
      payer: incoming ? supervisor.email : other.email,
      amount: random.integer(5, 80),
      description: random.pick(paymentDescriptions),
      status: random.pick(["pending", "approved", "denied"]),
      created_at: `2026-04-${String(random.integer(10, 28))}T18:00:00`,
    });
  }
  insertRow(database, "payments.cards", {
    owner: supervisor.email,
    card_name: `${supervisor.first_name} ${supervisor.last_name}`,
    last_four: String(random.integer(1000, 9999)),
    expiry: "08/28",
  });
}

function seedMail(database: WorldDatabase, random: Random): void {
  const [supervisor, ...others] = database.people as [Person, ...Person[]];
  for (let index = 0; index < 12; index += 1) {
    const other = random.pick(others.slice(0, 10));
    const incoming = index % 3 !== 0;
    const sender = incoming ? other.email : supervisor.email;
    const common = {
      sender,
      recipients: [incoming ? supervisor.email : other.email],
      subject: random.pick(emailSubjects),
      body: `Hi, about ${random.pick(paymentDescriptions).toLowerCase()}: see you soon.`,
      is_starred: random.next() < 0.2,
      created_at: `2026-05-${String(random.integer(1, 13)).padStart(2, "0")}T08:00:00`,
    };
    insertRow(database, "email.emails", {
      owner: supervisor.email,
      folder: incoming ? "inbox" : "sent",
      is_read: incoming ? random.next() < 0.5 : true,
      ...common,
    });
  }
}

function seedNotesAndTodo(database: WorldDatabase, random: Random): void {
  for (const person of database.people.slice(0, 3)) {
    for (const tag of random.shuffle(noteTags).slice(0, 5)) {
      for (const title of random.shuffle(noteTitles[tag]).slice(0, random.integer(1, 3))) {
        insertRow(database, "notes.notes", {
          owner: person.email,
          title,
          content: `${title}: details to remember.`,
          tags: [tag],
          pinned: random.next() < 0.2,
          created_at: "2026-03-02T10:00:00",
        });
      }
    }
    for (const name of random.shuffle(projectNames).slice(0, 4)) {
      const project = insertRow(database, "todo.projects", {
        owner: person.email,
        name,
        color: random.pick(["grey", "red", "blue", "green"]),
      });
      for (const title of random.shuffle(taskTitles).slice(0, random.integer(3, 5))) {
        insertRow(database, "todo.tasks", {
          owner: person.email,
          project_id: project.id,
          title,
          due_date: `2026-05-${String(random.integer(10, 30))}`,
          priority: random.integer(1, 4),
          completed: random.next() < 0.35,
        });
      }
    }
  }
}

function seedPhoneAndFiles(database: WorldDatabase, random: Random): void {
  const [supervisor, ...others] = database.people as [Person, ...Person[]];
  for (const [index, other] of others.slice(0, 12).entries()) {
    insertRow(database, "phone.contacts", {
      owner: supervisor.email,
      first_name: other.first_name,
      last_name: other.last_name,
      phone_number: other.phone_number,
      email: other.email,
      relationship: relationships[index % relationships.length],
    });
  }
  for (let index = 0; index < 6; index += 1) {
    const other = random.pick(others.slice(0, 8));
    insertRow(database, "phone.messages", {
      owner: supervisor.email,
      sender: other.phone_number,
      receiver: supervisor.phone_number,
      message: `See you at ${random.integer(5, 9)}?`,
      created_at: "2026-05-12T19:00:00",
    });
  }
  for (const label of random.shuffle(alarmLabels).slice(0, 5)) {
    insertRow(database, "phone.alarms", {
      owner: supervisor.email,
      time: `${String(random.integer(5, 22)).padStart(2, "0")}:${random.pick(["00", "15", "30", "45"])}`,
      label,
      enabled: random.next() < 0.6,
      repeat_days: random.next() < 0.5 ? ["monday", "wednesday", "friday"] : [],
    });
  }
  for (const path of directories) insertRow(database, "files.directories", { owner: supervisor.email, path });
  const files = [
    "/documents/plan.txt",
    "/documents/taxes/2025.txt",
    "/photos/beach.jpg",
    "/downloads/setup.tmp",
    "/downloads/notes.tmp",
    "/projects/readme.md",
    "/downloads/manual.pdf",
  ];
  for (const path of files)
    insertRow(database, "files.files", {
      owner: supervisor.email,
      path,
      content: `contents of ${path.slice(path.lastIndexOf("/") + 1)}`,
      created_at: "2026-02-20T09:00:00",
    });
}

/** The seeded database of a task: synthetic people with accounts and data in every app. */
export function seedWorld(taskId: string): { database: WorldDatabase; random: Random } {
  const random = createRandom(seedOf(taskId));
  const database = emptyDatabase(worldDatetime);
  database.people = makePeople(random);
  for (const person of database.people) {
    for (const app of accountApps)
      insertRow(database, "supervisor.accounts", { app, email: person.email, password: password(random) });
  }
  seedMusic(database, random);
  seedPayments(database, random);
  seedMail(database, random);
  seedNotesAndTodo(database, random);
  seedPhoneAndFiles(database, random);
  return { database, random };
}
