/** The list of format units against what derives from it: the registry's entries, the units' own declarations. */
import { describe, expect, it } from 'vitest';
import { FORMATS, findFormat, formatUnits, inputFiles, readerKeys, withoutInputs } from '../../src/data/formats/index.js';
import { REGISTRY } from '../../src/data/registry.js';

describe('format units', () => {
  it('name every registry set’s format, with one registry file per input key of it, in order', () => {
    for (const entry of REGISTRY) {
      const unit = findFormat(entry.format);
      expect(unit, entry.name).toBeDefined();
      expect(entry.files.length, entry.name).toBe(unit!.inputs.length);
      // the main file is the ratings or check-ins, a second one the POI table
      expect(entry.files[0]!.role, entry.name).not.toBe('pois');
    }
  });

  it('declare what they name: input keys among their keys (path aside), flags of their own keys, unique names', () => {
    expect(new Set(FORMATS).size).toBe(FORMATS.length);
    for (const unit of formatUnits()) {
      for (const key of unit.inputs) if (key !== 'path') expect(Object.keys(unit.keys), unit.name).toContain(key);
      for (const flag of unit.flags ?? []) expect(Object.keys(unit.keys), `${unit.name} ${flag.flag}`).toContain(flag.key);
      expect(unit.description.length, unit.name).toBeGreaterThan(10);
    }
  });

  it('give a data set’s input files, and the entry without them, from its format', () => {
    const www = { name: 'w', format: 'foursquare-www19', path: 'c.txt', poi_path: 'p.txt', max_users: 5 };
    expect(inputFiles(www)).toEqual(['c.txt', 'p.txt']);
    expect(withoutInputs(www)).toEqual({ name: 'w', format: 'foursquare-www19', max_users: 5 });
    expect(inputFiles({ name: 's', format: 'synthetic', preset: 'small' })).toEqual([]);
    expect(readerKeys('foursquare-www19')).toEqual(['bbox', 'max_users']);
    expect(readerKeys('interactions')).toEqual(['delimiter', 'header', 'user', 'item', 'value', 'time', 'combine']);
  });
});
