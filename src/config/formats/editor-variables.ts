import { sep } from 'node:path';
import type { ConfigReadContext } from '../config-read-context.js';

/** The predefined variables VS Code and Cursor substitute in their MCP files. */
export function editorVariables(context: ConfigReadContext): Record<string, string> {
  const basename = context.workspaceFolder.split(/[\\/]/).filter(Boolean).pop() ?? '';
  return {
    workspaceFolder: context.workspaceFolder,
    workspaceFolderBasename: basename,
    userHome: context.homeDir,
    pathSeparator: sep,
  };
}
