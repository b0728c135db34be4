// The files of one SIS import as the instance takes them: a CSV alone, or a zip of CSVs. A zip is
// read with bounds, so a small upload cannot unpack into gigabytes (a zip bomb): at most
// MAX_SIS_FILES files, MAX_SIS_BYTES unpacked in all, and no more than 100 times the zip's own size
// (Canvas's own rule for SIS zips). Sizes a zip declares are checked before anything is inflated,
// and each file is inflated into a buffer of its declared size, so a lying header cannot overrun it.
import { unzipSync } from 'fflate';

const MAX_SIS_FILES = 100;
export const MAX_SIS_BYTES = 64 * 1024 * 1024;
const MAX_RATIO = 100;

export interface SisFileBytes {
  name: string;
  /** Its path in the zip (its name, for a CSV alone). */
  path: string;
  bytes: Uint8Array;
}

export class SisFilesError extends Error {}

/** Whether bytes are a zip (its local file header), whatever the name says. */
export const isZip = (bytes: Uint8Array): boolean =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** The CSV files of an upload: the file itself, or the `.csv` files of a zip (folders and others skipped). */
export function sisFilesOf(name: string, bytes: Uint8Array, extension?: string): SisFileBytes[] {
  const zip = extension ? extension.toLowerCase() === 'zip' : isZip(bytes) || /\.zip$/i.test(name);
  if (!zip) {
    if (bytes.length > MAX_SIS_BYTES) throw new SisFilesError(`${name} is larger than ${MAX_SIS_BYTES} bytes`);
    return [{ name, path: name, bytes }];
  }
  const limit = Math.min(MAX_SIS_BYTES, bytes.length * MAX_RATIO);
  let declared = 0;
  let count = 0;
  let unpacked: Record<string, Uint8Array>;
  try {
    unpacked = unzipSync(bytes, {
      filter: (entry) => {
        const path = entry.name;
        if (path.endsWith('/') || /(^|\/)(__MACOSX|\.)/.test(path) || !/\.csv$/i.test(path)) return false;
        if (++count > MAX_SIS_FILES) throw new SisFilesError(`the zip holds more than ${MAX_SIS_FILES} CSV files`);
        declared += entry.originalSize;
        if (declared > limit)
          throw new SisFilesError(
            `the zip unpacks to more than ${limit} bytes (at most ${MAX_RATIO} times its own size, and ` +
              `${MAX_SIS_BYTES} in all)`,
          );
        return true;
      },
    });
  } catch (e) {
    if (e instanceof SisFilesError) throw e;
    throw new SisFilesError(`the zip cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const files = Object.entries(unpacked)
    .map(([n, b]) => ({ name: n.split('/').pop() ?? n, path: n, bytes: b }))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (files.length === 0) throw new SisFilesError('the zip holds no .csv file');
  return files;
}
