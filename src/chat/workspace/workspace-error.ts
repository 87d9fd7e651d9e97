/**
 * A workspace request the model can correct (a bad path, a limit, a missing file). Its message goes back to
 * the model as the tool result, so it names the caller's relative path and never a host path.
 */
export class WorkspaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceError';
  }
}
