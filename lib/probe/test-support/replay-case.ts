/**
 * Test support: the replay case format lives in ../replay/case-file.ts (also used by the CLI);
 * this module re-exports it and names the folder of the committed cases.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { caseBody, loadCaseFile, loadCases, parseReplayCase, writeBytes, type ReplayCase, type ReplayExpect, type ReplayWrite } from '../replay/case-file';

/** The folder of the copied and added cases. */
export const CASES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cases');

/** The 26 shared cases (../shared/cases, copied into CASES_DIR with their `source` lines); the test and bench:probe replay these. */
export const SHARED_CASE_IDS: readonly string[] = [
  'C01',
  'C02',
  'C03',
  'C05B',
  'C06',
  'C07',
  'C08',
  'C10',
  'C11',
  'C12',
  'C13',
  'C14',
  'C15',
  'C17',
  'C19',
  'F01',
  'F02',
  'F03',
  'F04',
  'F05',
  'F06',
  'F07',
  'F08',
  'F09',
  'F10',
  'F11',
];
