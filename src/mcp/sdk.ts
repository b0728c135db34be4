// The parts of the MCP SDK the server uses, in one module: the build makes it a file of its own
// (dist/mcp-sdk.cjs), loaded only by `lms mcp`, so no other command pays for it.
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
