import { insertRow, type Person, type Row, rowsOf, type WorldDatabase } from "../database.js";
import { ownRows, supervisorEmail } from "./families.js";
import { pythonLiteral } from "./python-literal.js";
import { type Actor, type ScenarioDefinition, type ScenarioTask, solutionPrelude } from "./scenario.js";
import {
  findContactCode,
  likedSongs,
  nameOf,
  personOf,
  plantInboxEmail,
  variantIndex,
} from "./selections.js";

const pick = <Item>(items: readonly Item[], variant: 1 | 2 | 3): Item => items[variantIndex(variant)] as Item;

function crossApp(
  id: string,
  apps: readonly string[],
  build: (database: WorldDatabase, variant: 1 | 2 | 3) => ScenarioTask,
): ScenarioDefinition {
  return { id, difficulty: 3, apps, build: (database, variant) => build(database, variant) };
}

function contactsWith(database: WorldDatabase, relationship: string): Row[] {
  return ownRows(database, "phone.contacts").filter((row) => row.relationship === relationship);
}

const payRelationship = crossApp("payrelationship", ["phone", "payments"], (_database, variant) => {
  const relationship = pick(["family", "roommate", "coworker"], variant);
  const amount = pick([25, 12.5, 40], variant);
  const description = pick(["Gift from me", "Utilities share", "Team lunch"], variant);
  return {
    instruction: `Send $${amount} on the payments app to each of my phone contacts saved as "${relationship}", with the description "${description}".`,
    solution: `${solutionPrelude}phone = login('phone')
payments = login('payments')
for contact in every_page(apis.phone.show_contacts, access_token=phone, relationship=${pythonLiteral(relationship)}):
    apis.payments.send_money(access_token=payments, receiver_email=contact['email'], amount=${amount}, description=${pythonLiteral(description)})
apis.supervisor.complete_task()
`,
    effect: (act: Actor, start) => {
      for (const contact of contactsWith(start, relationship))
        act("payments", "send_money", { receiver_email: contact.email, amount, description });
    },
    answer: null,
  };
});

const emailNote = crossApp("emailnote", ["notes", "phone", "email"], (database, variant) => {
  const title = pick(["Trip budget", "Recipe: miso soup", "Moving checklist"], variant);
  const content = pick(
    [
      "Flights 420, hotel 610, food 300",
      "Dashi, miso, tofu, scallions",
      "Book van, pack books, change address",
    ],
    variant,
  );
  insertRow(database, "notes.notes", {
    owner: supervisorEmail(database),
    title,
    content,
    tags: ["ideas"],
    pinned: false,
    created_at: "2026-04-20T10:00:00",
  });
  const person = personOf(database, variant, 2);
  return {
    instruction: `Email my note "${title}" to my phone contact ${nameOf(person)}: the note's title as the subject and its content as the body.`,
    solution: `${solutionPrelude}notes = login('notes')
note = [n for n in every_page(apis.notes.show_notes, access_token=notes) if n['title'] == ${pythonLiteral(title)}][0]
token = login('phone')
${findContactCode(person)}mail = login('email')
apis.email.send_email(access_token=mail, recipients=[contact['email']], subject=note['title'], body=note['content'])
apis.supervisor.complete_task()
`,
    effect: (act) => {
      act("email", "send_email", { recipients: [person.email], subject: title, body: content });
    },
    answer: null,
  };
});

const tasksFromEmails = crossApp("tasksfromemails", ["email", "todo"], (database, variant) => {
  const person = personOf(database, variant, 3);
  const subjects = pick(
    [
      ["Fix the gate", "Order new tiles"],
      ["Review the slides", "Book the venue"],
      ["Renew the lease", "Call the insurer"],
    ],
    variant,
  );
  for (const subject of subjects)
    plantInboxEmail(database, person.email, subject, "Can you take care of this?", false);
  plantInboxEmail(database, person.email, "Old news", "Already handled.", true);
  const project = ownRows(database, "todo.projects")[variantIndex(variant)] as Row;
  const unread = (start: WorldDatabase) =>
    ownRows(start, "email.emails").filter(
      (row) => row.folder === "inbox" && row.sender === person.email && row.is_read === false,
    );
  return {
    instruction: `For every unread email from ${person.email} in my inbox, add a task to my "${String(project.name)}" to-do project titled with the email's subject (no due date, default priority), then mark those emails as read.`,
    solution: `${solutionPrelude}mail = login('email')
todo = login('todo')
project_id = [p for p in every_page(apis.todo.show_projects, access_token=todo) if p['name'] == ${pythonLiteral(project.name)}][0]['project_id']
for email in every_page(apis.email.show_emails, access_token=mail, folder='inbox', sender=${pythonLiteral(person.email)}, is_read=False):
    apis.todo.create_task(access_token=todo, project_id=project_id, title=email['subject'])
    apis.email.mark_email_read(access_token=mail, email_id=email['email_id'])
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      for (const email of unread(start)) {
        act("todo", "create_task", { project_id: project.id, title: email.subject });
        act("email", "mark_email_read", { email_id: email.id });
      }
    },
    answer: null,
  };
});

const playlistFromLiked = crossApp("playlistfromliked", ["music"], (database, variant) => {
  const genres = [...new Set(likedSongs(database).map((song) => song.genre as string))].sort();
  const genre = genres[variantIndex(variant) % genres.length] as string;
  const title = pick(["Best of liked", "Weekend picks", "Keepers"], variant);
  return {
    instruction: `Create a private playlist called "${title}" with all the ${genre} songs I liked on the music app, in the order they appear in my liked songs.`,
    solution: `${solutionPrelude}token = login('music')
songs = [song['song_id'] for song in every_page(apis.music.show_liked_songs, access_token=token) if song['genre'] == ${pythonLiteral(genre)}]
playlist_id = apis.music.create_playlist(access_token=token, title=${pythonLiteral(title)}, is_public=False)['playlist_id']
for song_id in songs:
    apis.music.add_song_to_playlist(access_token=token, playlist_id=playlist_id, song_id=song_id)
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      const created = act("music", "create_playlist", { title, is_public: false }) as { playlist_id: number };
      for (const song of likedSongs(start).filter((row) => row.genre === genre))
        act("music", "add_song_to_playlist", { playlist_id: created.playlist_id, song_id: song.id });
    },
    answer: null,
  };
});

function pendingRequestersOf(database: WorldDatabase): string[] {
  const me = supervisorEmail(database);
  const requesters = rowsOf(database, "payments.requests")
    .filter((row) => row.payer === me && row.status === "pending")
    .map((row) => row.requester as string);
  return [...new Set(requesters)];
}

const textRequesters = crossApp("textrequesters", ["payments", "phone"], (database, variant) => {
  insertRow(database, "payments.requests", {
    requester: personOf(database, variant, 4).email,
    payer: supervisorEmail(database),
    amount: 33,
    description: "Board game",
    status: "pending",
    created_at: "2026-05-05T10:00:00",
  });
  const message = pick(
    [
      "I will pay you back this week.",
      "Sorry for the delay, paying soon!",
      "Got your request, will settle on Friday.",
    ],
    variant,
  );
  return {
    instruction: `Text "${message}" to each of my phone contacts who has a pending payment request to me that I have not paid yet (one text per person).`,
    solution: `${solutionPrelude}payments = login('payments')
requesters = []
for request in every_page(apis.payments.show_payment_requests, access_token=payments, direction='received', status='pending'):
    if request['requester'] not in requesters:
        requesters.append(request['requester'])
token = login('phone')
contacts = {c['email']: c for c in every_page(apis.phone.show_contacts, access_token=token)}
for email in requesters:
    apis.phone.send_text_message(access_token=token, phone_number=contacts[email]['phone_number'], message=${pythonLiteral(message)})
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      const contacts = ownRows(start, "phone.contacts");
      for (const email of pendingRequestersOf(start)) {
        const contact = contacts.find((row) => row.email === email) as Row;
        act("phone", "send_text_message", { phone_number: contact.phone_number, message });
      }
    },
    answer: null,
  };
});

const payContacts = crossApp("paycontacts", ["phone", "payments"], (database, variant) => {
  const relationship = pick(["friend", "family", "neighbor"], variant);
  const first = contactsWith(database, relationship)[0] as Row;
  insertRow(database, "payments.requests", {
    requester: first.email,
    payer: supervisorEmail(database),
    amount: 21,
    description: "Brunch",
    status: "pending",
    created_at: "2026-05-06T10:00:00",
  });
  const pending = (start: WorldDatabase) => {
    const emails = new Set(contactsWith(start, relationship).map((row) => row.email));
    return rowsOf(start, "payments.requests").filter(
      (row) => row.payer === supervisorEmail(start) && row.status === "pending" && emails.has(row.requester),
    );
  };
  return {
    instruction: `Pay every pending payment request sent to me by one of my phone contacts saved as "${relationship}". Leave the other requests alone.`,
    solution: `${solutionPrelude}token = login('phone')
emails = {c['email'] for c in every_page(apis.phone.show_contacts, access_token=token, relationship=${pythonLiteral(relationship)})}
payments = login('payments')
for request in every_page(apis.payments.show_payment_requests, access_token=payments, direction='received', status='pending'):
    if request['requester'] in emails:
        apis.payments.approve_payment_request(access_token=payments, payment_request_id=request['payment_request_id'])
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      for (const request of pending(start))
        act("payments", "approve_payment_request", { payment_request_id: request.id });
    },
    answer: null,
  };
});

const phonesNote = crossApp("phonesnote", ["phone", "notes"], (_database, variant) => {
  const relationship = pick(["coworker", "family", "friend"], variant);
  const title = pick(["Work phone list", "Family numbers", "Friends to call"], variant);
  const lines = (start: WorldDatabase) =>
    contactsWith(start, relationship)
      .map((row) => ({ name: nameOf(row), line: `${nameOf(row)}: ${String(row.phone_number)}` }))
      .sort((left, right) => (left.name < right.name ? -1 : 1))
      .map((entry) => entry.line);
  return {
    instruction: `Create a note titled "${title}" listing my phone contacts saved as "${relationship}", one per line as "First Last: phone number", sorted alphabetically by first name, with no other text.`,
    solution: `${solutionPrelude}token = login('phone')
contacts = every_page(apis.phone.show_contacts, access_token=token, relationship=${pythonLiteral(relationship)})
rows = sorted((c['first_name'] + ' ' + c['last_name'], c['phone_number']) for c in contacts)
notes = login('notes')
apis.notes.create_note(access_token=notes, title=${pythonLiteral(title)}, content='\\n'.join(name + ': ' + number for name, number in rows))
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      act("notes", "create_note", { title, content: lines(start).join("\n") });
    },
    answer: null,
  };
});

const sentFile = crossApp("sentfile", ["payments", "files"], (database, variant) => {
  const person = personOf(database, variant, 1);
  insertRow(database, "payments.transactions", {
    sender: supervisorEmail(database),
    receiver: person.email,
    amount: 17.5,
    description: "Flowers",
    created_at: "2026-04-22T12:00:00",
  });
  const path = pick(
    ["/documents/sent-total.txt", "/documents/taxes/paid.txt", "/projects/payments.txt"],
    variant,
  );
  const total = (start: WorldDatabase) =>
    rowsOf(start, "payments.transactions")
      .filter((row) => row.sender === supervisorEmail(start) && row.receiver === person.email)
      .reduce((sum, row) => sum + (row.amount as number), 0);
  return {
    instruction: `Create the file ${path} containing only the total amount I have sent to ${person.email} on the payments app, written with two decimals (for example 12.50).`,
    solution: `${solutionPrelude}payments = login('payments')
total = sum(t['amount'] for t in every_page(apis.payments.show_transactions, access_token=payments, direction='sent') if t['receiver'] == ${pythonLiteral(person.email)})
files = login('files')
apis.files.create_file(access_token=files, path=${pythonLiteral(path)}, content='%.2f' % total)
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      act("files", "create_file", { path, content: total(start).toFixed(2) });
    },
    answer: null,
  };
});

const alarmsForTasks = crossApp("alarmsfortasks", ["todo", "phone"], (database, variant) => {
  const project = ownRows(database, "todo.projects")[variantIndex(variant) + 1] as Row;
  const date = pick(["2026-05-15", "2026-05-16", "2026-05-18"], variant);
  for (const [index, title] of [
    pick(["Pick up parcel", "Pay the florist", "Print tickets"], variant),
    "Water the lawn",
  ].entries()) {
    insertRow(database, "todo.tasks", {
      owner: supervisorEmail(database),
      project_id: project.id,
      title,
      due_date: date,
      priority: 2,
      completed: index === 1,
    });
  }
  insertRow(database, "todo.tasks", {
    owner: supervisorEmail(database),
    project_id: project.id,
    title: "Sort the mail",
    due_date: date,
    priority: 3,
    completed: false,
  });
  const due = (start: WorldDatabase) =>
    ownRows(start, "todo.tasks").filter(
      (row) => row.project_id === project.id && row.due_date === date && row.completed === false,
    );
  return {
    instruction: `For each unfinished task in my "${String(project.name)}" to-do project that is due on ${date}, create a phone alarm at 08:00 labelled with the task's title (no repeat).`,
    solution: `${solutionPrelude}todo = login('todo')
project_id = [p for p in every_page(apis.todo.show_projects, access_token=todo) if p['name'] == ${pythonLiteral(project.name)}][0]['project_id']
phone = login('phone')
for task in every_page(apis.todo.show_tasks, access_token=todo, project_id=project_id, completed=False):
    if task['due_date'] == ${pythonLiteral(date)}:
        apis.phone.create_alarm(access_token=phone, time='08:00', label=task['title'])
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      for (const task of due(start)) act("phone", "create_alarm", { time: "08:00", label: task.title });
    },
    answer: null,
  };
});

const likeFromEmail = crossApp("likefromemail", ["email", "music"], (database, variant) => {
  const person: Person = personOf(database, variant, 6);
  const title = pick(["Quiet Harbor Lights", "Copper Dawn", "Letters to Nowhere"], variant);
  insertRow(database, "music.songs", {
    title,
    artist: "Juniper Hale",
    album: "New Single",
    genre: "folk",
    duration_seconds: 233,
    release_year: 2026,
  });
  plantInboxEmail(database, person.email, "Song for you", title, false);
  return {
    instruction: `${nameOf(person)} emailed me the title of a song (the subject is "Song for you"; the title is the whole body). Find it in the music catalog and like it.`,
    solution: `${solutionPrelude}mail = login('email')
email = [e for e in every_page(apis.email.show_emails, access_token=mail, folder='inbox', sender=${pythonLiteral(person.email)}) if e['subject'] == 'Song for you'][0]
music = login('music')
song = [s for s in every_page(apis.music.show_songs, access_token=music, query=email['body'].strip()) if s['title'] == email['body'].strip()][0]
apis.music.like_song(access_token=music, song_id=song['song_id'])
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      const song = rowsOf(start, "music.songs").find((row) => row.title === title) as Row;
      act("music", "like_song", { song_id: song.id });
    },
    answer: null,
  };
});

const thankPayers = crossApp("thankpayers", ["payments", "email"], (database, variant) => {
  const month = pick(["2026-02", "2026-03", "2026-04"], variant);
  const monthName = pick(["February", "March", "April"], variant);
  insertRow(database, "payments.transactions", {
    sender: personOf(database, variant, 7).email,
    receiver: supervisorEmail(database),
    amount: 30,
    description: "Thanks!",
    created_at: `${month}-09T12:00:00`,
  });
  const payers = (start: WorldDatabase) => [
    ...new Set(
      rowsOf(start, "payments.transactions")
        .filter((row) => row.receiver === supervisorEmail(start) && String(row.created_at).startsWith(month))
        .map((row) => row.sender as string),
    ),
  ];
  return {
    instruction: `Email everyone who paid me on the payments app in ${monthName} 2026 a separate email with the subject "Thank you" and the body "Thanks for the payment!" (one email per person).`,
    solution: `${solutionPrelude}payments = login('payments')
payers = []
for t in every_page(apis.payments.show_transactions, access_token=payments, direction='received'):
    if t['created_at'].startswith(${pythonLiteral(month)}) and t['sender'] not in payers:
        payers.append(t['sender'])
mail = login('email')
for payer in payers:
    apis.email.send_email(access_token=mail, recipients=[payer], subject='Thank you', body='Thanks for the payment!')
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      for (const payer of payers(start))
        act("email", "send_email", {
          recipients: [payer],
          subject: "Thank you",
          body: "Thanks for the payment!",
        });
    },
    answer: null,
  };
});

const cleanupReport = crossApp("cleanupreport", ["files", "email"], (database, variant) => {
  const extension = pick([".tmp", ".log", ".part"], variant);
  for (const name of ["old", "partial"])
    insertRow(database, "files.files", {
      owner: supervisorEmail(database),
      path: `/downloads/${name}-${variant}${extension}`,
      content: "x",
      created_at: "2026-05-01T09:00:00",
    });
  const matching = (start: WorldDatabase) =>
    ownRows(start, "files.files")
      .filter((row) => String(row.path).startsWith("/downloads/") && String(row.path).endsWith(extension))
      .map((row) => row.path as string)
      .sort();
  return {
    instruction: `Delete every file in my /downloads directory whose name ends with "${extension}", then email me (at my own address) with the subject "Cleanup" and, as the body, the deleted paths one per line in alphabetical order.`,
    solution: `${solutionPrelude}files = login('files')
paths = sorted(f['path'] for f in every_page(apis.files.show_files, access_token=files, directory='/downloads') if f['path'].endswith(${pythonLiteral(extension)}))
for path in paths:
    apis.files.delete_file(access_token=files, path=path)
mail = login('email')
apis.email.send_email(access_token=mail, recipients=[me['email']], subject='Cleanup', body='\\n'.join(paths))
apis.supervisor.complete_task()
`,
    effect: (act, start) => {
      const paths = matching(start);
      for (const path of paths) act("files", "delete_file", { path });
      act("email", "send_email", {
        recipients: [supervisorEmail(start)],
        subject: "Cleanup",
        body: paths.join("\n"),
      });
    },
    answer: null,
  };
});

const countCrossApp = crossApp("unpaidcontacts", ["payments", "phone"], (database, variant) => {
  const relationship = pick(["friend", "coworker", "family"], variant);
  const first = contactsWith(database, relationship)[0] as Row;
  insertRow(database, "payments.requests", {
    requester: supervisorEmail(database),
    payer: first.email,
    amount: 14,
    description: "Cinema",
    status: "pending",
    created_at: "2026-05-07T10:00:00",
  });
  const count = (start: WorldDatabase) => {
    const emails = new Set(contactsWith(start, relationship).map((row) => row.email));
    return new Set(
      rowsOf(start, "payments.requests")
        .filter(
          (row) =>
            row.requester === supervisorEmail(start) && row.status === "pending" && emails.has(row.payer),
        )
        .map((row) => row.payer),
    ).size;
  };
  return {
    instruction: `How many of my phone contacts saved as "${relationship}" still have not paid a payment request I sent them (a pending request from me)?`,
    solution: `${solutionPrelude}token = login('phone')
emails = {c['email'] for c in every_page(apis.phone.show_contacts, access_token=token, relationship=${pythonLiteral(relationship)})}
payments = login('payments')
owing = {r['payer'] for r in every_page(apis.payments.show_payment_requests, access_token=payments, direction='sent', status='pending') if r['payer'] in emails}
apis.supervisor.complete_task(answer=len(owing))
`,
    effect: () => {},
    answer: count(database),
  };
});

/** Scenarios across apps (difficulty 3). */
export const crossAppScenarios: ScenarioDefinition[] = [
  payRelationship,
  emailNote,
  tasksFromEmails,
  playlistFromLiked,
  textRequesters,
  payContacts,
  phonesNote,
  sentFile,
  alarmsForTasks,
  likeFromEmail,
  thankPayers,
  cleanupReport,
  countCrossApp,
];
