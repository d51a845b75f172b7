// A replica that dies with a parked call, as a figure: a 2026-07-28 call parked on a 2025 upstream of replica A (it
// elicited, and waits there for the answer); A is SIGKILLed; how long the retry, sent to B, takes
// to get its -32602 "re-issue the call". Each repetition restarts A.

import { connect } from './cluster-load.mjs';
import { summarize } from './stats.mjs';

/**
 * Times `repetitions` retries after SIGKILL. `balancer` fronts `replicas` (A at 0, B at 1);
 * `restartA()` starts A again and returns it. The upstream `ask25` is the sampling fixture in
 * the 2025 era.
 */
export async function reissueAfterKill({ balancer, replicas, restartA, repetitions }) {
  const samples = [];
  const errors = new Set();
  for (let index = 0; index < repetitions; index++) {
    balancer.route = () => 0;
    const client = await connect(balancer.url, 'modern', { capabilities: { elicitation: { form: {} } } });
    try {
      const round = await client.callTool(
        { name: 'ask25__ask_user', arguments: {} },
        { allowInputRequired: true },
      );
      const [input] = Object.keys(round.inputRequests ?? {});
      await replicas[0].kill();
      balancer.route = () => 1;
      const start = performance.now();
      const outcome = await client
        .callTool({
          name: 'ask25__ask_user',
          arguments: {},
          requestState: round.requestState,
          inputResponses: { [input]: { action: 'accept', content: { city: 'Lima' } } },
        })
        .then(
          () => 'answered',
          (error) => `${error.code}`,
        );
      samples.push(performance.now() - start);
      errors.add(outcome);
    } finally {
      await client.close();
      replicas[0] = await restartA();
    }
  }
  return { ...summarize(samples), outcomes: [...errors] };
}
