// A number of bytes as a person would write it, for messages and help.

/** `1 byte`, `512 KiB`, `2 GiB`: the largest binary unit that divides it, else bytes. */
export function formatBytes(n: number): string {
  if (n === 1) return '1 byte';
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  return `${n} bytes`;
}
