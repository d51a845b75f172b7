/**
 * The environment that turns `serve`'s default box off for a gateway a test starts as a host
 * would (`StdioClientTransport`, which passes on only its short safe list of variables, not the
 * suite's `MCPTOOLS_SERVE_SANDBOX=off`): its fixture servers run from the worktree, which a box
 * without grants does not show. test/boxes and test/cli/npm-start.test.ts cover the default box.
 */
export const SERVE_BOX_OFF: Record<string, string> = { MCPTOOLS_SERVE_SANDBOX: 'off' };
