// The code of a failed file-system call (`ENOENT`, `EACCES`…), which the folder walk and the settle
// checker both decide by.
export function code(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}
