import { describe, expect, it } from "vitest";
import { questionStructure } from "./question-structure.js";
import type { ReadView } from "./read-view.js";
import { alignValues, comparisonBefore } from "./value-alignment.js";
import { questionValues } from "./value-candidates.js";

function align(instruction: string, table: string, headers: string[], insert = false) {
  const read = { instruction, table, headers } as unknown as ReadView;
  const structure = questionStructure(read, questionValues(instruction));
  const alignment = alignValues(structure, headers, questionValues(instruction), insert);
  const byHeader = Object.fromEntries([...alignment.byHeader].map(([header, value]) => [header, value.text]));
  return { byHeader, filter: alignment.filter, unaligned: alignment.unaligned, structure, alignment };
}

describe("value alignment", () => {
  it("pairs changed columns with their new values in order when the question says respectively", () => {
    const { byHeader } = align(
      "Change the date and sculptor of the 'Commemorative Sculptures' titled 'Mahatma Gandhi' to '1948' and 'Unknown' respectively.",
      "Commemorative Sculptures",
      ["Title / individual commemorated", "Date", "Sculptor"],
    );
    expect(byHeader).toMatchObject({ Date: "1948", Sculptor: "Unknown" });
  });

  it("ties each value to the header the question names next to it, one value per header", () => {
    const { byHeader } = align(
      "Insert a new record into the 'Football Standings' table with the values of position 10, club 'FK Trakai', games played 18, wins 9, draws 2, losses 7, goals scored 29, goals conceded 24, and points 29.",
      "Football Standings",
      [
        "Position",
        "Club",
        "Games played",
        "Wins",
        "Draws",
        "Loses",
        "Goals scored",
        "Goals conceded",
        "Points",
      ],
      true,
    );
    expect(byHeader).toEqual({
      Position: "10",
      Club: "FK Trakai",
      "Games played": "18",
      Wins: "9",
      Draws: "2",
      Loses: "7",
      "Goals scored": "29",
      "Goals conceded": "24",
      Points: "29",
    });
  });

  it("fills the columns an INSERT leaves unnamed with names and numbers in question order, by kind", () => {
    const { byHeader } = align(
      "In 1971, Kauai King, age 4, was trained by Henry Forrest and owned by Ford Stable, and was inserted into the horse_races table.",
      "horse_races",
      ["Year", "Horse", "Age", "Trainer", "Owner"],
      true,
    );
    expect(byHeader).toEqual({
      Year: "1971",
      Horse: "Kauai King",
      Age: "4",
      Trainer: "Henry Forrest",
      Owner: "Ford Stable",
    });
  });

  it("takes a list of quoted values, one per column, in column order", () => {
    const { byHeader } = align(
      "A transfer was made in 2018 for Andrés Iniesta to Vissel Kobe, recorded by inserting the values '8', 'MF', 'Andrés Iniesta', 'Vissel Kobe', 'Transfer fee: $30 million', and 'In 2018'.",
      "transfers",
      ["No", "Pos", "Player", "Transferred to", "Fee/Notes", "Date"],
      true,
    );
    expect(Object.values(byHeader)).toEqual([
      "8",
      "MF",
      "Andrés Iniesta",
      "Vissel Kobe",
      "Transfer fee: $30 million",
      "In 2018",
    ]);
  });

  it("gives a changed column the new value after `to`, and finds the filter of an UPDATE", () => {
    const changed = align(
      "Change the country of Central Park Tower in the Skyscraper Database to Canada.",
      "Skyscraper Database",
      ["Building", "Country"],
    );
    expect(changed.byHeader).toEqual({ Country: "Canada" });
    expect(changed.unaligned).toContain("Central Park Tower");

    const filtered = align(
      "In the 'Basketball Tournament Results' table, update the 'Winner' column to 'Northeastern University' where the 'Year' column equals 2000.",
      "Basketball Tournament Results",
      ["Year", "Winner", "Score"],
    );
    expect(filtered.byHeader).toEqual({ Winner: "Northeastern University", Year: "2000" });
    expect(filtered.filter).toBe("Year");
  });

  it("does not take a header word inside a quoted value or the table's name as a mention", () => {
    const { byHeader } = align(
      "Insert 'Another Plant' with 'Muskegon' into 'Power Plants and Rivers' table with power of '15' (in MW).",
      "Power Plants and Rivers",
      ["Plant", "River", "Power ( MW )"],
      true,
    );
    expect(byHeader).toEqual({ Plant: "Another Plant", River: "Muskegon", "Power ( MW )": "15" });
  });

  it("reads the comparison stated before a condition value", () => {
    const { structure, alignment } = align(
      "Which Score has a Result of 2–1, and a Competition of friendly, and a Goal smaller than 17?",
      "Football Matches",
      ["Score", "Result", "Competition", "Goal"],
    );
    const goal = alignment.byHeader.get("Goal");
    const result = alignment.byHeader.get("Result");
    expect(goal?.text).toBe("17");
    expect(result?.text).toBe("2–1");
    expect(alignment.byHeader.get("Competition")?.text).toBe("friendly");
    expect(goal === undefined ? undefined : comparisonBefore(structure, goal)).toBe("<");
    expect(result === undefined ? undefined : comparisonBefore(structure, result)).toBeNull();
  });
});
