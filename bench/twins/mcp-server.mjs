// `lms mcp` written by hand: a minimal server on the same MCP SDK over stdio, with a tools
// capability and no tools, serving until stdin closes. The SDK comes from node_modules, imported
// as its README shows; or, with BENCH_MCP_SDK naming dist/mcp-sdk.cjs, the SDK as lms ships it
// (one file, without ajv), so the ratio to it is what lms adds, not how the SDK is packaged.
import { createRequire } from 'node:module';

const sdk = process.env.BENCH_MCP_SDK
  ? createRequire(import.meta.url)(process.env.BENCH_MCP_SDK)
  : {
      ...(await import('@modelcontextprotocol/sdk/server/index.js')),
      ...(await import('@modelcontextprotocol/sdk/server/stdio.js')),
      ...(await import('@modelcontextprotocol/sdk/types.js')),
    };
const server = new sdk.Server(
  { name: 'twin', version: '1.0.0' },
  // No elicitation is asked for, so nothing to validate (as in lms, whose SDK file leaves ajv out).
  { capabilities: { tools: {} }, jsonSchemaValidator: { getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'none' }) } },
);
server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools: [] }));
await server.connect(new sdk.StdioServerTransport());
