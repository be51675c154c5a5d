/**
 * The public data sets lshdp reads, by name: where each comes from, how to check what arrived,
 * the folder its archive unpacks to and the files lshdp reads inside it. `lshdp data fetch NAME`
 * downloads and installs a downloadable one; `lshdp data add NAME FILE...` installs files fetched
 * by hand (also the sets no program may download); a config names one with `dataset: NAME`.
 *
 * Checksums: GroupLens publishes an MD5 per archive (the `.md5` files beside the zips). MD5 stops
 * accidents (a truncated or corrupted download), not a deliberate forgery: where the content of a
 * file is known, its SHA-256 is pinned too, and a mirror's repacked archive is accepted when every
 * file lshdp reads matches its pin.
 */
import type { Format } from './spec.js';

export interface RegistryFile {
  /** what the file is to the reader: the ratings / check-ins, or the WWW'19 POI table */
  role: 'ratings' | 'checkins' | 'pois';
  /** path inside the data set's folder */
  path: string;
  /** pinned SHA-256 of the file's bytes, where known */
  sha256?: string;
  /** its size in bytes, where known */
  bytes?: number;
}

export interface RegistryEntry {
  name: string;
  title: string;
  /** the reader */
  format: Format;
  /** official URL of the archive (downloadable sets only) */
  url?: string;
  /** published MD5 of the archive's bytes */
  md5?: string;
  /** the folder the archive unpacks to, and where `data add` installs files: under the data folder */
  folder: string;
  /** the files lshdp reads, in the order of its format's input keys (src/data/formats: path, then poi_path) */
  files: RegistryFile[];
  /** the archive's size, for the list (approximate) */
  size: string;
  license: string;
  citation: string;
  /** how to obtain it by hand (sets no program may download) */
  obtain?: string;
}

const GROUPLENS = 'https://files.grouplens.org/datasets/movielens';
const GROUPLENS_LICENSE =
  'GroupLens research license: research use; no redistribution without permission; no commercial use; acknowledge the data set in publications (see the README inside the archive)';
const GROUPLENS_CITATION = 'F. Maxwell Harper and Joseph A. Konstan. 2015. The MovieLens Datasets: History and Context. ACM TiiS 5(4):19. doi:10.1145/2827872';

function movielens(name: string, title: string, archive: string, folder: string, md5: string | undefined, ratings: RegistryFile, format: Format, size: string): RegistryEntry {
  return { name, title, format, url: `${GROUPLENS}/${archive}`, md5, folder, files: [ratings], size, license: GROUPLENS_LICENSE, citation: GROUPLENS_CITATION };
}

export const REGISTRY: readonly RegistryEntry[] = [
  movielens('movielens-100k', 'MovieLens 100K (1998)', 'ml-100k.zip', 'ml-100k', '0e33842e24a9c977be4e0107933c0723', { role: 'ratings', path: 'u.data' }, 'movielens-100k', '5 MB'),
  movielens('movielens-1m', 'MovieLens 1M (2003)', 'ml-1m.zip', 'ml-1m', 'c4d9eecfca2ab87c1945afe126590906', { role: 'ratings', path: 'ratings.dat' }, 'movielens-1m', '6 MB'),
  movielens('movielens-10m', 'MovieLens 10M (2009)', 'ml-10m.zip', 'ml-10M100K', 'ce571fd55effeba0271552578f2648bd', { role: 'ratings', path: 'ratings.dat' }, 'movielens-10m', '63 MB'),
  movielens('movielens-20m', 'MovieLens 20M (2016)', 'ml-20m.zip', 'ml-20m', 'cd245b17a1ae2cc31bb14903e1204af3', { role: 'ratings', path: 'ratings.csv' }, 'movielens-csv', '190 MB'),
  movielens('movielens-25m', 'MovieLens 25M (2019), the paper’s data', 'ml-25m.zip', 'ml-25m', '6b51fb2759a8657d3bfcbfc42b592ada', { role: 'ratings', path: 'ratings.csv' }, 'movielens-csv', '250 MB'),
  // GroupLens rebuilds latest-small from time to time and its archive's MD5 with it: the 2018-09-26
  // build's ratings.csv is pinned instead (CRLF, 2,483,723 bytes)
  movielens(
    'movielens-latest-small',
    'MovieLens latest-small (2018-09-26 build)',
    'ml-latest-small.zip',
    'ml-latest-small',
    undefined,
    { role: 'ratings', path: 'ratings.csv', sha256: 'aa289ca83157595d0df6aea1be6a4ded676ddc4385472e8313a8ed9805352646', bytes: 2_483_723 },
    'movielens-csv',
    '1 MB',
  ),
  {
    name: 'foursquare-www19',
    title: 'Foursquare global-scale check-ins with social networks (WWW 2019), the paper’s data',
    format: 'foursquare-www19',
    folder: 'foursquare-www19',
    files: [
      { role: 'checkins', path: 'raw_Checkins_anonymized.txt' },
      { role: 'pois', path: 'raw_POIs.txt' },
    ],
    size: '1.6 GB',
    license: 'research use, cite the paper; no redistribution (the authors’ terms on their page)',
    citation:
      'Dingqi Yang, Bingqing Qu, Jie Yang, Philippe Cudré-Mauroux. 2019. Revisiting User Mobility and Social Relationships in LBSNs: A Hypergraph Embedding Approach. WWW 2019. doi:10.1145/3308558.3313635',
    obtain:
      'request it on the authors’ data set page (Dingqi Yang, sites.google.com/site/yangdingqi, "Global-scale Check-in Dataset with User Social Networks"), then: lshdp data add foursquare-www19 raw_Checkins_anonymized.txt raw_POIs.txt',
  },
  {
    name: 'foursquare-tsmc2014-nyc',
    title: 'Foursquare TSMC 2014, New York check-ins',
    format: 'foursquare-tsmc',
    folder: 'foursquare-tsmc2014',
    files: [{ role: 'checkins', path: 'dataset_TSMC2014_NYC.txt' }],
    size: '80 MB (both cities)',
    license: 'research use, cite the paper; no redistribution (the authors’ terms on their page)',
    citation:
      'Dingqi Yang, Daqing Zhang, Vincent W. Zheng, Zhiyong Yu. 2015. Modeling User Activity Preference by Leveraging User Spatial Temporal Characteristics in LBSNs. IEEE TSMC: Systems 45(1):129-142. doi:10.1109/TSMC.2014.2327053',
    obtain:
      'download dataset_tsmc2014.zip from the authors’ data set page (Dingqi Yang, sites.google.com/site/yangdingqi, "NYC and Tokyo Check-in Dataset"), unzip it, then: lshdp data add foursquare-tsmc2014-nyc dataset_TSMC2014_NYC.txt',
  },
];

export const REGISTRY_NAMES: readonly string[] = REGISTRY.map((e) => e.name);

/** The entry of `name`, or undefined. */
export function registryEntry(name: string): RegistryEntry | undefined {
  return REGISTRY.find((e) => e.name === name);
}

/** The data folder: --data-dir, else LSHDP_DATA_DIR, else data/ in the working directory. */
export function dataFolder(flag?: string): string {
  return flag ?? process.env.LSHDP_DATA_DIR ?? 'data';
}
