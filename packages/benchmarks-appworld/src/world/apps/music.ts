import { type ApiDefinition, ApiFailure, pageOf, pageParameters } from "../api-definition.js";
import { insertRow, rowsOf } from "../database.js";
import { accountApis } from "./account-apis.js";
import { type CollectionDefinition, collectionApis, findRow, presentRow } from "./collection.js";

/** Song genres of the catalog. */
export const genres = ["pop", "rock", "jazz", "classical", "hip hop", "folk", "electronic"] as const;

const songs: CollectionDefinition = {
  app: "music",
  table: "music.songs",
  singular: "song",
  plural: "songs",
  owned: false,
  operations: ["list", "show"],
  searchFields: ["title", "artist", "album"],
  fields: [
    { name: "title", type: "string", description: "Song title." },
    { name: "artist", type: "string", description: "Artist name.", filter: true },
    { name: "album", type: "string", description: "Album title.", filter: true },
    { name: "genre", type: "string", description: "Genre.", filter: true, choices: genres },
    { name: "duration_seconds", type: "integer", description: "Length in seconds." },
    { name: "release_year", type: "integer", description: "Year of release.", filter: true },
  ],
};

const playlists: CollectionDefinition = {
  app: "music",
  table: "music.playlists",
  singular: "playlist",
  plural: "playlists",
  owned: true,
  operations: ["list", "show", "create", "update", "delete"],
  searchFields: ["title"],
  fields: [
    { name: "title", type: "string", description: "Playlist title.", requiredOnCreate: true, editable: true },
    {
      name: "is_public",
      type: "boolean",
      description: "Whether others can see it.",
      default: false,
      editable: true,
      filter: true,
    },
    { name: "song_ids", type: "list[integer]", description: "Ids of its songs, in order.", default: [] },
  ],
};

function playlistSongApi(name: "add_song_to_playlist" | "remove_song_from_playlist"): ApiDefinition {
  const adding = name === "add_song_to_playlist";
  return {
    app: "music",
    name,
    method: adding ? "POST" : "DELETE",
    path: "/playlists/{playlist_id}/songs",
    description: adding
      ? "Add a song to the end of one of your playlists."
      : "Remove a song from one of your playlists.",
    parameters: [
      { name: "playlist_id", type: "integer", description: "The playlist's id.", required: true },
      { name: "song_id", type: "integer", description: "The song's id.", required: true },
    ],
    auth: true,
    response: { message: "string" },
    handle: (context) => {
      const playlist = findRow(playlists, context);
      const songId = context.arguments.song_id as number;
      if (!rowsOf(context.database, "music.songs").some((row) => row.id === songId))
        throw new ApiFailure(404, `The song with id ${songId} does not exist.`);
      const ids = [...(playlist.song_ids as number[])];
      if (adding) {
        if (ids.includes(songId)) throw new ApiFailure(409, "The song is already in the playlist.");
        ids.push(songId);
      } else {
        if (!ids.includes(songId)) throw new ApiFailure(404, "The song is not in the playlist.");
        ids.splice(ids.indexOf(songId), 1);
      }
      playlist.song_ids = ids;
      return { message: adding ? "Song added." : "Song removed." };
    },
  };
}

function likeApis(): ApiDefinition[] {
  const songParameter = {
    name: "song_id",
    type: "integer" as const,
    description: "The song's id.",
    required: true,
  };
  return [
    {
      app: "music",
      name: "like_song",
      method: "POST",
      path: "/liked_songs",
      description: "Like a song.",
      parameters: [songParameter],
      auth: true,
      response: { message: "string" },
      handle: ({ database, arguments: values, user }) => {
        const songId = values.song_id as number;
        if (!rowsOf(database, "music.songs").some((row) => row.id === songId))
          throw new ApiFailure(404, `The song with id ${songId} does not exist.`);
        const liked = rowsOf(database, "music.liked_songs");
        if (liked.some((row) => row.owner === user && row.song_id === songId))
          throw new ApiFailure(409, "Already liked.");
        insertRow(database, "music.liked_songs", { owner: user, song_id: songId });
        return { message: "Song liked." };
      },
    },
    {
      app: "music",
      name: "unlike_song",
      method: "DELETE",
      path: "/liked_songs/{song_id}",
      description: "Remove a song from your liked songs.",
      parameters: [songParameter],
      auth: true,
      response: { message: "string" },
      handle: ({ database, arguments: values, user }) => {
        const liked = rowsOf(database, "music.liked_songs");
        const index = liked.findIndex((row) => row.owner === user && row.song_id === values.song_id);
        if (index < 0) throw new ApiFailure(404, "The song is not among your liked songs.");
        liked.splice(index, 1);
        return { message: "Song unliked." };
      },
    },
    {
      app: "music",
      name: "show_liked_songs",
      method: "GET",
      path: "/liked_songs",
      description: "Get a page of the songs you liked.",
      parameters: [...pageParameters],
      auth: true,
      response: [{ song_id: 1, title: "string", artist: "string", genre: "string" }],
      handle: ({ database, arguments: values, user }) => {
        const catalog = rowsOf(database, "music.songs");
        const liked = rowsOf(database, "music.liked_songs").filter((row) => row.owner === user);
        const rows = liked.flatMap((row) => catalog.filter((song) => song.id === row.song_id));
        return pageOf(rows, values).map((row) => presentRow(songs, row));
      },
    },
    {
      app: "music",
      name: "show_genres",
      method: "GET",
      path: "/genres",
      description: "List the genres of the catalog.",
      parameters: [],
      auth: false,
      response: ["string"],
      handle: () => [...genres],
    },
  ];
}

/** The music app (in the spirit of AppWorld's spotify). */
export const musicApis: ApiDefinition[] = [
  ...accountApis("music"),
  ...collectionApis(songs),
  ...collectionApis(playlists),
  playlistSongApi("add_song_to_playlist"),
  playlistSongApi("remove_song_from_playlist"),
  ...likeApis(),
  {
    app: "music",
    name: "show_playlist_songs",
    method: "GET",
    path: "/playlists/{playlist_id}/songs",
    description: "Get a page of the songs of one of your playlists, in playlist order.",
    parameters: [
      { name: "playlist_id", type: "integer", description: "The playlist's id.", required: true },
      ...pageParameters,
    ],
    auth: true,
    response: [{ song_id: 1, title: "string", artist: "string", genre: "string", duration_seconds: 1 }],
    handle: (context) => {
      const catalog = rowsOf(context.database, "music.songs");
      const ids = findRow(playlists, context).song_ids as number[];
      const rows = ids.flatMap((id) => catalog.filter((song) => song.id === id));
      return pageOf(rows, context.arguments).map((row) => presentRow(songs, row));
    },
  },
];
