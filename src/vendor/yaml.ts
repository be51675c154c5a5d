/**
 * YAML (the `yaml` package), from the build's one-file bundle where there is one (its 72 CommonJS
 * files take about 25 ms to resolve and load before a run can read its config, the bundle about 6),
 * else from the package: the same code either way.
 */
import type * as Yaml from 'yaml';
import { loadBundle, requirePackage } from './bundle.js';

const yaml = loadBundle<typeof Yaml>('yaml') ?? requirePackage<typeof Yaml>('yaml');

export const parse: typeof Yaml.parse = yaml.parse;
export const parseDocument: typeof Yaml.parseDocument = yaml.parseDocument;
export const stringify: typeof Yaml.stringify = yaml.stringify;
