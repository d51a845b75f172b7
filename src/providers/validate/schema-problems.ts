/** Collects schema problems as `path: message` lines. */
export class SchemaProblems {
  readonly list: string[] = [];

  /** Records a problem at JSON pointer `path`. */
  add(path: string, message: string): void {
    this.list.push(`${path === '' ? '/' : path}: ${message}`);
  }
}
