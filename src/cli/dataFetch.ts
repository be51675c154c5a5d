/** `lshdp data fetch | list | add`: the registry's data sets under the data folder. */
import type { Command } from 'commander';
import { forceOption, intArg, quietOption } from './options.js';
import { cliIo } from './io.js';
import { dataFolder, REGISTRY_NAMES } from '../data/registry.js';

interface FetchFlags {
  dataDir?: string;
  mirror?: string;
  force?: boolean;
  quiet?: boolean;
  retries?: number;
}

const DATA_DIR_HELP = 'data folder (default: $LSHDP_DATA_DIR, else data/ in the working directory)';

export function registerDataFetch(data: Command): void {
  data
    .command('fetch')
    .description('download, verify (published checksum), unpack and install registry data sets under the data folder')
    .argument('<name...>', `data sets: ${REGISTRY_NAMES.join(', ')}`)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--mirror <base>', "fetch from BASE followed by the official URL's path (an institutional mirror)")
    .addOption(forceOption('download and install again, replacing what is there'))
    .option('--retries <n>', 'tries again after a lost or refused connection or a server error, waiting 1, 2, 4, 8… s', intArg('--retries', 0), 4)
    .addOption(quietOption('no progress bar, license, citation, retry or waiting lines'))
    .action(async (names: string[], o: FetchFlags) => {
      const { fetchNamed } = await import('./dataFetchRun.js');
      await fetchNamed(names, { dataDir: dataFolder(o.dataDir), mirror: o.mirror, force: o.force, quiet: o.quiet, retries: o.retries });
    });
  data
    .command('list')
    .description('every data set lshdp knows: installed or not, size, license, where it goes and how to get it')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--json', 'print one JSON array')
    .action(async (o: { dataDir?: string; json?: boolean }) => {
      const { listDatasets } = await import('./dataFetchRun.js');
      cliIo().out(listDatasets(dataFolder(o.dataDir), o.json === true));
    });
  data
    .command('add')
    .description('install files obtained by hand (a downloaded archive, or the files of a set no program may download)')
    .argument('<name>', 'registry data set')
    .argument('<file...>', 'its archive, or its files (recognized by name)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .addOption(forceOption('replace what is there'))
    .addOption(quietOption('no license, citation or waiting lines'))
    .action(async (name: string, files: string[], o: { dataDir?: string; force?: boolean; quiet?: boolean }) => {
      const { addNamed } = await import('./dataFetchRun.js');
      await addNamed(name, files, { dataDir: dataFolder(o.dataDir), force: o.force, quiet: o.quiet });
    });
}
