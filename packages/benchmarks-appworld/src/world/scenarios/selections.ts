import { insertRow, type Person, type Row, rowsOf, type WorldDatabase } from "../database.js";
import { ownRows, type Selection, supervisorEmail } from "./families.js";
import { pythonLiteral } from "./python-literal.js";

/** 0, 1 or 2 for variants 1-3. */
export const variantIndex = (variant: 1 | 2 | 3): number => variant - 1;

/** A person other than the supervisor (and among the contacts), chosen per variant. */
export function personOf(database: WorldDatabase, variant: 1 | 2 | 3, offset = 0): Person {
  return database.people[1 + ((variantIndex(variant) * 3 + offset) % 8)] as Person;
}

/** "First Last". */
export function nameOf(person: Readonly<Record<string, unknown>> | Person): string {
  return `${String(person.first_name)} ${String(person.last_name)}`;
}

/** The supervisor's playlist for a variant. */
export function playlistOf(database: WorldDatabase, variant: 1 | 2 | 3): Row {
  const playlists = ownRows(database, "music.playlists");
  return playlists[variantIndex(variant) % playlists.length] as Row;
}

/** Python: find the supervisor's playlist id by title. */
export function findPlaylistCode(title: string): string {
  return `playlist_id = [p for p in every_page(apis.music.show_playlists, access_token=token) if p['title'] == ${pythonLiteral(title)}][0]['playlist_id']\n`;
}

/** Python: find a contact's row by full name. */
export function findContactCode(
  person: { first_name: unknown; last_name: unknown },
  variable = "contact",
): string {
  return `${variable} = [c for c in every_page(apis.phone.show_contacts, access_token=token) if c['first_name'] == ${pythonLiteral(person.first_name)} and c['last_name'] == ${pythonLiteral(person.last_name)}][0]\n`;
}

/** Songs of a playlist, in order. */
export function playlistSongs(database: WorldDatabase, playlist: Row): Row[] {
  const songs = rowsOf(database, "music.songs");
  return (playlist.song_ids as number[]).flatMap((id) => songs.filter((song) => song.id === id));
}

/** The supervisor's liked songs as song rows, in like order. */
export function likedSongs(database: WorldDatabase): Row[] {
  const songs = rowsOf(database, "music.songs");
  return ownRows(database, "music.liked_songs").flatMap((like) =>
    songs.filter((song) => song.id === like.song_id),
  );
}

/** Songs of a playlist chosen by variant (`show_playlist_songs`). */
export function playlistSongSelection(): Selection<{ title: string; id: number }> {
  return {
    app: "music",
    listApi: "show_playlist_songs",
    table: "music.songs",
    setup: (database, variant) => {
      const playlist = playlistOf(database, variant);
      return {
        value: { title: playlist.title as string, id: playlist.id },
        listArguments: "playlist_id=playlist_id",
      };
    },
    select: (database, { id }) =>
      playlistSongs(database, ownRows(database, "music.playlists").find((row) => row.id === id) as Row),
    pythonFilter: () => "True",
    pythonPrepare: ({ title }) => findPlaylistCode(title),
  };
}

/** Inserts an inbox email to the supervisor. */
export function plantInboxEmail(
  database: WorldDatabase,
  sender: string,
  subject: string,
  body: string,
  isRead: boolean,
  createdAt = "2026-05-13T07:00:00",
): Row {
  const me = supervisorEmail(database);
  return insertRow(database, "email.emails", {
    owner: me,
    folder: "inbox",
    sender,
    recipients: [me],
    subject,
    body,
    is_read: isRead,
    is_starred: false,
    created_at: createdAt,
  });
}

/** Inbox emails from a person. */
export function inboxFrom(): Selection<Person> {
  return {
    app: "email",
    listApi: "show_emails",
    table: "email.emails",
    setup: (database, variant) => {
      const person = personOf(database, variant, 4);
      plantInboxEmail(database, person.email, "Plans for Saturday", "Shall we meet at noon?", false);
      plantInboxEmail(database, person.email, "Receipt", "Here is the receipt you asked for.", true);
      return { value: person, listArguments: `folder="inbox", sender=${pythonLiteral(person.email)}` };
    },
    select: (database, person) =>
      ownRows(database, "email.emails").filter(
        (row) => row.folder === "inbox" && row.sender === person.email,
      ),
    pythonFilter: () => "True",
  };
}
