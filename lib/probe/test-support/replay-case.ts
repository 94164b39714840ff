/**
 * Test support: the replay case format lives in ../replay/case-file.ts (also used by the CLI);
 * this module re-exports it and names the folder of the committed cases.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { caseBody, loadCaseFile, loadCases, parseReplayCase, writeBytes, type ReplayCase, type ReplayExpect, type ReplayWrite } from '../replay/case-file';

/** The folder of the copied and added cases. */
export const CASES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cases');
