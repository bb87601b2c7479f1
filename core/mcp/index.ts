// The MCP client pool's public surface. No top-level side effects: hosts import() it lazily.
export {
  McpPool,
  type McpPoolEvent,
  type McpPoolOptions,
  type McpServerStatus,
  type Offered,
} from './mcp-pool.js';
export type { McpPromptInfo, McpResourceInfo } from './list-features.js';
export type { FeatureContent } from './feature-content.js';
export type { Elicit } from './elicitation.js';
export { checkForm, fieldPrompt, readFieldAnswer } from './form-fields.js';
export type { McpServerState } from './mcp-connection.js';
export {
  loadMcpServers,
  parseMcpServers,
  type McpServerConfig,
  type McpServersFile,
  type McpTransportKind,
} from './mcp-config.js';
export { McpPoolError, type McpErrorCode } from './mcp-errors.js';
export { McpTool } from './mcp-tool.js';
export type { ViewResource, ViewPolicy } from './app-views.js';
export {
  openViewBridge,
  type DisplayMode,
  type ViewBridge,
  type ViewHooks,
  type ViewStart,
} from './view-bridge.js';
export type { McpToolInfo } from './list-tools.js';
export { toolResultText, type McpCallResult } from './tool-result-text.js';
// Builds the SDK's wire schemas now rather than at the first connection: a host does it before it waits for input.
export { preloadSchemas } from '@modelcontextprotocol/client';
