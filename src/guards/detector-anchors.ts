import { type AnchorHits, AnchorScanner } from './anchor-scan.js';
import { HIDDEN_MARKS } from './hidden-characters.js';
import { INSTRUCTION_ANCHORS } from './model-instructions.js';
import { SECRET_ANCHORS } from './secret-scan.js';
import { ESCAPE_MARKS } from './terminal-escapes.js';

/** Built with the first text screened (its tables take a few milliseconds). */
let scanner: AnchorScanner | undefined;

/**
 * Where the patterns of the built-in text detectors (hidden characters, terminal escapes,
 * instructions to the model, secrets) can start in `text`, found in one pass for all of them:
 * each detector then runs its exact patterns there only.
 */
export function anchorsIn(text: string): AnchorHits {
  scanner ??= new AnchorScanner(
    [...INSTRUCTION_ANCHORS, ...SECRET_ANCHORS],
    [...HIDDEN_MARKS, ...ESCAPE_MARKS],
  );
  return scanner.scan(text);
}
