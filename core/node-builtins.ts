/**
 * Node built-ins taken as CommonJS modules rather than with `import … from`: Node's ES module wrapper of a built-in
 * reads every export, and some exports load more of Node on first read. node:http's WebSocket getter loads all of
 * undici (~40 ms, nodejs/node#57649); node:util's getters load its diff and colour helpers (~3.5 ms).
 */
export const nodeHttp = process.getBuiltinModule('node:http');
export const nodeUtil = process.getBuiltinModule('node:util');
