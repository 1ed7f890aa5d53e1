/** Base-harness actions of `baseScenarios()` under the prior, recorded before the guidance features existed. */
export const recordedBaseActions: Record<string, string> = {
  "question, first step":
    "Action: Operation\n```sql\nSELECT `Presentation of Credentials` FROM `US Ambassadors` WHERE `Termination of Mission` = 'August 15';\n```",
  "question after an empty result":
    "Action: Operation\n```sql\nSELECT `Presentation of Credentials` FROM `US Ambassadors` WHERE `Termination of Mission` = 'August 15';\n```",
  "question after a result": 'Action: Answer\nFinal Answer: ["March 19, 1998"]',
  "counting question":
    "Action: Operation\n```sql\nSELECT COUNT(`Team`) FROM `race_results` WHERE `Chassis` = 'Lola';\n```",
  insert:
    "Action: Operation\n```sql\nINSERT INTO `race_results` (`Class`, `No`, `Team`, `Drivers`, `Chassis`, `Engine`, `Laps`) VALUES ('Add', 'number 12', 'Alpha', 'drivers Ann Lee', 'chassis Lola', 'engine Ford', '200');\n```",
  update:
    "Action: Operation\n```sql\nUPDATE `race_results` SET `Engine` = 'Change', `Team` = 'Honda' WHERE `Engine` = 'team Alpha Racing';\n```",
  "after an error":
    "Action: Operation\n```sql\nSELECT `Team` FROM `race_results` WHERE `Laps` = 'most laps' ORDER BY `Team` + 0 DESC LIMIT 1;\n```",
};
