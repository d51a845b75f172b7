import { randomUUID } from 'node:crypto';
import { jsonResult, textResult } from '../../tool/result.js';
import type { Tool } from '../../tool/tool.js';

/** Native tools of the built-in demo: in-process OpenClaw-style tools beside the MCP ones. */
export function exampleTools(): Tool[] {
  return [
    {
      name: 'current_time',
      label: 'Current time',
      description: 'Current date and time as ISO 8601, optionally in an IANA time zone.',
      parameters: {
        type: 'object',
        properties: { timeZone: { type: 'string', description: 'IANA zone, e.g. Europe/Paris' } },
      },
      readOnly: true,
      category: 'examples',
      execute: async (_id, params) => {
        const timeZone = typeof params.timeZone === 'string' ? params.timeZone : 'UTC';
        const now = new Date();
        const local = now.toLocaleString('sv-SE', { timeZone }).replace(' ', 'T');
        return jsonResult({ utc: now.toISOString(), timeZone, local });
      },
    },
    {
      name: 'word_count',
      label: 'Word count',
      description: 'Counts the words, lines and characters of a text.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string', description: 'The text to measure' } },
        required: ['text'],
      },
      readOnly: true,
      category: 'examples',
      execute: async (_id, params) => {
        const text = String(params.text ?? '');
        const words = text.trim() === '' ? 0 : text.trim().split(/\s+/u).length;
        return jsonResult({ words, lines: text.split('\n').length, characters: [...text].length });
      },
    },
    {
      name: 'random_uuid',
      label: 'Random UUID',
      description: 'Returns a new random UUID v4.',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      category: 'examples',
      execute: async () => textResult(randomUUID()),
    },
  ];
}
