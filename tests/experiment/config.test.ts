import { describe, it, expect } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatPath } from '../../src/experiment/config/wording.js';
import { parseConfig, loadConfig } from '../../src/experiment/config.js';
import { didYouMean, editDistance } from '../../src/util/didYouMean.js';
import { UserError } from '../../src/util/errors.js';

const ROOT_CONFIGS = join(import.meta.dirname, '..', '..', 'configs');

const VALID = `name: t
datasets:
  - { name: s, format: synthetic, preset: small }
dims: [10]
k: [1]
kappa: [10]
privacy: { xi: [0, 1] }
mechanisms: [exact, lsh, {name: laplsh, sampler: direct}, {name: rappor, hashes: 2}]
`;

function problems(text: string): string[] {
  try {
    parseConfig(text, 'c.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    const lines = (e as Error).message.split('\n');
    return lines.length === 1 ? [lines[0].replace(/^c\.yaml: /, '')] : lines.slice(1).map((l) => l.trim());
  }
  throw new Error('config was accepted');
}

describe('config schema', () => {
  it('fills defaults and splits mechanism options', () => {
    const c = parseConfig(VALID, 'c.yaml');
    expect(c.seed).toBe(1);
    expect(c.queries).toBe(1000);
    expect(c.trials).toBe(10);
    expect(c.privacy).toEqual({ d: 0.1, delta: 0.01, xi: [0, 1] });
    expect(c.mechanisms).toEqual([
      { name: 'exact', label: 'exact', options: {} },
      { name: 'lsh', label: 'lsh', options: {} },
      { name: 'laplsh', label: 'laplsh', options: { sampler: 'direct' } },
      { name: 'rappor', label: 'rappor', options: { hashes: 2 } },
    ]);
  });

  it('labels entries, defaults the accountant of lshrr to paper, and refuses a duplicate label or a misplaced accountant', () => {
    const withMechs = (m: string) => VALID.replace(/mechanisms: .*/, `mechanisms: ${m}`);
    const c = parseConfig(withMechs('[lshrr, {name: lshrr, accountant: exact, label: lshrr-exact}]'), 'c.yaml');
    expect(c.mechanisms).toEqual([
      { name: 'lshrr', label: 'lshrr', options: { accountant: 'paper' } },
      { name: 'lshrr', label: 'lshrr-exact', options: { accountant: 'exact' } },
    ]);
    expect(() => parseConfig(withMechs('[lshrr, {name: lshrr, accountant: exact}]'), 'c.yaml')).toThrow(/c\.yaml: mechanisms: two entries are labelled "lshrr"/);
    expect(() => parseConfig(withMechs('[{name: lsh, accountant: exact}]'), 'c.yaml')).toThrow(
      /c\.yaml: mechanisms\[0\]\.accountant: lsh has no accountant \(only lshrr, minhash-bucket, minhash-noisy take one\)/,
    );
    expect(() => parseConfig(withMechs('[{name: lshrr, accountant: exakt}]'), 'c.yaml')).toThrow(/mechanisms\[0\]\.accountant: unknown accountant "exakt" \(did you mean "exact"\?\)/);
  });

  it('reports every problem with its key path', () => {
    const p = problems(`name: t
datasets:
  - { name: s, formt: synthetic }
dims: [0]
k: [1]
kappa: [65, 10]
privacy: { xi: [0, 1, -1], d: 1, delta: 0 }
mechanisms: [lsh, lshr]
bogus: 1
`);
    expect(p).toEqual(
      expect.arrayContaining([
        'datasets[0].formt: unknown key (did you mean "format"?)',
        expect.stringMatching(/^datasets\[0\]\.format: missing/),
        'dims[0]: must be >= 1, got number 0',
        'kappa[0]: must be <= 64, got number 65',
        'privacy.xi[2]: must be >= 0, got number -1',
        'privacy.d: must be < 1, got number 1',
        'privacy.delta: must be > 0, got number 0',
        expect.stringMatching(/^mechanisms\[1\]: unknown mechanism "lshr"/),
        'bogus: unknown key',
      ]),
    );
    expect(p).toHaveLength(9);
  });

  it('rejects duplicates, empty grids, wrong types and format-specific omissions', () => {
    expect(problems(VALID.replace('dims: [10]', 'dims: [10, 10]'))).toEqual(['dims: duplicate value 10']);
    expect(problems(VALID.replace('k: [1]', 'k: []'))).toEqual(['k: must list at least one value']);
    expect(problems(VALID.replace('kappa: [10]', 'kappa: ten'))).toEqual(['kappa: must be a list, got string "ten"']);
    expect(problems(VALID.replace('kappa: [10]', 'kappa: [1.5]'))).toEqual(['kappa[0]: must be an integer, got number 1.5']);
    expect(problems(VALID.replace('- { name: s, format: synthetic, preset: small }', '- { name: s, format: synthetic }\n  - { name: s, format: movielens-csv }'))).toEqual([
      'datasets: duplicate data set name "s"',
      'datasets[0].preset: missing (required for format synthetic; known: small, movielens-25m, foursquare-nyc, checkins-nyc, foursquare-small)',
      'datasets[1].path: missing (required for format movielens-csv)',
    ]);
    expect(problems(VALID.replace('privacy: { xi: [0, 1] }', 'privacy: { xi: [.inf] }'))).toEqual(['privacy.xi[0]: must be a finite number, got number Infinity']);
    expect(problems(VALID.replace('name: t', 'name: ../evil'))[0]).toMatch(/^name: must be letters/);
  });

  it('a bad value in the recommend and attack blocks is named with its key and the value it got, one style for range and type', () => {
    const one = (block: string) => problems(`${VALID}${block}\n`);
    expect(one('recommend: {holdout: -1}')).toEqual(['recommend.holdout: must be >= 1, got number -1']);
    expect(one('recommend: {holdout: 1.5}')).toEqual(['recommend.holdout: must be an integer, got number 1.5']);
    expect(one('recommend: {top: [10, 0]}')).toEqual(['recommend.top[1]: must be >= 1, got number 0']);
    expect(one('recommend: {split: first}')).toEqual(['recommend.split: must be one of "last", "random", got string "first"']);
    expect(one('attack: {known: [0]}')).toEqual(['attack.known[0]: must be > 0, got number 0']);
    expect(one('attack: {known: [0.5, 1.5]}')).toEqual(['attack.known[1]: must be <= 1, got number 1.5']);
    expect(one('attack: {known: [.inf]}')).toEqual(['attack.known[0]: must be a finite number, got number Infinity']);
    expect(one('attack: {targets: 0}')).toEqual(['attack.targets: must be >= 1, got number 0']);
    expect(one('attack: {targets: 2.5}')).toEqual(['attack.targets: must be an integer, got number 2.5']);
  });

  it('interactions without a header: columns by 0-based index, delimiter whitespace; a bad index or a name without a header is refused', () => {
    const entry = (keys: string) => VALID.replace('- { name: s, format: synthetic, preset: small }', `- { name: s, format: interactions, path: r.txt, ${keys} }`);
    const c = parseConfig(entry('header: false, delimiter: whitespace, user: 0, item: 1, value: 2'), 'c.yaml');
    expect(c.datasets[0]).toMatchObject({ header: false, delimiter: 'whitespace', user: 0, item: 1, value: 2 });
    // names with a header, as before
    expect(parseConfig(entry('user: userId, item: 1'), 'c.yaml').datasets[0]).toMatchObject({ user: 'userId', item: 1 });
    expect(problems(entry('header: false, user: 1.5, item: -1'))).toEqual([
      'datasets[0].user: a column index is a whole number ≥ 0 (0 is the first column), got 1.5',
      'datasets[0].item: a column index is a whole number ≥ 0 (0 is the first column), got -1',
    ]);
    expect(problems(entry('header: false, user: userId, item: 1'))).toEqual([
      'datasets[0].user: "userId" is a column name, but header: false gives the columns no names: give its 0-based index (e.g. user: 0)',
    ]);
    expect(problems(entry('user: [0], item: 1'))).toEqual(['datasets[0].user: must be a column name or a 0-based column index, got a list']);
    expect(problems(entry('header: no, user: 0, item: 1'))).toEqual(['datasets[0].header: must be true or false, got string "no"']);
    expect(problems(VALID.replace('preset: small }', 'preset: small, header: false }'))).toEqual(['datasets[0].header: only applies to format interactions (this data set is synthetic)']);
  });

  it('parses YAML safely: duplicate keys, custom tags and non-mappings are errors with a line', () => {
    expect(() => parseConfig('name: a\nname: b\n', 'c.yaml')).toThrow(/^c\.yaml:2: Map keys must be unique/);
    expect(() => parseConfig('name: !!js/function "function(){}"\n', 'c.yaml')).toThrow(/c\.yaml:1: Unresolved tag/);
    expect(() => parseConfig('- 1\n', 'c.yaml')).toThrow('c.yaml: must be a mapping');
    expect(() => parseConfig('', 'c.yaml')).toThrow('c.yaml: empty config');
  });

  it('checks input files exist, relative to the given folder, and returns them absolute', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-cfg-'));
    const text = VALID.replace('- { name: s, format: synthetic, preset: small }', '- { name: m, format: movielens-csv, path: ratings.csv }');
    expect(() => parseConfig(text, 'c.yaml', { checkFiles: true, cwd: dir })).toThrow(`c.yaml: datasets[0].path: file not found: ${join(dir, 'ratings.csv')}`);
    writeFileSync(join(dir, 'ratings.csv'), 'userId,movieId,rating,timestamp\n');
    expect(parseConfig(text, 'c.yaml', { checkFiles: true, cwd: dir }).datasets[0].path).toBe(join(dir, 'ratings.csv'));
  });

  it("loadConfig resolves relative input paths against the config file's folder", () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-cfg-'));
    mkdirSync(join(dir, 'configs'));
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'ratings.csv'), 'userId,movieId,rating,timestamp\n');
    const text = VALID.replace('- { name: s, format: synthetic, preset: small }', '- { name: m, format: movielens-csv, path: ../data/ratings.csv }');
    writeFileSync(join(dir, 'configs', 'c.yaml'), text);
    expect(loadConfig(join(dir, 'configs', 'c.yaml'), { checkFiles: true }).datasets[0].path).toBe(join(dir, 'data', 'ratings.csv'));
  });

  it('accepts every shipped config', () => {
    for (const f of readdirSync(ROOT_CONFIGS).filter((f) => f.endsWith('.yaml'))) {
      expect(() => loadConfig(join(ROOT_CONFIGS, f)), f).not.toThrow();
    }
  });

  it('formats paths and suggests near keys only', () => {
    expect(formatPath(['privacy', 'xi', 2])).toBe('privacy.xi[2]');
    expect(formatPath(['datasets', 0, 'formt'])).toBe('datasets[0].formt');
    expect(editDistance('formt', 'format')).toBe(1);
    expect(editDistance('kapap', 'kappa')).toBe(1); // adjacent swap
    expect(didYouMean('tirals', ['trials', 'dims'])).toBe('trials');
    expect(didYouMean('zzzzzz', ['trials', 'dims'])).toBeNull();
  });
});

describe('--set overrides in error messages', () => {
  const message = (sets: string[], text = VALID): string => {
    try {
      parseConfig(text, 'base.yaml', { overrides: sets });
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      return (e as Error).message;
    }
    throw new Error('config was accepted');
  };

  it('a problem under the key a --set sets names the --set, not the file (which holds neither)', () => {
    expect(message(['kapa=[20]'])).toBe('--set kapa=[20]: kapa: unknown key (did you mean "kappa"?)');
    expect(message(['kappa=[20,abc]'])).toBe('--set kappa=[20,abc]: kappa[1]: must be a number, got string "abc"');
    expect(message(['privacy.xi=[1, -1]'])).toBe('--set privacy.xi=[1, -1]: privacy.xi[1]: must be >= 0, got number -1');
    // a later --set of the same key is the one that counts
    expect(message(['trials=2', 'trials=0'])).toBe('--set trials=0: trials: must be >= 1, got number 0');
  });

  it('problems of the file stay the file’s; a mix names each line’s source', () => {
    expect(message([], VALID.replace('k: [1]', 'k: [0]'))).toBe('base.yaml: k[0]: must be >= 1, got number 0');
    expect(message(['trials=0'], VALID.replace('k: [1]', 'k: [0]'))).toBe('base.yaml: 2 problems:\n  k[0]: must be >= 1, got number 0\n  --set trials=0: trials: must be >= 1, got number 0');
    // the key of a --set must be the whole path segment: kappa does not cover kappa_x
    expect(message(['k=[1]'], VALID.replace('kappa: [10]', 'kappa: [10, 10]'))).toBe('base.yaml: kappa: duplicate value 10');
  });
});

describe('data sets named from the registry', () => {
  it('an entry with dataset: and no name: takes the registry name', () => {
    const text = VALID.replace('  - { name: s, format: synthetic, preset: small }', '  - dataset: movielens-latest-small\n  - { dataset: movielens-100k, name: ml100k }');
    const c = parseConfig(text, 'c.yaml', { dataDir: 'elsewhere' });
    expect(c.datasets.map((d) => [d.name, d.dataset, d.format])).toEqual([
      ['movielens-latest-small', 'movielens-latest-small', 'movielens-csv'],
      ['ml100k', 'movielens-100k', 'movielens-100k'],
    ]);
  });
});

describe('a missing input file of a registry set', () => {
  const missing = (file: string): string => {
    const text = readFileSync(join(ROOT_CONFIGS, file), 'utf8');
    // from a folder with no ../../shared/data beside it
    const cwd = mkdtempSync(join(tmpdir(), 'lshdp-cfg-'));
    try {
      parseConfig(text, file, { checkFiles: true, cwd: join(cwd, 'a', 'b') });
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      return (e as Error).message;
    }
    throw new Error('config was accepted');
  };

  it('a folder merely named like a set (the shared data elsewhere) gets the plain answer, no registry', () => {
    const ml = missing('shared-movielens-small.yaml');
    // (its path runs through a data/ folder: the README's downloads hint, as for any such path)
    expect(ml).toMatch(/datasets\[0\]\.path: file not found: .*movielens-latest-small\/ratings\.csv \(download it first: README, "Getting the paper's data"\)$/);
    expect(ml).not.toMatch(/registry/);
    expect(missing('shared-tsmc.yaml')).toMatch(/datasets\[0\]\.path: file not found: .*foursquare-tsmc2014-nyc\/checkins\.tsv \(download it first: README, "Getting the paper's data"\)$/);
  });

  const say = (path: string, cwd = mkdtempSync(join(tmpdir(), 'lshdp-cfg-'))): string => {
    try {
      parseConfig(VALID.replace('{ name: s, format: synthetic, preset: small }', `{ name: s, format: movielens-csv, path: ${path} }`), 'c.yaml', { checkFiles: true, cwd });
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('config was accepted');
  };

  it('names the set only in the folder where lshdp data fetch installs it; other paths keep the data/ hint', () => {
    expect(say('data/ml-25m/ratings.csv')).toMatch(/\(a file of the registry set movielens-25m: .*lshdp data fetch movielens-25m\)$/);
    // the shared 3-column TSMC subset in the install folder is not the set's file: said, with the file the set reads
    expect(say('data/foursquare-tsmc2014/checkins.tsv')).toMatch(
      /checkins\.tsv \(the folder of the registry set foursquare-tsmc2014-nyc, which reads another file, dataset_TSMC2014_NYC\.txt, with results of its own: .*"dataset: foursquare-tsmc2014-nyc".* after lshdp data add foursquare-tsmc2014-nyc dataset_TSMC2014_NYC\.txt/,
    );
    // a file name only one set has, in a folder lshdp would not install it to: the plain answer
    expect(say('downloads/dataset_TSMC2014_NYC.txt')).toMatch(/file not found: .*downloads\/dataset_TSMC2014_NYC\.txt$/);
    expect(say('data/ratings.csv')).toMatch(/file not found: .*data\/ratings\.csv \(download it first: README, "Getting the paper's data"\)$/);
    expect(say('elsewhere/ratings.csv')).toMatch(/file not found: .*elsewhere\/ratings\.csv$/);
  });

  it('a typo of a file that is there says so first, with the near names, and nothing of the registry', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'lshdp-cfg-'));
    for (const folder of ['movielens-latest-small', 'data/movielens-latest-small']) {
      mkdirSync(join(cwd, folder), { recursive: true });
      writeFileSync(join(cwd, folder, 'ratings.csv'), 'userId,movieId,rating,timestamp\n');
      writeFileSync(join(cwd, folder, 'movies.csv'), 'movieId,title,genres\n');
      const said = say(`${folder}/ratngs.csv`, cwd);
      expect(said).toMatch(new RegExp(`datasets\\[0\\]\\.path: file not found: .*${folder}/ratngs\\.csv \\(did you mean ratings\\.csv\\?\\)$`));
      expect(said).not.toMatch(/registry/);
    }
  });
});
