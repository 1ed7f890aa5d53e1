import { insertRow, type Row, rowsOf } from "../database.js";
import { forEachScenario, ownRows, type Selection, singleCallScenario, supervisorEmail } from "./families.js";
import { pythonLiteral } from "./python-literal.js";
import type { ScenarioDefinition } from "./scenario.js";
import {
  findContactCode,
  findPlaylistCode,
  inboxFrom,
  likedSongs,
  nameOf,
  personOf,
  plantInboxEmail,
  playlistOf,
  variantIndex,
} from "./selections.js";

const pick = <Item>(items: readonly Item[], variant: 1 | 2 | 3): Item => items[variantIndex(variant)] as Item;

function contactRelationshipSelection(relationships: readonly string[]): Selection<string> {
  return {
    app: "phone",
    listApi: "show_contacts",
    table: "phone.contacts",
    setup: (_database, variant) => {
      const relationship = pick(relationships, variant);
      return { value: relationship, listArguments: `relationship=${pythonLiteral(relationship)}` };
    },
    select: (database, relationship) =>
      ownRows(database, "phone.contacts").filter((row) => row.relationship === relationship),
    pythonFilter: () => "True",
  };
}

function alarmDaySelection(): Selection<string> {
  return {
    app: "phone",
    listApi: "show_alarms",
    table: "phone.alarms",
    setup: (database, variant) => {
      const day = pick(["monday", "wednesday", "friday"], variant);
      insertRow(database, "phone.alarms", {
        owner: supervisorEmail(database),
        time: "06:20",
        label: "Swim",
        enabled: true,
        repeat_days: [day, "sunday"],
      });
      return { value: day };
    },
    select: (database, day) =>
      ownRows(database, "phone.alarms").filter((row) => (row.repeat_days as string[]).includes(day)),
    pythonFilter: (day) => `${pythonLiteral(day)} in item['repeat_days']`,
  };
}

function downloadsExtensionSelection(): Selection<string> {
  return {
    app: "files",
    listApi: "show_files",
    table: "files.files",
    setup: (database, variant) => {
      const extension = pick([".tmp", ".log", ".bak"], variant);
      for (const name of ["cache", "session"]) {
        insertRow(database, "files.files", {
          owner: supervisorEmail(database),
          path: `/downloads/${name}${variant}${extension}`,
          content: "scratch",
          created_at: "2026-05-10T09:00:00",
        });
      }
      return { value: extension, listArguments: 'directory="/downloads"' };
    },
    select: (database, extension) =>
      ownRows(database, "files.files").filter(
        (row) => String(row.path).startsWith("/downloads/") && String(row.path).endsWith(extension),
      ),
    pythonFilter: (extension) => `item['path'].endswith(${pythonLiteral(extension)})`,
  };
}

function pendingReceivedSelection(threshold: (variant: 1 | 2 | 3) => number): Selection<number> {
  return {
    app: "payments",
    listApi: "show_payment_requests",
    table: "payments.requests",
    setup: (database, variant) => {
      const limit = threshold(variant);
      const me = supervisorEmail(database);
      insertRow(database, "payments.requests", {
        requester: personOf(database, variant).email,
        payer: me,
        amount: limit + 15,
        description: "Festival pass",
        status: "pending",
        created_at: "2026-05-03T10:00:00",
      });
      insertRow(database, "payments.requests", {
        requester: personOf(database, variant, 1).email,
        payer: me,
        amount: limit - 5,
        description: "Snacks",
        status: "pending",
        created_at: "2026-05-03T11:00:00",
      });
      return { value: limit, listArguments: 'direction="received", status="pending"' };
    },
    select: (database, limit) =>
      rowsOf(database, "payments.requests").filter(
        (row) =>
          row.payer === supervisorEmail(database) &&
          row.status === "pending" &&
          (row.amount as number) > limit,
      ),
    pythonFilter: (limit) => `item['amount'] > ${limit}`,
  };
}

function artistSongsNotLikedSelection(): Selection<string> {
  return {
    app: "music",
    listApi: "show_songs",
    table: "music.songs",
    setup: (database, variant) => {
      const liked = new Set(likedSongs(database).map((song) => song.id));
      const artists = [
        ...new Set(
          rowsOf(database, "music.songs")
            .filter((song) => !liked.has(song.id))
            .map((song) => song.artist as string),
        ),
      ].sort();
      const artist = artists[variantIndex(variant) % artists.length] as string;
      return { value: artist, listArguments: `artist=${pythonLiteral(artist)}` };
    },
    select: (database, artist) => {
      const liked = new Set(likedSongs(database).map((song) => song.id));
      return rowsOf(database, "music.songs").filter((song) => song.artist === artist && !liked.has(song.id));
    },
    pythonFilter: () => "item['song_id'] not in liked",
    pythonPrepare: () =>
      "liked = {song['song_id'] for song in every_page(apis.music.show_liked_songs, access_token=token)}\n",
  };
}

function likedGenreSelection(): Selection<string> {
  return {
    app: "music",
    listApi: "show_liked_songs",
    table: "music.songs",
    setup: (database, variant) => {
      const genres = [...new Set(likedSongs(database).map((song) => song.genre as string))].sort();
      return { value: genres[(variantIndex(variant) + 1) % genres.length] as string };
    },
    select: (database, genre) => likedSongs(database).filter((song) => song.genre === genre),
    pythonFilter: (genre) => `item['genre'] == ${pythonLiteral(genre)}`,
  };
}

function playlistArtistSelection(): Selection<{ title: string; id: number; artist: string }> {
  return {
    app: "music",
    listApi: "show_playlist_songs",
    table: "music.songs",
    setup: (database, variant) => {
      const playlist = playlistOf(database, variant);
      const songs = rowsOf(database, "music.songs");
      const first = songs.find((song) => !(playlist.song_ids as number[]).includes(song.id)) as Row;
      playlist.song_ids = [...(playlist.song_ids as number[]), first.id];
      return {
        value: { title: playlist.title as string, id: playlist.id, artist: first.artist as string },
        listArguments: "playlist_id=playlist_id",
      };
    },
    select: (database, { id, artist }) => {
      const playlist = rowsOf(database, "music.playlists").find((row) => row.id === id) as Row;
      const songs = rowsOf(database, "music.songs");
      return (playlist.song_ids as number[]).flatMap((songId) =>
        songs.filter((song) => song.id === songId && song.artist === artist),
      );
    },
    pythonFilter: ({ artist }) => `item['artist'] == ${pythonLiteral(artist)}`,
    pythonPrepare: ({ title }) => findPlaylistCode(title),
  };
}

function openProjectTasks(): Selection<{ project: string; id: number }> {
  return {
    app: "todo",
    listApi: "show_tasks",
    table: "todo.tasks",
    setup: (database, variant) => {
      const project = ownRows(database, "todo.projects")[variantIndex(variant) + 1] as Row;
      insertRow(database, "todo.tasks", {
        owner: supervisorEmail(database),
        project_id: project.id,
        title: "Compare quotes",
        due_date: null,
        priority: 3,
        completed: false,
      });
      return {
        value: { project: project.name as string, id: project.id },
        listArguments: "project_id=project_id, completed=False",
      };
    },
    select: (database, { id }) =>
      ownRows(database, "todo.tasks").filter((row) => row.project_id === id && row.completed === false),
    pythonFilter: () => "True",
    pythonPrepare: ({ project }) =>
      `project_id = [p for p in every_page(apis.todo.show_projects, access_token=token) if p['name'] == ${pythonLiteral(project)}][0]['project_id']\n`,
  };
}

function noteTagSelection(offset: number): Selection<string> {
  return {
    app: "notes",
    listApi: "show_notes",
    table: "notes.notes",
    setup: (database, variant) => {
      const tags = [
        ...new Set(ownRows(database, "notes.notes").flatMap((row) => row.tags as string[])),
      ].sort();
      const tag = tags[(variantIndex(variant) + offset) % tags.length] as string;
      return { value: tag, listArguments: `tags=${pythonLiteral(tag)}` };
    },
    select: (database, tag) =>
      ownRows(database, "notes.notes").filter((row) => (row.tags as string[]).includes(tag)),
    pythonFilter: () => "True",
  };
}

const byId = (field: string, python = field) => ({
  arguments: (row: Row) => ({ [field]: row.id }),
  pythonArguments: () => `${field}=item['${python}']`,
});

/** Change scenarios (difficulty 2) on one app. */
export const changeScenarios: ScenarioDefinition[] = [
  forEachScenario(
    "contactsrelabel",
    contactRelationshipSelection(["neighbor", "roommate", "coworker"]),
    {
      api: "update_contact",
      arguments: (row) => ({ contact_id: row.id, relationship: "friend" }),
      pythonArguments: () => "contact_id=item['contact_id'], relationship='friend'",
    },
    (relationship) =>
      `Every phone contact of mine saved as "${relationship}" should be saved as "friend" instead. Change them.`,
  ),
  forEachScenario(
    "contactsdelete",
    contactRelationshipSelection(["neighbor", "coworker", "roommate"]),
    { api: "delete_contact", ...byId("contact_id") },
    (relationship) => `Delete all my phone contacts that are saved as "${relationship}".`,
  ),
  forEachScenario(
    "alarmsoffday",
    alarmDaySelection(),
    {
      api: "update_alarm",
      arguments: (row) => ({ alarm_id: row.id, enabled: false }),
      pythonArguments: () => "alarm_id=item['alarm_id'], enabled=False",
    },
    (day) => `Turn off every alarm of mine that repeats on ${day[0]?.toUpperCase()}${day.slice(1)}s.`,
  ),
  forEachScenario(
    "inboxstar",
    inboxFrom(),
    { api: "star_email", ...byId("email_id") },
    (person) => `Star every email in my inbox from ${nameOf(person)}.`,
  ),
  forEachScenario(
    "inboxdelete",
    inboxFrom(),
    { api: "delete_email", ...byId("email_id") },
    (person) => `Delete all emails in my inbox that ${nameOf(person)} sent me.`,
  ),
  forEachScenario(
    "requestsdeny",
    pendingReceivedSelection((variant) => 30 + variant * 10),
    { api: "deny_payment_request", ...byId("payment_request_id") },
    (limit) => `Deny every pending payment request sent to me that asks for more than $${limit}.`,
  ),
  forEachScenario(
    "requestsapprove",
    pendingReceivedSelection((variant) => 20 + variant * 10),
    { api: "approve_payment_request", ...byId("payment_request_id") },
    (limit) => `Pay every pending payment request sent to me for more than $${limit}.`,
  ),
  forEachScenario(
    "downloadsdelete",
    downloadsExtensionSelection(),
    {
      api: "delete_file",
      arguments: (row) => ({ path: row.path }),
      pythonArguments: () => "path=item['path']",
    },
    (extension) => `Delete every file in my /downloads directory whose name ends with "${extension}".`,
  ),
  forEachScenario(
    "downloadsmove",
    downloadsExtensionSelection(),
    {
      api: "move_file",
      arguments: (row) => ({
        source_path: row.path,
        destination_path: `/documents/${String(row.path).split("/").at(-1)}`,
      }),
      pythonArguments: () =>
        "source_path=item['path'], destination_path='/documents/' + item['path'].split('/')[-1]",
    },
    (extension) =>
      `Move every file from my /downloads directory whose name ends with "${extension}" into /documents, keeping its name.`,
  ),
  forEachScenario(
    "likeartist",
    artistSongsNotLikedSelection(),
    { api: "like_song", ...byId("song_id") },
    (artist) => `Like every song by ${artist} on the music app that I have not liked yet.`,
  ),
  forEachScenario(
    "unlikegenre",
    likedGenreSelection(),
    { api: "unlike_song", ...byId("song_id") },
    (genre) => `Remove all ${genre} songs from the songs I liked on the music app.`,
  ),
  forEachScenario(
    "playlistdropartist",
    playlistArtistSelection(),
    {
      api: "remove_song_from_playlist",
      arguments: (row, { id }) => ({ playlist_id: id, song_id: row.id }),
      pythonArguments: () => "playlist_id=playlist_id, song_id=item['song_id']",
    },
    ({ title, artist }) => `Take every song by ${artist} out of my playlist "${title}".`,
  ),
  forEachScenario(
    "todourgent",
    openProjectTasks(),
    {
      api: "update_task",
      arguments: (row) => ({ task_id: row.id, priority: 1 }),
      pythonArguments: () => "task_id=item['task_id'], priority=1",
    },
    ({ project }) => `Give every unfinished task in my "${project}" to-do project priority 1.`,
  ),
  forEachScenario(
    "notesarchive",
    noteTagSelection(1),
    {
      api: "add_note_tag",
      arguments: (row) => ({ note_id: row.id, tag: "archive" }),
      pythonArguments: () => "note_id=item['note_id'], tag='archive'",
    },
    (tag) => `Add the tag "archive" to every note of mine tagged "${tag}".`,
  ),
  singleCallScenario(
    "contactadd",
    "phone",
    "create_contact",
    (_database, variant) => {
      const values = pick(
        [
          {
            first_name: "Lena",
            last_name: "Marsh",
            phone_number: "5559012231",
            email: "lena.marsh@example.com",
            relationship: "coworker",
          },
          {
            first_name: "Omar",
            last_name: "Vidal",
            phone_number: "5559012877",
            email: "omar.vidal@mailbox.test",
            relationship: "neighbor",
          },
          {
            first_name: "Priya",
            last_name: "Das",
            phone_number: "5559013540",
            email: "priya.das@inbox.example",
            relationship: "family",
          },
        ],
        variant,
      );
      return { value: values, arguments: values };
    },
    (contact) =>
      `Add ${contact.first_name} ${contact.last_name} to my phone contacts as "${contact.relationship}": phone ${contact.phone_number}, email ${contact.email}.`,
  ),
  singleCallScenario(
    "alarmadd",
    "phone",
    "create_alarm",
    (_database, variant) => {
      const values = pick(
        [
          { time: "07:05", label: "Yoga", repeat_days: ["tuesday", "thursday"] },
          { time: "21:30", label: "Read", repeat_days: ["sunday"] },
          { time: "05:45", label: "Early shift", repeat_days: ["monday", "tuesday", "wednesday"] },
        ],
        variant,
      );
      return { value: values, arguments: values };
    },
    (alarm) =>
      `Set a phone alarm at ${alarm.time} labelled "${alarm.label}" that repeats on ${alarm.repeat_days.join(" and ")}.`,
  ),
  singleCallScenario(
    "alarmremove",
    "phone",
    "delete_alarm",
    (database, variant) => {
      const label = pick(["Dentist reminder", "Parking meter", "Tea timer"], variant);
      const row = insertRow(database, "phone.alarms", {
        owner: supervisorEmail(database),
        time: "15:00",
        label,
        enabled: true,
        repeat_days: [],
      });
      return {
        value: label,
        arguments: { alarm_id: row.id },
        lookup: `alarm_id = [a for a in every_page(apis.phone.show_alarms, access_token=token) if a['label'] == ${pythonLiteral(label)}][0]['alarm_id']\n`,
        pythonArguments: "alarm_id=alarm_id",
      };
    },
    (label) => `Delete my "${label}" alarm.`,
  ),
  singleCallScenario(
    "contactretag",
    "phone",
    "update_contact",
    (database, variant) => {
      const person = personOf(database, variant, 6);
      const contact = ownRows(database, "phone.contacts").find((row) => row.email === person.email) as Row;
      const relationship = contact.relationship === "family" ? "friend" : "family";
      return {
        value: { person, relationship },
        arguments: { contact_id: contact.id, relationship },
        lookup: findContactCode(person),
        pythonArguments: `contact_id=contact['contact_id'], relationship=${pythonLiteral(relationship)}`,
      };
    },
    ({ person, relationship }) =>
      `Change the relationship of my contact ${nameOf(person)} to "${relationship}".`,
  ),
  singleCallScenario(
    "textcontact",
    "phone",
    "send_text_message",
    (database, variant) => {
      const person = personOf(database, variant, 7);
      const message = pick(
        ["Running late, start without me", "Can you bring the charger?", "Happy birthday!"],
        variant,
      );
      return {
        value: { person, message },
        arguments: { phone_number: person.phone_number, message },
        lookup: findContactCode(person),
        pythonArguments: `phone_number=contact['phone_number'], message=${pythonLiteral(message)}`,
      };
    },
    ({ person, message }) => `Text my contact ${nameOf(person)}: "${message}"`,
  ),
  singleCallScenario(
    "emailsend",
    "email",
    "send_email",
    (database, variant) => {
      const person = personOf(database, variant, 2);
      const subject = pick(["Saturday hike", "Book club", "Spare tickets"], variant);
      const body = pick(
        [
          "Meet at the trailhead at 8.",
          "We are reading the new one next month.",
          "I have two tickets for Friday if you want them.",
        ],
        variant,
      );
      return {
        value: { email: person.email, subject, body },
        arguments: { recipients: [person.email], subject, body },
      };
    },
    ({ email, subject, body }) =>
      `Send an email to ${email} with the subject "${subject}" and the body "${body}".`,
  ),
  singleCallScenario(
    "draftsave",
    "email",
    "create_draft",
    (_database, variant) => {
      const values = pick(
        [
          {
            recipients: ["hr@example.com"],
            subject: "Vacation request",
            body: "I would like to take June 2-6 off.",
          },
          {
            recipients: ["landlord@example.com"],
            subject: "Heating",
            body: "The heating in the bedroom is not working.",
          },
          {
            recipients: ["coach@example.com"],
            subject: "Training",
            body: "I will miss practice on Thursday.",
          },
        ],
        variant,
      );
      return { value: values, arguments: values };
    },
    (draft) =>
      `Save (do not send) an email draft to ${draft.recipients[0]} with the subject "${draft.subject}" and the body "${draft.body}".`,
  ),
  singleCallScenario(
    "moneysend",
    "payments",
    "send_money",
    (database, variant) => {
      const person = personOf(database, variant, 3);
      const amount = pick([18.5, 42, 7.25], variant);
      const description = pick(["Pizza night", "Train tickets", "Coffee beans"], variant);
      return {
        value: { email: person.email, amount, description },
        arguments: { receiver_email: person.email, amount, description },
      };
    },
    ({ email, amount, description }) =>
      `Send $${amount} to ${email} on the payments app with the description "${description}".`,
  ),
  singleCallScenario(
    "moneyrequest",
    "payments",
    "create_payment_request",
    (database, variant) => {
      const person = personOf(database, variant, 5);
      const amount = pick([24, 63.4, 15], variant);
      const description = pick(["Concert tickets", "Cabin deposit", "Taxi home"], variant);
      return {
        value: { email: person.email, amount, description },
        arguments: { payer_email: person.email, amount, description },
      };
    },
    ({ email, amount, description }) =>
      `Ask ${email} on the payments app to pay me $${amount} for "${description}".`,
  ),
  singleCallScenario(
    "filewrite",
    "files",
    "create_file",
    (_database, variant) => {
      const values = pick(
        [
          { path: "/documents/shopping.txt", content: "eggs, rice, lemons" },
          { path: "/projects/todo.md", content: "- draft outline\n- send to Ana" },
          { path: "/documents/taxes/receipts.txt", content: "pharmacy 23.10; books 41.00" },
        ],
        variant,
      );
      return { value: values, arguments: values };
    },
    ({ path, content }) => `Create the file ${path} with exactly this content: ${JSON.stringify(content)}.`,
  ),
  singleCallScenario(
    "playlistnew",
    "music",
    "create_playlist",
    (_database, variant) => {
      const title = pick(["Sunday coffee", "Deep focus 2", "Night drive"], variant);
      return { value: title, arguments: { title, is_public: false } };
    },
    (title) => `Create a new private playlist called "${title}" on the music app.`,
  ),
  singleCallScenario(
    "playlistvisibility",
    "music",
    "update_playlist",
    (database, variant) => {
      const playlist = playlistOf(database, variant);
      const makePublic = playlist.is_public !== true;
      return {
        value: { title: playlist.title as string, makePublic },
        arguments: { playlist_id: playlist.id, is_public: makePublic },
        lookup: findPlaylistCode(playlist.title as string),
        pythonArguments: `playlist_id=playlist_id, is_public=${makePublic ? "True" : "False"}`,
      };
    },
    ({ title, makePublic }) => `Make my playlist "${title}" ${makePublic ? "public" : "private"}.`,
  ),
  singleCallScenario(
    "noterewrite",
    "notes",
    "update_note",
    (database, variant) => {
      const title = pick(["Parking spot", "Locker number", "Wifi at the cabin"], variant);
      const row = insertRow(database, "notes.notes", {
        owner: supervisorEmail(database),
        title,
        content: "old",
        tags: ["ideas"],
        pinned: false,
        created_at: "2026-04-10T10:00:00",
      });
      const content = pick(
        ["Level 2, spot 48", "Locker 17", "Network CabinNet, password pine-cone-7"],
        variant,
      );
      return {
        value: { title, content },
        arguments: { note_id: row.id, content },
        lookup: `note_id = [n for n in every_page(apis.notes.show_notes, access_token=token) if n['title'] == ${pythonLiteral(title)}][0]['note_id']\n`,
        pythonArguments: `note_id=note_id, content=${pythonLiteral(content)}`,
      };
    },
    ({ title, content }) => `Replace the content of my note "${title}" with "${content}".`,
  ),
  singleCallScenario(
    "replyemail",
    "email",
    "reply_to_email",
    (database, variant) => {
      const person = personOf(database, variant, 1);
      const subject = pick(["Are you free Thursday?", "Lunch next week", "Quick favour"], variant);
      const row = plantInboxEmail(
        database,
        person.email,
        subject,
        "Let me know.",
        false,
        "2026-05-13T12:00:00",
      );
      const body = pick(["Yes, Thursday works.", "Tuesday would be great.", "Sure, happy to help."], variant);
      return {
        value: { person, subject, body },
        arguments: { email_id: row.id, body },
        lookup: `email_id = [e for e in every_page(apis.email.show_emails, access_token=token, folder='inbox') if e['subject'] == ${pythonLiteral(subject)}][0]['email_id']\n`,
        pythonArguments: `email_id=email_id, body=${pythonLiteral(body)}`,
      };
    },
    ({ person, subject, body }) => `Reply to the email "${subject}" from ${nameOf(person)} with "${body}".`,
  ),
];
