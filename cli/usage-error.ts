/** Thrown for bad command-line usage; the CLI prints the message and usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
