// CPU profile analysis shared by bench/profile.mjs and bench/profile-gateway.mjs: self time per
// category (package, mcptools' dist, node core), per function, and mcptools' functions inclusive.

export function categoryOf(frame) {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(garbage collector)') return 'gc';
    if (functionName === '(program)') return 'native (program)';
    return 'native';
  }
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (packageMatch) return packageMatch[1];
  if (url.includes('/dist/')) return 'mcptools (dist)';
  if (url.startsWith('node:')) return 'node core';
  return 'bench harness';
}

export function locationOf(frame) {
  const short = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/');
  return short ? `${short}:${frame.lineNumber + 1}` : '';
}

/** Self time per node from samples/timeDeltas, then per category, per function and inclusive. */
export function analyzeCpuProfile(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byCategory = {};
  const bySelf = new Map();
  const inclusive = new Map();
  for (const [id, ms] of self) {
    const node = nodes.get(id);
    const category = categoryOf(node.callFrame);
    if (category === 'idle') continue;
    byCategory[category] = (byCategory[category] ?? 0) + ms;
    const key = `${node.callFrame.functionName || '(anonymous)'}\t${locationOf(node.callFrame)}`;
    bySelf.set(key, (bySelf.get(key) ?? 0) + ms);
    // Charge this sample to every distinct mcptools function on its stack, once each.
    const charged = new Set();
    for (let current = id; current !== undefined; current = parent.get(current)) {
      const frame = nodes.get(current).callFrame;
      if (categoryOf(frame) !== 'mcptools (dist)') continue;
      const ownKey = `${frame.functionName || '(anonymous)'}\t${locationOf(frame)}`;
      if (charged.has(ownKey)) continue;
      charged.add(ownKey);
      inclusive.set(ownKey, (inclusive.get(ownKey) ?? 0) + ms);
    }
  }
  const rows = (map) =>
    [...map]
      .map(([key, ms]) => {
        const [name, location] = key.split('\t');
        return { name, location, ms };
      })
      .sort((left, right) => right.ms - left.ms);
  return { byCategory, topSelf: rows(bySelf), ownInclusive: rows(inclusive) };
}
