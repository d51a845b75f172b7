import { fileURLToPath } from 'node:url';

/** The benchmark data in the repository (`bench/data`, see its README): the default `--suite`. */
export const DEFAULT_BENCH_SUITE = fileURLToPath(new URL('../data/', import.meta.url));
