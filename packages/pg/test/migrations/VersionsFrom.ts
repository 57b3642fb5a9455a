import * as Migrations from "../../src/migrations/Migrations.js"

/**
 * The names of the schema's versions from `first` on, in order: what `Migrations.run` applies to a
 * database at version `first - 1`. A version's own test names the versions it expects to see applied
 * through this, so a later version does not edit it (`Migrations.test.ts` pins the whole list).
 */
export const versionsFrom = (first: number): ReadonlyArray<string> =>
  Object.keys(Migrations.migrations)
    .filter((key) => Number(key.split("_")[0]) >= first)
    .map((key) => key.replace(/^\d+_/, ""))
