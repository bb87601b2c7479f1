/**
 * The SHA-256 of a text or bytes, in hex. node:crypto is loaded on first use: imported at the top of a module on
 * the start-up path, it costs every `hac` start about 5.5 ms, and only rare paths hash (a memory summary, a picture).
 */
export function sha256Hex(data: string | Uint8Array): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(data).digest('hex');
}
