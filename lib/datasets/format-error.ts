/**
 * Error for a dataset file that does not match its expected shape: names the dataset kind, the
 * file and the field (the JSON path, '' for the root), e.g.
 * `LLMPerf file x_7b.json: field results[3].ttft_s: expected a number`.
 */
export class DatasetFormatError extends Error {
  constructor(
    kind: string,
    readonly fileName: string,
    readonly field: string,
    detail: string,
  ) {
    super(`${kind} file ${fileName}: field ${field || '(root)'}: ${detail}`);
    this.name = 'DatasetFormatError';
  }
}
