import { describe, expect, it } from "vitest";
import {
  columnRole,
  entityFit,
  entityRuns,
  questionStructure,
  setCueCount,
  valueRole,
} from "./question-structure.js";
import type { ReadView } from "./read-view.js";
import { questionValues, tokenize } from "./value-candidates.js";

function structureOf(instruction: string, headers: string[]) {
  const read = { instruction, table: "T", headers } as unknown as ReadView;
  return questionStructure(read, questionValues(instruction));
}

const runsOf = (question: string) => {
  const tokens = tokenize(question);
  return entityRuns(tokens).map((run) =>
    tokens
      .slice(run.start, run.end + 1)
      .map((token) => token.text)
      .join(" "),
  );
};

describe("question structure", () => {
  it("reads names and dates as whole runs, not starting at a command word", () => {
    expect(runsOf("Modify the race of Grand Prix of Atlanta to be classified as Formula 1.")).toEqual([
      "Grand Prix of Atlanta",
      "Formula 1",
    ]);
    expect(runsOf("On August 3, 2004, Manny Ramirez pitched against the Boston Red Sox.")).toEqual([
      "August 3 , 2004",
      "Manny Ramirez",
      "Boston Red Sox",
    ]);
  });

  it("tells a whole name from a part of one", () => {
    const structure = structureOf("Change the status of the University of Santo Tomas to Catholic.", [
      "Institution",
      "Status",
    ]);
    expect(entityFit(structure, "University of Santo Tomas")).toEqual({ entity: 1, part: 0 });
    expect(entityFit(structure, "Santo Tomas")).toEqual({ entity: 0, part: 1 });
    expect(entityFit(structure, "status")).toEqual({ entity: 0, part: 0 });
  });

  it("gives columns and values the role the wording gives them", () => {
    const structure = structureOf(
      "Set the Total column to 40 for the table where the Nationality column equals Spain.",
      ["Nationality", "Passengers", "Total"],
    );
    expect(columnRole(structure, "Total")).toEqual({ set: 1, filter: 0 });
    expect(columnRole(structure, "Nationality")).toEqual({ set: 0, filter: 1 });
    expect(columnRole(structure, "Passengers")).toEqual({ set: 0, filter: 0 });
    expect(valueRole(structure, "40")).toEqual({ set: 1, filter: 0 });
    expect(valueRole(structure, "Spain")).toEqual({ set: 0, filter: 1 });
  });

  it("does not read the column a question word asks for as a filter", () => {
    const structure = structureOf("VIE is the IATA for which city?", ["City", "IATA"]);
    expect(columnRole(structure, "City")).toEqual({ set: 0, filter: 0 });
    const filtered = structureOf("What is the IATA for city Vienna?", ["City", "IATA"]);
    expect(columnRole(filtered, "City")).toEqual({ set: 0, filter: 1 });
  });

  it("gives the new value after a filtered column to the changed one", () => {
    const structure = structureOf("Change the team for position 10 to Barcelona in table_14876228_1.", [
      "Position",
      "Team",
    ]);
    expect(columnRole(structure, "Position")).toEqual({ set: 0, filter: 1 });
    expect(columnRole(structure, "Team")).toEqual({ set: 1, filter: 0 });
  });

  it("does not count a header named only inside a longer header's mention", () => {
    const structure = structureOf("Modify the stadium capacity to 45,000 for Suwon Samsung Bluewings.", [
      "Stadium",
      "Stadium capacity",
      "Team",
    ]);
    expect(structure.mentions.get("Stadium")).toEqual([]);
    expect(structure.mentions.get("Stadium capacity")).toHaveLength(1);
  });

  it("counts the new values a request states", () => {
    expect(
      setCueCount(
        structureOf("Set the Notes column to 'Released' and the Role column to 'Todd'.", ["Notes"]),
      ),
    ).toBe(2);
    expect(setCueCount(structureOf("Update the winner to be Mike Brown for season 8.", ["Winner"]))).toBe(1);
    expect(setCueCount(structureOf("How many games were played in 2010?", ["Games"]))).toBe(0);
  });
});
