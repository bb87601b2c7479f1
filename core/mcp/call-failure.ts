import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './mcp-config.js';
import { McpPoolError, zodIssues } from './mcp-errors.js';
import { callProblem } from './start-failure.js';

/** A failed tool call as one line for the model and the user: cancelled, timed out, a broken result, or why. */
export function callFailure(
  server: McpServerConfig,
  tool: string,
  error: unknown,
  signal: AbortSignal,
  stderr: readonly string[],
): McpPoolError {
  const name = server.name;
  if (error instanceof McpPoolError) return error;
  if (signal.aborted)
    return new McpPoolError('cancelled', name, `The call to ${name}/${tool} was cancelled.`, {
      cause: error,
    });
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    const seconds = server.timeoutMs / 1000;
    return new McpPoolError('mcp-timeout', name, `${name}/${tool} did not answer within ${seconds} s.`, {
      cause: error,
    });
  }
  const schemaProblems = zodIssues(error);
  if (schemaProblems)
    return new McpPoolError(
      'mcp-call-failed',
      name,
      `MCP server "${name}" sent a tools/call result that does not follow the MCP schema: ${schemaProblems}.`,
      { cause: error },
    );
  return new McpPoolError(
    'mcp-call-failed',
    name,
    `${name}/${tool} failed: ${callProblem(server, error, stderr)}`,
    {
      cause: error,
    },
  );
}
