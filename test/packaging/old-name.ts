/** An import of the package by its former name, which on the registry is someone else's. */
export const OLD_NAME_IMPORT =
  /(?:from|import\s*\(|require\s*\()\s*['"]condense(?:\/[^'"]*)?['"]|`condense\/(?:sqlite|jsonl|ai-sdk|postgres|pg-boss)`/;
