// The types of what bench/uploads.mjs shares with the tests (the e2e upload-memory test posts its bodies the same way).
export interface Posted {
  status: number;
  body: string;
  /** The sha256 of the random bytes sent, to compare with what the server gives back. */
  sha256: string;
}

export function postRandom(url: string, path: string, bytes: number, options?: { hostile?: boolean }): Promise<Posted>;
