import { UserError } from '../util/errors.js';
import { SAMPLER_OPTION } from './laplsh/facts.js';

/** Rejects option keys a mechanism does not know (one line, names the mechanism and the key). */
export function checkOptionKeys(mechanism: string, options: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const list = known.length ? `known: ${known.join(', ')}` : 'it takes no options';
      throw new UserError(`mechanism ${mechanism}: unknown option "${key}" (${list})`);
    }
  }
}

/** How a mechanism that adds noise to the vector draws it: through the κ projections (default) or
 *  in R^n (the option's spec: SAMPLER_OPTION, declared on LapLSH's unit). */
export type NoiseSampler = (typeof SAMPLER_OPTION.values)[number];
const SAMPLERS: readonly NoiseSampler[] = SAMPLER_OPTION.values;

/** The `sampler` option of laplsh, vmf and purkayastha (one line naming the mechanism when bad). */
export function samplerOption(mechanism: string, options: Record<string, unknown>): NoiseSampler {
  const s = options.sampler ?? SAMPLER_OPTION.default;
  if (typeof s !== 'string' || !SAMPLERS.includes(s as NoiseSampler)) {
    throw new UserError(`mechanism ${mechanism}: option sampler must be one of ${SAMPLERS.join(', ')}, got ${JSON.stringify(s)}`);
  }
  return s as NoiseSampler;
}
