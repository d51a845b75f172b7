// A minimal OpenClaw plugin: `openclaw/plugin-sdk/*` resolves to mcptools' own helpers, so no
// OpenClaw install is needed.
import { jsonResult } from 'openclaw/plugin-sdk/core';
import { definePluginEntry } from 'openclaw/plugin-sdk/plugin-entry';

export default definePluginEntry({
  id: 'dice',
  name: 'Dice',
  description: 'Rolls dice',
  register(api) {
    api.registerTool({
      name: 'dice_roll',
      description: 'Roll one die',
      parameters: {
        type: 'object',
        properties: { sides: { type: 'integer', minimum: 2, default: 6, description: 'Number of sides' } },
      },
      execute: async (_id, params) => {
        const sides = typeof params.sides === 'number' ? params.sides : 6;
        return jsonResult({ sides, roll: 1 + Math.floor(Math.random() * sides) });
      },
    });
  },
});
