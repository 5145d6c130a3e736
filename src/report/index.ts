// The HTML report of a session: `report()` for the library, `condense report` for the CLI.
export type { ReportData } from './data.js';
export { report, reportOf } from './report.js';
